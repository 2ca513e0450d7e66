@_spi(Tools) @testable import ChargeKit
import ChargeKitSimulators
import Foundation
import Testing

/// Extras on a callback URL, for every app that takes them (each app's own rules are
/// in its test file).
@Suite struct CallbackExtrasClashTests {
    /// An extra whose name is already in the callback URL's own query is refused up
    /// front: the callback would carry the name twice and no parser accepts that.
    @Test func extrasMayNotRepeatANameOfTheCallbackURL() async throws {
        #expect(appsKeepingExtras.count >= 2)
        for played in appsKeepingExtras {
            let order = played.order(description: "Tea", reference: "R1", extras: [QueryItem("shop", "2")])
            for app in played.simulator.sampleApps(callbackURL: "my-shop://done?shop=1") {
                let (coordinator, device, _) = await makeStack()
                await #expect(throws: ChargeKitError.duplicateField("shop"), "\(app)") { try await coordinator.charge(order, via: app) }
                #expect(await device.delivered.isEmpty, "nothing opened")
            }
            let (coordinator, _, _) = await makeStack()
            let fine = try await coordinator.charge(order, via: played.simulator.sampleApp(callbackURL: "my-shop://done?other=1"))
            #expect(fine.outcome == .approved && fine.callback.extraItems.contains(QueryItem("shop", "2")), "\(played)")
        }
    }
}
