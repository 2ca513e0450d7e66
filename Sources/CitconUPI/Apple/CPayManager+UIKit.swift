#if canImport(UIKit) && !os(watchOS)
@_spi(Tools) import ChargeKit
import Foundation
import UIKit

/// The seed's UIKit entry points: thin glue over the platform-neutral
/// ``CPayManager/handle(url:)``. They run on the main actor, where UIKit calls its
/// delegates and where `UIOpenURLContext` may be read.
@MainActor
extension CPayManager {
    /// Call from `application(_:open:options:)`.
    @discardableResult
    public func handleUrl(_ app: UIApplication, open url: URL,
                          options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
        handle(url: url)
    }

    /// Call from `scene(_:openURLContexts:)`.
    public func handleScene(_ URLContexts: Set<UIOpenURLContext>) {
        for context in URLContexts { handle(url: context.url) }
    }

    /// Call from `application(_:continue:restorationHandler:)` or
    /// `scene(_:continue:)` (WeChat Pay returns through a universal link).
    public func handleUniversalLink(_ userActivity: NSUserActivity) {
        if userActivity.activityType == NSUserActivityTypeBrowsingWeb, let url = userActivity.webpageURL {
            handle(url: url)
        }
    }

    /// Uses `UIApplication` to open wallets unless an opener was set.
    public func useSystemOpenerIfNeeded() {
        if opener == nil { opener = UIApplicationOpener() }
    }
}
#endif
