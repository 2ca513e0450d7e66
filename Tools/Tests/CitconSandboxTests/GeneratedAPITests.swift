@_spi(Tools) import CitconUPI
@testable import CitconSandbox
import Foundation
import Testing

/// The operations served through the server generated from `sandbox.yaml`, behind
/// ``OpenAPIEdge``: they answer byte for byte as the hand-written routes did, whatever
/// `Accept` says, and are recorded among the served routes.
@Suite("The generated API")
struct GeneratedAPITests {
    @Test("GET /v1/health through the generated server: the same bytes, JSON whatever Accept says, recorded as served")
    func health() async throws {
        try await Harness.router { harness in
            let expected = #"{"app":"citcon_upi","data":{"status":"ok"},"status":"success","version":"v0.1.1"}"#
            for accept in [nil, "text/html", "application/xml;q=1, */*;q=0", "nonsense"] {
                let answer = try await harness.http.call("GET", "/v1/health", data: nil, headers: accept.map { ["Accept": $0] } ?? [:])
                #expect(answer.status == 200 && answer.text == expected, "Accept \(accept ?? "none"): \(answer.status) \(answer.text)")
                #expect(answer.headers.first { $0.key.lowercased() == "content-type" }?.value == "application/json; charset=utf-8")
            }
            let wrong = try await harness.http.call("POST", "/v1/health", data: Data("{}".utf8))
            #expect(wrong.status == 405 && wrong.code == "4050" && wrong.headers.first { $0.key.lowercased() == "allow" }?.value == "GET")
            #expect(harness.sandbox.server.servedRoutes().contains { $0.method == "GET" && $0.path == "/v1/health" })
        }
    }
}

/// `POST /v1/access-tokens` through the generated server: each refusal the hand-written
/// route gave, with its code and message; the caller checked before its body is read.
@Suite("The generated API: access tokens")
struct GeneratedAccessTokenTests {
    @Test("the token, an answer no cache keeps; every refusal as before, named", arguments: [
        (#"{"token_type":"x"}"#, "4000", #"token_type: must be "server" or "client""#),
        ("{}", "4000", "token_type: required field is missing"),
        ("", "4001", "body: a JSON object is required"),
        (#"{"token_type":"client","token_type":"server"}"#, "4000", "token_type: appears more than once"),
        (#"{"token_type":1}"#, "4000", "token_type: expected a string"),
        ("nope", "4001", "body: not valid JSON"),
    ])
    func refusals(body: String, code: String, message: String) async throws {
        try await Harness.router { harness in
            let key = harness.merchantKey
            let token = try await harness.http.call("POST", "/v1/access-tokens", token: key, body: #"{"token_type":"client"}"#)
            #expect(token.status == 200 && (token.data?["access_token"] as? String)?.hasPrefix("ct_") == true, "\(token.text)")
            #expect(token.headers.first { $0.key.lowercased() == "cache-control" }?.value == "no-store")
            let refused = try await harness.http.call("POST", "/v1/access-tokens", token: key, body: body)
            #expect(refused.code == code && refused.message == message, "\(body): \(refused.text)")
            // Read as JSON whatever the Content-Type says.
            let plain = try await harness.http.call("POST", "/v1/access-tokens", token: key, body: #"{"token_type":"server"}"#, contentType: "text/plain")
            #expect(plain.status == 200, "\(plain.text)")
        }
    }

    @Test("a caller without the key is refused before its body is read: 4010 for a body past the bound, not 4130")
    func keyBeforeBody() async throws {
        try await Harness.router { harness in
            let big = #"{"token_type":""# + String(repeating: "x", count: 70_000) + #""}"#
            let anonymous = try await harness.http.call("POST", "/v1/access-tokens", body: big)
            #expect(anonymous.status == 401 && anonymous.code == "4010", "\(anonymous.text.prefix(200))")
            let keyed = try await harness.http.call("POST", "/v1/access-tokens", token: harness.merchantKey, body: big)
            #expect(keyed.status == 413 && keyed.code == "4130", "\(keyed.text.prefix(200))")
        }
    }
}

/// `GET /v1/logs` through the generated server: its query numbers refused as before,
/// naming the parameter and its range.
@Suite("The generated API: the request log")
struct GeneratedLogTests {
    @Test("after and limit: whole numbers in their ranges, each refusal named", arguments: [
        ("after=abc", "after: must be a whole number from 0 to 9223372036854775807"),
        ("after=-1", "after: must be a whole number from 0 to 9223372036854775807"),
        ("after=99999999999999999999", "after: must be a whole number from 0 to 9223372036854775807"),
        ("limit=0", "limit: must be a whole number from 1 to 500"),
        ("limit=501", "limit: must be a whole number from 1 to 500"),
        ("limit=x", "limit: must be a whole number from 1 to 500"),
    ])
    func queryNumbers(query: String, message: String) async throws {
        try await Harness.router { harness in
            let refused = try await harness.http.call("GET", "/v1/logs?\(query)", token: harness.merchantKey, data: nil)
            #expect(refused.status == 400 && refused.code == "4000" && refused.message == message, "\(query): \(refused.text)")
            _ = try await harness.token("server")
            let listed = try await harness.http.call("GET", "/v1/logs?after=0&limit=500", token: harness.merchantKey, data: nil)
            let entries = try #require(listed.json?["data"] as? [[String: Any]], "\(listed.text)")
            #expect(entries.contains { $0["route"] as? String == "/v1/access-tokens" && $0["method"] as? String == "POST" })
        }
    }
}

/// The permission table: every generated operation has its line, and an operation
/// without one is refused before anything of the request is read.
@Suite("The generated API: permissions")
struct OperationPermissionTests {
    @Test("a token is checked for its permission before the body is: a client token's invalid create is 4030, a server token's 4000")
    func permissionBeforeValidation() async throws {
        try await Harness.router { harness in
            let invalid = #"{"transaction":{"reference":"r-1","amount":-5,"currency":"USD","country":"US"}}"#
            let client = try await harness.http.call("POST", "/v1/charges", token: try await harness.token("client"), body: invalid)
            #expect(client.status == 403 && client.code == "4030" && client.message.contains("'charge'"), "\(client.text)")
            let server = try await harness.http.call("POST", "/v1/charges", token: try await harness.token("server"), body: invalid)
            #expect(server.status == 400 && server.code == "4000" && server.message.contains("amount"), "\(server.text)")
        }
    }

    @Test("an operation missing from the table is refused (4030), its handler never reached")
    func missingOperationIsRefused() async throws {
        try await Harness.router { harness in
            let api = harness.sandbox.server.api
            let permissions = OperationPermissions(api: api, throttle: FailureThrottle(store: api.store, clock: api.clock))
            let reached = ReachedFlag()
            await #expect(throws: APIError(.forbidden, "operation: notInTheTable has no permission in the sandbox's table")) {
                _ = try await permissions.intercept(.init(method: .get, scheme: nil, authority: nil, path: "/x"), body: nil,
                                                    metadata: .init(), operationID: "notInTheTable") { _, _, _ in
                    await reached.set()
                    return (.init(status: .ok), nil)
                }
            }
            #expect(await !reached.value)
        }
    }
}

actor ReachedFlag {
    var value = false
    func set() { value = true }
}

/// `GET /v1/transactions/{id}` through the generated server: the transaction in the
/// wire's own encoding, byte for byte what `UPIWire`'s encoder writes of the same value.
@Suite("The generated API: a transaction")
struct GeneratedTransactionTests {
    @Test("the answer is the wire encoder's bytes of the API's value; no token is 4010")
    func inquireAnswersInTheWiresBytes() async throws {
        try await Harness.router { harness in
            let server = try await harness.token("server")
            let (id, _) = try await harness.createCharge(server)
            let answer = try await harness.http.call("GET", "/v1/transactions/\(id)", token: server, data: nil)
            #expect(answer.status == 200, "\(answer.text)")
            let api = harness.sandbox.server.api
            let expected = try UPIWire.encoder().encode(UPIWire.Envelope(data: try await api.inquire(id: id)))
            #expect(answer.text == String(decoding: expected, as: UTF8.self))
            let anonymous = try await harness.http.call("GET", "/v1/transactions/\(id)", data: nil)
            #expect(anonymous.status == 401 && anonymous.code == "4010")
        }
    }
}
