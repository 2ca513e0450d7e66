@testable import CitconSandbox
import Foundation
import Testing

/// The OpenAPI document and the server may not drift.
@Suite("OpenAPI document")
struct OpenAPITests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("openapi/sandbox.yaml")

    /// `METHOD /path` for every operation in the YAML (`{name}` written `:name`).
    static func documentedRoutes(_ yaml: String) -> Set<String> {
        var routes: Set<String> = []
        var path: String?
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("  /"), line.hasSuffix(":") {
                path = String(line.dropFirst(2).dropLast()).replacingOccurrences(of: "{", with: ":").replacingOccurrences(of: "}", with: "")
            } else if let path, line.hasPrefix("    "), !line.hasPrefix("     "),
                      let method = ["get", "post", "put", "delete", "patch"].first(where: { line == "    \($0):" }) {
                routes.insert(method.uppercased() + " " + path)
            } else if !line.hasPrefix(" ") && !line.isEmpty {
                path = nil
            }
        }
        return routes
    }

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

    /// The top-level properties of schema `name` in the YAML.
    static func documentedProperties(_ yaml: String, schema name: String) -> Set<String> {
        var properties: Set<String> = []
        var inSchema = false, inProperties = false
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("    "), !line.hasPrefix("     ") {
                inSchema = line == "    \(name):"
                inProperties = false
            } else if inSchema, line == "      properties:" {
                inProperties = true
            } else if inSchema, line.hasPrefix("      "), !line.hasPrefix("       ") {
                inProperties = false
            } else if inProperties, line.hasPrefix("        "), !line.hasPrefix("         "), let colon = line.firstIndex(of: ":") {
                properties.insert(line[line.startIndex..<colon].trimmingCharacters(in: .whitespaces))
            }
        }
        return properties
    }

    @Test("each request body the sandbox reads has exactly its schema's members")
    func everyBodyIsItsSchema() {
        let bodies: [(schema: String, read: [String])] = [
            ("AccessTokenRequest", AccessTokenBody.CodingKeys.allCases.map(\.stringValue)),
            ("ChargeRequest", ChargeBody.CodingKeys.allCases.map(\.stringValue)),
            ("ConfirmRequest", ConfirmBody.CodingKeys.allCases.map(\.stringValue)),
            ("OperationRequest", OperationBody.CodingKeys.allCases.map(\.stringValue)),
        ]
        for (schema, read) in bodies {
            let documented = Self.documentedProperties(OpenAPIDocument.yaml, schema: schema)
            #expect(!documented.isEmpty && documented == Set(read),
                    "\(schema): only documented \(documented.subtracting(read)), only read \(Set(read).subtracting(documented))")
        }
    }

    @Test func everyRouteIsDocumentedAndEveryOperationServed() async throws {
        let server = try await SandboxServer(configuration: SandboxConfiguration(), store: InMemorySandboxStore())
        let documented = Self.documentedRoutes(OpenAPIDocument.yaml)
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
