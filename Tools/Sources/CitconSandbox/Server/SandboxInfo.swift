@_spi(Tools) import ChargeKit
@_spi(Tools) import CitconUPI
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// What a started sandbox tells its user.
public struct SandboxInfo: Sendable, Equatable {
    /// Where the API is, such as `http://127.0.0.1:8790`.
    public var baseURL: String
    /// The merchant private key for `POST /v1/access-tokens`.
    public var merchantKey: String
    /// The merchant's IPN secret: every IPN is signed with it (see `CPayIPN.verify`).
    public var ipnSecret: String
    /// The database file.
    public var databasePath: String
    /// The schema version after migration.
    public var schemaVersion: Int
    /// The address and port it is bound to, such as `127.0.0.1:54321` (the port `--port 0`
    /// got; `baseURL` is the public URL when one was given).
    public var boundAddress: String = ""

    /// The dashboard, `/sandbox/dashboard`.
    public var dashboardURL: String { baseURL + "/sandbox/dashboard" }
    /// The payment apps played in a browser, `/apps/open`: the page ChargeKit's
    /// `SandboxAppOpener(page:)` sends a phone's hand-offs to.
    public var paymentAppsURL: String { baseURL + AppSimulatorPage.path }
}
