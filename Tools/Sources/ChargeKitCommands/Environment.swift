import Foundation

/// The secrets a command reads from the environment when its flag is absent: a flag's
/// value shows in `ps` and in shell history, an environment variable does not.
public enum Environment {
    /// `CHARGEKIT_MERCHANT_KEY`: the merchant private key (`--key`, `--merchant-key`).
    public static var merchantKey: String? { value("CHARGEKIT_MERCHANT_KEY") }
    /// `CHARGEKIT_IPN_SECRET`: the IPN secret (`--secret`, `--ipn-secret`).
    public static var ipnSecret: String? { value("CHARGEKIT_IPN_SECRET") }
    /// `CHARGEKIT_SANDBOX_URL`: the sandbox (or API) `chargekit upi` talks to (`--base-url`).
    public static var sandboxURL: String? { value("CHARGEKIT_SANDBOX_URL") }
    /// `CHARGEKIT_DB_URL`: the sandbox's database (`--db`), which may carry a password.
    public static var databaseURL: String? { value("CHARGEKIT_DB_URL") }
    /// `CHARGEKIT_PUBLIC_URL`: the address clients reach the sandbox at (`--public-url`);
    /// a container sets it, since the address it binds (`0.0.0.0`) is no address for a phone.
    public static var publicURL: String? { value("CHARGEKIT_PUBLIC_URL") }

    /// `CHARGEKIT_ALLOW_REMOTE_IPN`: whether IPNs may go to non-loopback hosts
    /// (`--allow-remote-ipn`): `true`/`1`/`yes` or `false`/`0`/`no`, nil when unset.
    /// The image sets it to `true`: a container's loopback holds no receiver of a CI job.
    public static func allowRemoteIPN() throws(InvalidVariable) -> Bool? {
        try flag("CHARGEKIT_ALLOW_REMOTE_IPN")
    }

    /// A variable whose value is not one its reader accepts.
    public struct InvalidVariable: Error, CustomStringConvertible {
        /// The variable's name.
        public let name: String
        /// What it holds.
        public let value: String
        public var description: String { "\(name) must be true or false (1/0, yes/no), got '\(value.escapedForTerminal)'" }
    }

    /// A yes-or-no variable: nil when unset or empty.
    private static func flag(_ name: String) throws(InvalidVariable) -> Bool? {
        guard let text = value(name) else { return nil }
        switch text.lowercased() {
        case "1", "true", "yes": return true
        case "0", "false", "no": return false
        default: throw InvalidVariable(name: name, value: String(text.prefix(40)))
        }
    }

    /// `secret` as a start line or a log may show it: its first and last four
    /// characters (`k-54…3e53`), enough to tell which one it is and too little to use it.
    public static func masked(_ secret: String) -> String {
        secret.count <= 12 ? String(repeating: "*", count: secret.count) : "\(secret.prefix(4))…\(secret.suffix(4))"
    }

    /// A variable's value; an empty one counts as unset.
    private static func value(_ name: String) -> String? {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
        return value
    }
}
