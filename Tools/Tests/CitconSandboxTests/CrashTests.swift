import CitconSandbox
import CitconSandboxTesting
@_spi(Tools) import CitconUPI
import Foundation
import ProcessSupport
import Testing
import ToolsPlatform

/// `chargekit sandbox serve` as a child process.
final class ServerProcess: @unchecked Sendable {
    let child: Child

    /// The built `chargekit` next to the test bundle (swift build / swift test build it).
    static var executable: URL { ChargekitExecutable.url }

    init(arguments: [String]) throws {
        child = try Child(Self.executable.path, arguments)
    }

    /// A server started by `/bin/sh -c command` (to set a limit with `ulimit` first).
    init(shell command: String) throws {
        child = try Child("/bin/sh", ["-c", command])
    }

    var text: String { child.stdout }

    /// Waits for the "listening on" line and returns the base URL and merchant key.
    func started() async throws -> (base: String, key: String) {
        let ok = await eventually(.seconds(30)) { text.contains("merchant key: ") }
        #expect(ok, "server did not start: \(text)")
        let lines = text.split(separator: "\n")
        let base = try #require(lines.first { $0.hasPrefix("Citcon UPI sandbox listening on ") })
            .dropFirst("Citcon UPI sandbox listening on ".count)
        let key = try #require(lines.first { $0.hasPrefix("merchant key: ") }).dropFirst("merchant key: ".count)
        return (String(base), String(key))
    }

    func signal(_ number: Int32) { child.signal(number) }

    /// Waits for the process to end; `false` (and SIGKILL) after `timeout`.
    func waitForExit(timeout: Duration = .seconds(20)) async -> Bool {
        let exited = await eventually(timeout) { child.status != nil }
        if !exited {
            signal(SIGKILL)
            let child = self.child
            _ = await offPool { child.wait() }
        }
        return exited
    }
}

/// What the load acknowledged with a 2xx, and so must survive.
actor Acknowledged {
    var charges: [String: String] = [:]        // id → reference
    var owed: Set<String> = []                 // "id/status" IPNs owed
    func charge(_ id: String, _ reference: String) { charges[id] = reference }
    func owe(_ id: String, _ status: String) { owed.insert("\(id)/\(status)") }
}

/// The databases the crash tests run on: SQLite always, PostgreSQL when
/// CHARGEKIT_POSTGRES_URL names one (CI sets it).
enum CrashBackend: String, CustomStringConvertible, Sendable {
    case sqlite, postgres

    var description: String { rawValue }

    static var available: [CrashBackend] {
        Harness.postgresURL == nil ? [.sqlite] : [.sqlite, .postgres]
    }

    /// The `--db` value: a file in `directory`, or the PostgreSQL URL with a fresh table prefix.
    func database(in directory: URL) -> String {
        switch self {
        case .sqlite: return directory.appendingPathComponent("crash.sqlite").path
        case .postgres:
            let url = Harness.postgresURL ?? ""
            return url + "?table_prefix=crash" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(10) + "_"
        }
    }
}

@Suite("Crash safety", .serialized)
struct CrashTests {
    @Test("SIGKILL under concurrent load: every acknowledged charge survives and every IPN owed is delivered",
          arguments: CrashBackend.available)
    func killNine(backend: CrashBackend) async throws {
        #expect(FileManager.default.isExecutableFile(atPath: ServerProcess.executable.path),
                "build the chargekit executable first (swift build)")
        let directory = try Harness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = backend.database(in: directory)
        let receiver = try await IPNReceiver.start()
        let arguments = ["sandbox", "serve", "--port", "0", "--db", database, "--ipn-retry", "0.05,0.1,0.2,0.4,0.8,1.6"]
        let first = try ServerProcess(arguments: arguments)
        let (base, key) = try await first.started()
        let http = HTTP(base: base)
        func token(_ type: String) async throws -> String {
            let answer = try await http.call("POST", "/v1/access-tokens", token: key, body: #"{"token_type":"\#(type)"}"#)
            return try #require(answer.data?["access_token"] as? String)
        }
        let server = try await token("server")
        let client = try await token("client")
        let acknowledged = Acknowledged()
        let stop = ManagedFlag()

        // Eight workers create, confirm and pay charges until the server dies.
        let load = Task {
            await withTaskGroup(of: Void.self) { group in
                for worker in 0..<8 {
                    group.addTask {
                        var n = 0
                        while !stop.value {
                            n += 1
                            let reference = "crash-\(worker)-\(n)"
                            guard let created = try? await http.call("POST", "/v1/charges", token: server,
                                                                     body: Harness.chargeBody(reference: reference, ipn: receiver.url)),
                                  created.status == 200, let id = created.data?["id"] as? String,
                                  let chargeToken = created.data?["charge_token"] as? String
                            else { continue }
                            await acknowledged.charge(id, reference)
                            guard let confirmed = try? await http.call("POST", "/v1/charges/\(chargeToken)", token: client,
                                                                       body: #"{"payment":{"method":"wechatpay"},"return_url":"app://r"}"#),
                                  confirmed.status == 200,
                                  let next = (confirmed.data?["next_action"] as? [String: Any])?["url"] as? String,
                                  let wallet = next.range(of: "/sandbox/wallet/").map({ String(next[$0.lowerBound...]) })
                            else { continue }
                            await acknowledged.owe(id, "pending")
                            guard let page = try? await http.call("GET", wallet),
                                  let formToken = HeadlessWallet.formToken(in: page.text),
                                  let paid = try? await http.call("POST", wallet, data: Data("form_token=\(formToken)&action=pay".utf8),
                                                                  contentType: "application/x-www-form-urlencoded"),
                                  paid.status == 303
                            else { continue }
                            await acknowledged.owe(id, "success")
                        }
                    }
                }
            }
        }
        // Waits for the 150th charge however slow the machine (20 s was once too short under load).
        _ = await eventually(.seconds(120)) { await acknowledged.charges.count >= 150 }
        first.signal(SIGKILL)
        #expect(await first.waitForExit())
        stop.value = true
        await load.value
        #expect(first.child.status?.signaled == true)
        let charges = await acknowledged.charges
        let owed = await acknowledged.owed
        #expect(charges.count >= 150)

        // Restart on the same file.
        let second = try ServerProcess(arguments: arguments)
        let (base2, key2) = try await second.started()
        #expect(key2 == key, "the merchant key was kept in the database")
        let http2 = HTTP(base: base2)
        for (id, reference) in charges {
            let answer = try await http2.call("GET", "/v1/transactions/\(id)", token: server)
            #expect(answer.status == 200 && answer.data?["reference"] as? String == reference, "lost charge \(id)")
        }
        let delivered = await receiver.wait(timeout: .seconds(30)) { deliveries in
            let seen = Set(deliveries.compactMap { d in d.fields.map { "\($0["id"] ?? "")/\($0["status"] ?? "")" } })
            return owed.isSubset(of: seen)
        }
        #expect(delivered, "IPNs owed but never delivered")

        second.signal(SIGTERM)
        #expect(await second.waitForExit(), "SIGTERM ends the server")
        #expect(second.child.status.map { $0.status == 0 && !$0.signaled } == true, "SIGTERM shuts down cleanly")
        #expect(second.text.contains("sandbox stopped"))
        await receiver.stop()
    }
}

final class ManagedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    var value: Bool {
        get { lock.withLock { flag } }
        set { lock.withLock { flag = newValue } }
    }

    @Test("Two instances on PostgreSQL: one killed mid-delivery, the other delivers every owed IPN",
          .enabled(if: Harness.postgresURL != nil,
                   Harness.postgresSkipped))
    func killedMidDelivery() async throws {
        let database = CrashBackend.postgres.database(in: URL(fileURLWithPath: "/"))
        // The first three deliveries hang: the instance making them is mid-delivery.
        let receiver = try await IPNReceiver.start(delay: .seconds(15), delayFirst: 3)
        let arguments = ["sandbox", "serve", "--port", "0", "--db", database, "--merchant-key", "sk_kill_0123456789",
                         "--ipn-timeout", "3", "--ipn-retry", "0.2,0.4,0.8"]
        let first = try ServerProcess(arguments: arguments)
        // A key given is shown masked on the start lines; this one is known.
        let (base, _) = try await first.started()
        let key = "sk_kill_0123456789"
        let http = HTTP(base: base)
        let token = try await http.call("POST", "/v1/access-tokens", token: key, body: #"{"token_type":"server"}"#)
        let server = try #require(token.data?["access_token"] as? String)
        var owed: [String] = []
        for index in 0..<3 {
            let created = try await http.call("POST", "/v1/charges", token: server,
                                              body: Harness.chargeBody(reference: "kill-\(index)", ipn: receiver.url))
            let id = try #require(created.data?["id"] as? String)
            _ = try await http.call("POST", "/v1/cancels", token: server, body: #"{"id":"\#(id)","reference":"kill-c-\#(index)"}"#)
            owed.append(id)
        }
        #expect(await receiver.wait { $0.count >= 3 }, "the first instance started its deliveries")
        first.signal(SIGKILL)
        #expect(await first.waitForExit())
        let second = try ServerProcess(arguments: arguments)
        _ = try await second.started()
        let delivered = await receiver.wait(timeout: .seconds(40)) { deliveries in
            let answered = deliveries.dropFirst(3).compactMap { $0.fields?["id"] }
            return Set(owed).isSubset(of: Set(answered))
        }
        #expect(delivered, "every owed IPN delivered by the surviving instance: \(receiver.deliveries.compactMap { $0.fields?["id"] })")
        second.signal(SIGTERM)
        #expect(await second.waitForExit())
        await receiver.stop()
    }
}
