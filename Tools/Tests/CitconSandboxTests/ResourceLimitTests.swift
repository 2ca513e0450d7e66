import CitconSandbox
import Foundation
import ProcessSupport
import Testing
import ToolsPlatform

/// The sandbox as a process under tight limits, and the modes of the files it leaves.
@Suite("resource limits and file modes")
struct ResourceLimitTests {
    @Test("connections are capped below the open-file limit: half-open clients beyond it do not lock a real one out")
    func slowloris() async throws {
        let folder = try Harness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let executable = ChargekitExecutable.url.path
        // An open-file limit below --max-connections, as a small container gives.
        let server = try ServerProcess(shell: "ulimit -n 128 && exec '\(executable)' sandbox serve --port 0 "
                                       + "--db '\(folder.path)/s.sqlite' --max-connections 256 --request-timeout 2")
        defer { server.signal(SIGKILL) }
        let (base, _) = try await server.started()
        let port = try #require(URL(string: base)?.port)
        // More half-open clients than the process has descriptors.
        let idle = (0..<200).compactMap { _ in try? RawSocket.connect(port: port) }
        #expect(idle.count > 128)
        // A real client, from an address of its own (those beyond one address's share of
        // the connections are answered 503 and closed).
        let health = await FourthRoundTests.status(port: port, from: "127.0.0.9",
                                                   "GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        #expect(health == 200)
    }

    @Test("the database and its -wal and -shm files are readable by their owner only")
    func databaseModes() async throws {
        try await Harness.router { harness in
            let server = try await harness.token("server")
            _ = try await harness.createCharge(server)
            let path = harness.database
            for file in [path, path + "-wal", path + "-shm"] {
                let attributes = try FileManager.default.attributesOfItem(atPath: file)
                let mode = try #require(attributes[.posixPermissions] as? Int)
                #expect(mode == 0o600, "\(file): \(String(mode, radix: 8))")
            }
        }
        // An older database left at 0644 is narrowed when it is opened.
        let folder = try Harness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let old = folder.appendingPathComponent("old.sqlite").path
        #expect(FileManager.default.createFile(atPath: old, contents: nil, attributes: [.posixPermissions: 0o644]))
        let reopened = try await Harness.start(directory: folder, database: old)
        await reopened.stop(removing: false)
        #expect(try FileManager.default.attributesOfItem(atPath: old)[.posixPermissions] as? Int == 0o600)
    }
}
