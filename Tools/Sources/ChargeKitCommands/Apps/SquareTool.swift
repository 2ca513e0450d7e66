import ArgumentParser
@_spi(Tools) import ChargeKit
import Foundation

struct SquareRequest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "square", abstract: "A Square Point of Sale payment request (square-commerce-v1://payment/create, API 1.3)."
    )

    @Option(help: "Your Square application ID (client_id).") var clientId: String
    @Option(help: "Amount in major units, e.g. 10.99 (sent in the currency's minor units: 1099; JPY has none).") var amount: String
    @Option(help: "ISO 4217 currency of the seller's account.") var currency: String
    @Option(help: "Your app's URL Point of Sale answers on; the square_request marker is added as Square's SDK adds it.") var callbackUrl: String
    @Option(help: "An opaque string Point of Sale returns unchanged.") var state: String?
    @Option(help: "location_id: the location to take the payment at.") var locationId: String?
    @Option(help: "notes shown with the transaction.") var notes: String?
    @Option(help: "customer_id to link the payment to.") var customerId: String?
    @Option(help: "Comma-separated tender types: CREDIT_CARD, CASH, OTHER, SQUARE_GIFT_CARD, CARD_ON_FILE, PAYPAY (default: all but PAYPAY).")
    var tenders: String?
    @Flag(help: "Return to the app as soon as the payment is done (auto_return).") var autoReturn = false
    @Flag(help: "Skip the receipt screen (skip_receipt).") var skipReceipt = false
    @Flag(help: "Do not offer a keyed-in card (disable_cnp).") var disableCardNotPresent = false
    @Flag(help: "Do not apply the seller's default fees and taxes (clear_default_fees).") var clearDefaultFees = false
    @OptionGroup var ledger: LedgerOption

    func run() async throws {
        try await Self.withOwnUsage {
            var options = Square.Options()
            options.returnsAutomatically = autoReturn
            options.skipsReceipt = skipReceipt
            options.disablesKeyedInCardEntry = disableCardNotPresent
            options.clearsDefaultFees = clearDefaultFees
            if let tenders {
                options.supportedTenderTypes = try tenders.split(separator: ",", omittingEmptySubsequences: false).map { name in
                    guard let type = Square.TenderType(rawValue: name.trimmingCharacters(in: .whitespaces)) else {
                        throw ValidationError("--tenders: '\(name)' is not one of \(Square.TenderType.allCases.map(\.rawValue).joined(separator: ", "))")
                    }
                    return type
                }
            }
            let money = try parseMoney(amount, currency)
            let request = try madeRequest { () throws(ChargeKitError) in
                try Square.PaymentRequest(
                    clientID: clientId, amount: money, callbackURL: callbackUrl, state: state,
                    locationID: locationId, notes: notes, customerID: customerId, options: options
                )
            }
            try await ledger.emit({ nonce in request.handoff(nonce: nonce) }, plain: { request.requestURL() })
        }
    }
}

/// Square Point of Sale in the tools.
enum SquareTool: ToolApp {
    static var provider: PaymentProvider { .square }
    static var requestCommand: any AsyncParsableCommand.Type { SquareRequest.self }
    /// Point of Sale returns only its own data: the reference travels in its `state`.
    static let returnsExtras = false

    static func exampleArguments(callbackURL: String) -> [String] {
        ["--client-id", "sq0idp-APP", "--amount", "12.50", "--currency", "USD", "--notes", "Flat white", "--callback-url", callbackURL]
    }


    static func forgedCallback(to callbackURL: String, nonce: String) -> String {
        let data = #"{"client_transaction_id":"FORGED","state":"\#(nonce).321","status":"ok","transaction_id":"FORGED"}"#
        return callbackURL + "/square_request?data=" + PercentEncoding.encode(data)
    }

    static func reportedFields(of callback: PaymentCallback) -> [String: String?] {
        guard let callback = callback.square else { return [:] }
        return [
            "transaction_id": callback.transactionID, "client_transaction_id": callback.clientTransactionID,
            "error_code": callback.errorCode?.rawValue, "state": callback.state,
        ]
    }
}
