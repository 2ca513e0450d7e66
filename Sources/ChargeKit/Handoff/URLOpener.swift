/// Opens a URL in another app. On Apple platforms `UIApplicationOpener` does it with
/// `UIApplication`; elsewhere (tests, command-line tools, simulators) pass your own.
public protocol URLOpener: Sendable {
    /// Opens `url`.
    /// - Throws: ``ChargeKitError/appNotInstalled(scheme:)`` when no app handles the
    ///   scheme, ``ChargeKitError/openFailed(_:)`` for any other refusal.
    func open(_ url: String) async throws(ChargeKitError)
}

/// An opener made from a closure.
public struct ClosureURLOpener: URLOpener {
    private let body: @Sendable (String) async throws(ChargeKitError) -> Void

    /// Makes an opener that calls `body`.
    public init(_ body: @escaping @Sendable (String) async throws(ChargeKitError) -> Void) { self.body = body }

    public func open(_ url: String) async throws(ChargeKitError) { try await body(url) }
}
