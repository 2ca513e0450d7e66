import Foundation
import ProcessSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The fourth round of attacks on the sandbox, each against the real process where the
/// flaw was a process's (a debug build, as the README runs it).
@Suite("Fourth round of attacks", .serialized)
struct FourthRoundTests {
    /// Every route whose request has a body (the OpenAPI document's `requestBody`s), with
    /// the credential it takes, so that the route itself reads the body.
    static func bodyRoutes(key: String, server: String, client: String, chargeToken: String) -> [(path: String, credential: String?)] {
        [("/v1/access-tokens", key), ("/v1/charges", server), ("/v1/charges/\(chargeToken)", client), ("/v1/captures", server),
         ("/v1/refunds", server), ("/v1/cancels", server), ("/v1/ipn-events/1/forwards", key), ("/sandbox/clock", key),
         ("/sandbox/wallet/made-up", nil), ("/sandbox/dashboard", key), ("/apps/open", nil)]
    }

    @Test("C1: a body cut short, or slower than --request-timeout, on every route that reads one: the sandbox answers the next request")
    func cutAndSlowBodiesNeverStopTheSandbox() async throws {
        let folder = try Harness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try ServerProcess(arguments: ["sandbox", "serve", "--port", "0", "--db", folder.path + "/s.sqlite",
                                                   "--request-timeout", "1"])
        defer { server.signal(SIGKILL) }
        let (base, key) = try await server.started()
        let port = try #require(URL(string: base)?.port)
        let http = HTTP(base: base)
        func token(_ type: String) async throws -> String {
            let answer = try await http.call("POST", "/v1/access-tokens", token: key, body: #"{"token_type":"\#(type)"}"#)
            return try #require(answer.data?["access_token"] as? String, "\(answer.text)")
        }
        let serverToken = try await token("server")
        let clientToken = try await token("client")
        let created = try await http.call("POST", "/v1/charges", token: serverToken, body: Harness.chargeBody(reference: "cut-1"))
        let chargeToken = try #require(created.data?["charge_token"] as? String, "\(created.text)")
        for (path, credential) in Self.bodyRoutes(key: key, server: serverToken, client: clientToken, chargeToken: chargeToken) {
            for slow in [false, true] {
                let socket = try RawSocket.connect(port: port)
                // Content-Length 100, ten bytes sent: then closed, or left hanging past the timeout.
                let authorization = credential.map { "Authorization: Bearer \($0)\r\n" } ?? ""
                let head = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(authorization)Content-Type: application/json\r\n"
                    + "Content-Length: 100\r\n\r\n{\"a\":\"bcd\""
                #expect(socket.send(Data(head.utf8)))
                if slow {
                    // Past the timeout: answered, or the connection closed.
                    let answer = await offPool { socket.receive(timeout: .seconds(5)) }
                    #expect(!answer.data.isEmpty || answer.closed, "\(path): neither answered nor closed")
                }
                shutdown(socket.descriptor, Int32(SHUT_RDWR))
                let health = try await HTTP(base: base).call("GET", "/v1/health")
                #expect(health.status == 200, "\(path) (\(slow ? "slow" : "cut")): the sandbox stopped answering: \(server.child.stderr.suffix(400))")
                guard health.status == 200 else { return }
            }
        }
        #expect(server.child.status == nil, "the sandbox exited")
    }
}
