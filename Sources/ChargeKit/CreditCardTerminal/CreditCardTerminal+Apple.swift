#if canImport(UIKit) && !os(watchOS)
import Foundation

extension CreditCardTerminal.ChargeRequest {
    /// The app's display name (CFBundleDisplayName, then CFBundleName), the default
    /// for ``returnAppName``.
    public static var defaultReturnAppName: String? {
        let info = Bundle.main.infoDictionary
        return (info?["CFBundleDisplayName"] as? String) ?? (info?["CFBundleName"] as? String)
    }
}
#endif
