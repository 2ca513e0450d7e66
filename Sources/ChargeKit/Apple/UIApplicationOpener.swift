#if canImport(UIKit) && !os(watchOS)
import Foundation
import UIKit

/// Opens payment apps with `UIApplication`. Thin glue: every decision is made in
/// platform-neutral code. A `false` from `open(_:options:)` for a scheme that
/// `canOpenURL` does not know is reported as ``ChargeKitError/appNotInstalled(scheme:)``;
/// list the provider's ``PaymentProvider/queriedScheme`` under
/// `LSApplicationQueriesSchemes` so that `canOpenURL` can tell.
@MainActor
public struct UIApplicationOpener: URLOpener {
    /// Makes an opener using `UIApplication.shared`.
    public nonisolated init() {}

    public nonisolated func open(_ url: String) async throws(ChargeKitError) {
        guard let target = URL(string: url), let scheme = target.scheme else {
            throw .invalidURL("url", rule: "is not a URL UIKit accepts")
        }
        let opened = await MainActor.run { () -> Bool? in
            guard UIApplication.shared.canOpenURL(target) else { return nil }
            return true
        }
        guard opened != nil else { throw .appNotInstalled(scheme: scheme) }
        let success = await UIApplication.shared.open(target, options: [:])
        guard success else { throw .openFailed("UIApplication refused \(scheme)://") }
    }
}

extension SandboxAppOpener {
    /// Makes an opener that opens the sandbox's payment-apps page in Safari (with
    /// ``UIApplicationOpener``); for debug builds.
    public init(page: URL) {
        self.init(page: page, opening: UIApplicationOpener())
    }
}

extension PaymentCoordinator {
    /// Call from `scene(_:openURLContexts:)`: handles each URL context.
    @discardableResult
    public func handle(_ contexts: Set<UIOpenURLContext>) async -> [Result<PaymentResult, ChargeKitError>] {
        var results: [Result<PaymentResult, ChargeKitError>] = []
        for context in contexts {
            do throws(ChargeKitError) { results.append(.success(try await handle(url: context.url.absoluteString))) }
            catch { results.append(.failure(error)) }
        }
        return results
    }
}
#endif
