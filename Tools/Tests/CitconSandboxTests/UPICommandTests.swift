import CitconSandbox
import CitconSandboxTesting
@_spi(Tools) import CitconUPI
import Foundation
import ProcessSupport
import ToolsPlatform
import Testing

/// Runs the built `chargekit` with `arguments` (and `input` on standard input) off the
/// concurrency pool; returns its exit status and output.
func chargekit(_ arguments: [String], input: Data = Data()) async throws -> (status: Int32, stdout: String, stderr: String) {
    let child = try Child(ServerProcess.executable.path, arguments, input: input)
    return await offPool {
        let exit = child.wait()
        return (exit.status, child.stdout, child.stderr)
    }
}

/// `chargekit upi …` against a running sandbox: the contract of the issue (flags,
/// `--json`, exit 0 / 2 / 1 / 64).
@Suite("chargekit upi")
struct UPICommandTests {
    func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func operationsAgainstTheSandbox() async throws {
        let harness = try await Harness.start()
        try await withCleanup({ await harness.stop() }) {
            let base = harness.sandbox.info.baseURL + "/v1"
            let key = harness.merchantKey
            let token = try await chargekit(["upi", "token", "--base-url", base, "--key", key, "--json"])
            #expect(token.status == 0, "\(token.stderr)")
            #expect(try object(token.stdout)["permission"] as? [String] != nil)

            let charge = try await chargekit(["upi", "charge", "--base-url", base, "--key", key, "--reference", "cli-1", "--amount", "100",
                                              "--currency", "USD", "--country", "US", "--method", "alipay", "--json"])
            #expect(charge.status == 0, "\(charge.stderr)")
            let id = try #require(try object(charge.stdout)["id"] as? String)

            let again = try await chargekit(["upi", "charge", "--base-url", base, "--key", key, "--reference", "cli-1", "--amount", "100",
                                             "--currency", "USD", "--country", "US", "--method", "alipay"])
            #expect(again.status == 2 && again.stderr.contains("4100") && again.stderr.contains("HTTP 400"), "\(again.stderr)")

            let inquiry = try await chargekit(["upi", "inquire", "--base-url", base, "--key", key, "--id", id, "--json"])
            #expect(inquiry.status == 0)
            #expect(try object(inquiry.stdout)["reference"] as? String == "cli-1")

            let refund = try await chargekit(["upi", "refund", "--base-url", base, "--key", key, "--id", id, "--reference", "rf-1", "--amount", "50"])
            #expect(refund.status == 2 && refund.stderr.contains("4202") && refund.stderr.contains("HTTP 406"), "\(refund.stderr)")

            // A body from standard input, in the live API's cancel shape.
            let cancelBody = Data(#"{"id":"\#(id)","reference":"cx-1","transaction_reference":"cli-1"}"#.utf8)
            let cancel = try await chargekit(["upi", "cancel", "--base-url", base, "--key", key, "--body", "-", "--json"], input: cancelBody)
            #expect(cancel.status == 0, "\(cancel.stderr)")
            #expect(try object(cancel.stdout)["status"] as? String == "canceled")
        }
    }

    @Test func transportAndUsageErrors() async throws {
        let refused = try await chargekit(["upi", "token", "--base-url", "http://127.0.0.1:1/v1", "--key", "k"])
        #expect(refused.status == 1, "\(refused.stderr)")
        let both = try await chargekit(["upi", "inquire", "--key", "k", "--token", "t", "--id", "1"])
        #expect(both.status == 64)
        let neither = try await chargekit(["upi", "inquire", "--id", "1"])
        #expect(neither.status == 64)
    }

    @Test func verifyIPN() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ipn-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let signed = CPayIPN.signed([("id", "77"), ("status", "success"), ("amount", "100")], secret: "S")
        let file = folder.appendingPathComponent("ipn.json")
        try JSONEncoder().encode(signed).write(to: file)
        let good = try await chargekit(["upi", "verify-ipn", "--secret", "S", file.path])
        #expect(good.status == 0, "\(good.stderr)")
        #expect(try object(good.stdout)["status"] as? String == "success")
        var tampered = signed
        tampered["amount"] = "1"
        let bad = try await chargekit(["upi", "verify-ipn", "--secret", "S"], input: try JSONEncoder().encode(tampered))
        #expect(bad.status == 2 && bad.stderr.contains("sign"))
    }

    @Test func aRealSandboxIPNVerifies() async throws {
        let receiver = try await IPNReceiver.start()
        let harness = try await Harness.start()
        try await withCleanup({ await harness.stop(); await receiver.stop() }) {
            let server = try await harness.token("server")
            let (id, _) = try await harness.createCharge(server, ipn: receiver.url)
            _ = try await harness.http.call("POST", "/v1/cancels", token: server, body: #"{"id":"\#(id)","reference":"c-\#(id)"}"#)
            #expect(await receiver.wait { !$0.isEmpty })
            let body = try #require(receiver.deliveries.first?.body)
            let verified = try await chargekit(["upi", "verify-ipn", "--secret", harness.sandbox.info.ipnSecret], input: body)
            #expect(verified.status == 0, "\(verified.stderr)")
            let fields = try object(verified.stdout)
            #expect(fields["id"] as? String == id && fields["status"] as? String == "cancelled")
        }
    }

    @Test("upi logs tail > file &, a few requests, then kill -TERM: the file holds every request, each on a whole line")
    func logsTailThroughAPipeAndASignal() async throws {
        let harness = try await Harness.start()
        try await withCleanup({ await harness.stop() }) {
            let base = harness.sandbox.info.baseURL + "/v1"
            let file = harness.directory.appendingPathComponent("requests.log").path
            // As a CI job runs it: redirected to a file, in the background.
            let tail = try Child("/bin/sh", ["-c", "exec '\(ServerProcess.executable.path)' upi logs tail --base-url '\(base)' "
                                               + "--key '\(harness.merchantKey)' --after 0 > '\(file)'"])
            var references: [String] = []
            for index in 0..<3 {
                let server = try await harness.token("server")
                let (id, _) = try await harness.createCharge(server, reference: "tail-\(index)")
                references.append(id)
            }
            // Each request reaches the file while the command runs (its output is never held back).
            let written = await eventually(.seconds(20)) {
                (try? String(contentsOfFile: file, encoding: .utf8)).map { text in text.split(separator: "\n").count >= 6 } ?? false
            }
            #expect(written, "the requests never reached the file: \((try? String(contentsOfFile: file, encoding: .utf8)) ?? "")")
            tail.signal(SIGTERM)
            let exit = await offPool { tail.wait() }
            #expect(exit.status == 0 && !exit.signaled, "SIGTERM ends it cleanly: \(exit)")
            let text = try String(contentsOfFile: file, encoding: .utf8)
            #expect(text.hasSuffix("\n"), "the last line is cut")
            let lines = text.split(separator: "\n")
            #expect(lines.filter { $0.contains("POST /v1/charges") }.count == 3 && lines.filter { $0.contains("POST /v1/access-tokens") }.count == 3,
                    "\(text)")
        }
    }
}
