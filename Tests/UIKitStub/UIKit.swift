// A minimal interface stub of the UIKit declarations ChargeKit's Apple glue uses, written
// from Apple's documented signatures (isolation included: UIKit's classes are
// @MainActor). It lets scripts/uikit-typecheck.sh type-check that glue on Linux under
// Swift 6 strict concurrency. Nothing here runs and nothing links it; on Apple
// platforms the real UIKit is used.
import Foundation

public let NSUserActivityTypeBrowsingWeb = "NSUserActivityTypeBrowsingWeb"

/// Foundation's `NSUserActivity` (absent from swift-corelibs-foundation).
open class NSUserActivity: NSObject {
    open var activityType: String { "" }
    open var webpageURL: URL? { nil }
}

@MainActor open class UIResponder: NSObject {}

@MainActor open class UIApplication: UIResponder {
    public struct OpenURLOptionsKey: Hashable, RawRepresentable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
    }
    open class var shared: UIApplication { fatalError("stub") }
    open func canOpenURL(_ url: URL) -> Bool { fatalError("stub") }
    open func open(_ url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) async -> Bool { fatalError("stub") }
}

@MainActor open class UIOpenURLContext: NSObject {
    open var url: URL { fatalError("stub") }
}

@MainActor open class UISceneSession: NSObject {}

@MainActor open class UIScene: UIResponder {
    @MainActor open class ConnectionOptions: NSObject {
        open var urlContexts: Set<UIOpenURLContext> { fatalError("stub") }
        open var userActivities: Set<NSUserActivity> { fatalError("stub") }
    }
}

@MainActor open class UIWindowScene: UIScene {}

@MainActor open class UIWindow: UIResponder {}

@MainActor public protocol UISceneDelegate: NSObjectProtocol {
    func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions)
    func scene(_ scene: UIScene, openURLContexts URLContexts: Set<UIOpenURLContext>)
    func scene(_ scene: UIScene, continue userActivity: NSUserActivity)
}

extension UISceneDelegate {
    public func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {}
    public func scene(_ scene: UIScene, openURLContexts URLContexts: Set<UIOpenURLContext>) {}
    public func scene(_ scene: UIScene, continue userActivity: NSUserActivity) {}
}

@MainActor public protocol UIWindowSceneDelegate: UISceneDelegate {
    var window: UIWindow? { get set }
}
