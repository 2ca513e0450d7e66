@testable import CitconSandbox
import Foundation
import Testing

/// The OpenAPI document and the server may not drift: the operations and members the
/// document declares (read by a YAML parser when scripts/openapi-embed.sh embeds it) are
/// the routes the server registers and the members its bodies read.
@Suite("OpenAPI document")
struct OpenAPITests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("openapi/sandbox.yaml")

    @Test func theServedDocumentIsTheRepositoryFile() throws {
        let yaml = try String(contentsOf: Self.file, encoding: .utf8)
        #expect(OpenAPIDocument.yaml + "\n" == yaml || OpenAPIDocument.yaml == yaml,
                "openapi/sandbox.yaml changed: run scripts/openapi-embed.sh")
    }

    @Test func theServedGuideIsTheArticle() throws {
        let article = Self.file.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/CitconSandbox/CitconSandbox.docc/RunningTheSandbox.md")
        let text = try String(contentsOf: article, encoding: .utf8)
        #expect(SandboxGuide.markdown + "\n" == text || SandboxGuide.markdown == text,
                "RunningTheSandbox.md changed: run scripts/openapi-embed.sh")
    }

    @Test("each body the sandbox reads or writes as its own type has exactly its schema's members")
    func everyBodyIsItsSchema() {
        let bodies: [(schema: String, read: [String])] = [
            ("AccessTokenRequest", AccessTokenBody.CodingKeys.allCases.map(\.stringValue)),
            ("ChargeRequest", ChargeBody.CodingKeys.allCases.map(\.stringValue)),
            ("ConfirmRequest", ConfirmBody.CodingKeys.allCases.map(\.stringValue)),
            ("OperationRequest", OperationBody.CodingKeys.allCases.map(\.stringValue)),
            ("ClockAdvanceRequest", ClockAdvanceBody.CodingKeys.allCases.map(\.stringValue)),
            ("IPNForwardReport", IPNForwardBody.CodingKeys.allCases.map(\.stringValue)),
            ("LogEntry", RequestJournal.Entry.CodingKeys.allCases.map(\.stringValue)),
        ]
        for (schema, read) in bodies {
            let documented = Set(OpenAPIDocument.schemaMembers[schema] ?? [])
            #expect(!documented.isEmpty && documented == Set(read),
                    "\(schema): only documented \(documented.subtracting(read)), only read \(Set(read).subtracting(documented))")
        }
    }

    @Test func everyRouteIsDocumentedAndEveryOperationServed() async throws {
        let server = try await SandboxServer(configuration: SandboxConfiguration(), store: InMemorySandboxStore())
        let documented = Set(OpenAPIDocument.routes)
        let served = Set(server.servedRoutes().map { "\($0.method) \($0.path.replacingOccurrences(of: ":token", with: ":charge_token"))" })
        #expect(documented == served, "only documented: \(documented.subtracting(served)); only served: \(served.subtracting(documented))")
    }

    @Test func theDocumentIsServed() async throws {
        try await Harness.router { harness in
            let answer = try await harness.http.call("GET", "/openapi.yaml")
            #expect(answer.status == 200 && answer.text.hasPrefix("openapi: 3.1.0"))
        }
    }
}
