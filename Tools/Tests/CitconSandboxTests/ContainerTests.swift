import Foundation
import ProcessSupport
import Testing
import ToolsPlatform

/// What the image relies on (scripts/image.sh, scripts/image-test.sh run it under runc):
/// a health check without curl, and configuration by environment.
@Suite("The sandbox in a container")
struct ContainerTests {
    @Test("sandbox health: 0 against a running sandbox (its root or its /v1), 69 against nothing, 64 for a URL that is none")
    func health() async throws {
        let harness = try await Harness.start()
        try await withCleanup({ await harness.stop() }) {
            let base = harness.sandbox.info.baseURL
            let up = try await chargekit(["sandbox", "health", "--base-url", base])
            #expect(up.status == 0 && up.stdout == "ok\n", "\(up.status): \(up.stderr)")
            let v1 = try await chargekit(["sandbox", "health", "--base-url", base + "/v1/"])
            #expect(v1.status == 0, "\(v1.stderr)")
        }
        let down = try await chargekit(["sandbox", "health", "--base-url", "http://127.0.0.1:1", "--timeout", "2"])
        #expect(down.status == 69 && down.stderr.contains("chargekit sandbox health:"), "\(down.status): \(down.stderr)")
        let none = try await chargekit(["sandbox", "health", "--base-url", "ftp://127.0.0.1/"])
        #expect(none.status == 64 && none.stderr.contains("--base-url"), "\(none.status): \(none.stderr)")
    }

    @Test("CHARGEKIT_PUBLIC_URL is the address on the start line; CHARGEKIT_ALLOW_REMOTE_IPN=true lets a charge name a remote receiver")
    func environment() async throws {
        let folder = try Harness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let executable = ServerProcess.executable.path
        let server = try ServerProcess(shell: "CHARGEKIT_PUBLIC_URL=http://10.213.9.2:8080 CHARGEKIT_ALLOW_REMOTE_IPN=true "
            + "CHARGEKIT_MERCHANT_KEY=sk_container_0123456789 exec '\(executable)' sandbox serve --port 0 --db '\(folder.path)/s.sqlite'")
        defer { server.signal(SIGKILL) }
        let (base, _) = try await server.started()
        #expect(base == "http://10.213.9.2:8080", "the start line names \(base)")
        let bound = try #require(server.text.split(separator: "\n").first { $0.hasPrefix("bound to: ") }).dropFirst("bound to: ".count)
        let http = HTTP(base: "http://\(bound)")
        let issued = try await http.call("POST", "/v1/access-tokens", token: "sk_container_0123456789", body: #"{"token_type":"server"}"#)
        let token = try #require(issued.data?["access_token"] as? String)
        let created = try await http.call("POST", "/v1/charges", token: token,
                                          body: Harness.chargeBody(reference: "remote-ipn", ipn: "http://10.213.9.1:9999/ipn"))
        #expect(created.status == 200, "a remote IPN receiver is taken: \(created.text)")

        // Without it, the same charge is refused (loopback receivers only), as before.
        let plain = try ServerProcess(arguments: ["sandbox", "serve", "--port", "0", "--db", folder.path + "/p.sqlite",
                                                  "--merchant-key", "sk_container_0123456789"])
        defer { plain.signal(SIGKILL) }
        let (plainBase, _) = try await plain.started()
        let plainHTTP = HTTP(base: plainBase)
        let plainIssued = try await plainHTTP.call("POST", "/v1/access-tokens", token: "sk_container_0123456789", body: #"{"token_type":"server"}"#)
        let plainToken = try #require(plainIssued.data?["access_token"] as? String)
        let refused = try await plainHTTP.call("POST", "/v1/charges", token: plainToken,
                                               body: Harness.chargeBody(reference: "remote-ipn", ipn: "http://10.213.9.1:9999/ipn"))
        #expect(refused.status == 400, "\(refused.text)")
    }

    @Test("CHARGEKIT_ALLOW_REMOTE_IPN must say yes or no: anything else exits 64 naming the variable")
    func invalidFlagVariable() async throws {
        let folder = try Harness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let child = try Child("/bin/sh", ["-c", "CHARGEKIT_ALLOW_REMOTE_IPN=maybe exec '\(ServerProcess.executable.path)' "
            + "sandbox serve --port 0 --db '\(folder.path)/s.sqlite'"])
        let exit = await offPool { child.wait() }
        #expect(exit.status == 64 && child.stderr.contains("CHARGEKIT_ALLOW_REMOTE_IPN must be true or false"), "\(exit): \(child.stderr)")
    }
}
