#if canImport(ObjectiveC)
import ChargeKit
import Foundation
import ObjectiveC

extension CHKPaymentApp {
    /// Square Point of Sale with your application ID (location and customer optional).
    @objc(squareWithClientID:callbackURL:locationID:customerID:)
    public static func square(clientID: String, callbackURL: String, locationID: String?, customerID: String?) -> CHKPaymentApp {
        CHKPaymentApp(.square(clientID: clientID, callbackURL: callbackURL, locationID: locationID, customerID: customerID))
    }
}
#endif
