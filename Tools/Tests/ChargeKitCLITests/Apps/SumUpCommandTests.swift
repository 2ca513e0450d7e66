import Foundation
import Testing

/// SumUp through `chargekit`: what the real app sends (protocol notes §5) reported under its names.
@Suite("chargekit and SumUp")
struct SumUpCommandTests {
    @Test("parse --json gains the real apps' fields (protocol notes §5), every earlier key kept")
    func realWorldKeys() async throws {
        let sumUp = "https://shop.example/done?smp-status=failed&smp-tx-code=TX9&smp-receipt-sent=false"
            + "&smp-failure-cause=geolocation-required&smp-message=Location%20needed&smp-new-thing=1#frag"
        let parsed = try await CLI.run(["parse", "--json", sumUp])
        #expect(parsed.status == 0, "\(parsed.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(parsed.stdout.utf8)) as? [String: Any])
        #expect(json["outcome"] as? String == "declined")
        #expect(json["failureCause"] as? String == "geolocation-required")
        #expect(json["receiptSent"] as? Bool == false)
        #expect(json["message"] as? String == "Location needed")
        #expect(json["smp-message"] as? String == "Location needed")
        #expect((json["unknownFields"] as? [String: String]) == ["smp-new-thing": "1"])
    }
}
