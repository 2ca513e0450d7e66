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
