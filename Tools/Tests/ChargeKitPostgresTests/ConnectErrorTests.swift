#if PostgreSQL  // the package's PostgreSQL trait (Tools/Package.swift)
@_spi(Tools) import ChargeKit
import ChargeKitPostgres
import Foundation
import Testing

/// A ledger URL that cannot work fails at once with the server's (or the socket's) own
/// error, not after the whole connect deadline as "no answer".
@Suite("PostgreSQL connect errors")
struct ConnectErrorTests {
    static func message(_ url: String) async -> String {
        do {
            // A deadline far longer than any test: reaching it would be the old behaviour.
            let store = try await PostgresLedgerStore.connect(url: url, connectTimeout: .seconds(600))
            store.close()
            return "connected"
        } catch {
            return error.description
        }
    }

    @Test("connection refused")
    func refused() async {
        let message = await Self.message("postgres://postgres@127.0.0.1:1/chargekit")
        #expect(message.contains("PostgreSQL connect") && !message.contains("no answer"), "\(message)")
        #expect(message.lowercased().contains("refused"), "\(message)")
    }

    @Test("a database that does not exist", .enabled(if: postgresURL != nil, postgresSkipReason))
    func missingDatabase() async throws {
        let base = try #require(postgresURL)
        var url = try #require(URLComponents(string: base))
        url.path = "/no_such_database_\(UUID().uuidString.prefix(8).lowercased())"
        let message = await Self.message(try #require(url.string))
        #expect(message.contains("does not exist"), "\(message)")
    }
}
#endif
