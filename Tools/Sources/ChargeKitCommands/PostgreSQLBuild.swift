import ArgumentParser
@_spi(Tools) import ChargeKit
import ChargeKitSimulators
import Foundation

/// What a command says when it is given a PostgreSQL URL in a build without the tools'
/// `PostgreSQL` trait (the default build compiles no database driver).
public enum PostgreSQLBuild {
    /// The command that builds `chargekit-server` with the PostgreSQL stores.
    public static let command = "swift build --package-path Tools --traits PostgreSQL --product chargekit-server"

    /// The refusal for `option`'s PostgreSQL URL.
    public static func needed(for option: String) -> String {
        "\(option) names PostgreSQL, which this chargekit-server was built without; build it with: \(command)"
    }
}
