import ArgumentParser
@_spi(Tools) import ChargeKit
import Foundation

struct VivaRequest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "viva", abstract: "A Viva.com Terminal request (vivapayclient://pay/v1): a sale, or with --action a cancel (refund) or abort."
    )

    enum ActionArgument: String, ExpressibleByArgument, CaseIterable { case sale, cancel, abort }
    enum MethodArgument: String, ExpressibleByArgument, CaseIterable {
        case cardPresent = "CardPresent", moto = "MOTO", qrDefault = "QrDefault", payconiq = "Payconiq", aliPay = "AliPay", paypal = "Paypal", klarna = "Klarna"
    }

    @Option(help: "sale (default), cancel (void or refund a payment) or abort (stop one that has started).") var action: ActionArgument = .sale
    @Option(help: "Amount in major units, e.g. 10.00 (sent in minor units: 1000); required for a sale, a partial refund for a cancel.") var amount: String?
    @Option(help: "ISO 4217 currency of the Viva account (sets the minor units; Viva's request names none).") var currency: String?
    @Option(help: "Your app's id, such as its bundle id (appId).") var appId: String
    @Option(help: "Where the answer goes (callback): a URL such as my-app://result, without a query.") var callback: String
    @Option(help: "A tip within the amount, in major units (tipAmount).") var tip: String?
    @Option(help: "Your reference, sent after the nonce in clientTransactionId and echoed.") var reference: String?
    @Option(help: "paymentMethod: \(MethodArgument.allCases.map(\.rawValue).joined(separator: ", ")).") var paymentMethod: MethodArgument?
    @Option(help: "show_receipt: true or false (the app's setting when absent).") var showReceipt: Bool?
    @Option(help: "show_transaction_result: true or false.") var showResult: Bool?
    @Option(help: "show_rating: true or false.") var showRating: Bool?
    @Option(help: "--action cancel: the sale's referenceNumber.") var referenceNumber: String?
    @Option(help: "--action cancel: the sale's orderCode.") var orderCode: String?
    @Option(help: "--action cancel: the sale's shortOrderCode.") var shortOrderCode: String?
    @OptionGroup var ledger: LedgerOption

    func run() async throws {
        try await Self.withOwnUsage {
            guard amount == nil && tip == nil || currency != nil else { throw ValidationError("--currency is required with --amount or --tip") }
            let money = try amount.map { try parseMoney($0, currency ?? "") }
            let tipMoney = try tip.map { try parseMoney($0, currency ?? "", field: "tipAmount") }
            let request = try madeRequest { () throws(ChargeKitError) in
                try Viva.PaymentRequest(
                    action: Viva.Action(rawValue: action.rawValue) ?? .sale, appID: appId, callbackURL: callback, amount: money,
                    tipAmount: tipMoney, reference: reference, paymentMethod: paymentMethod.flatMap { Viva.PaymentMethod(rawValue: $0.rawValue) },
                    screens: Viva.Screens(receipt: showReceipt, transactionResult: showResult, rating: showRating),
                    original: Viva.Original(referenceNumber: referenceNumber, orderCode: orderCode, shortOrderCode: shortOrderCode)
                )
            }
            try await ledger.emit({ nonce in request.handoff(nonce: nonce) }, plain: { request.requestURL() })
        }
    }
}

/// Viva.com Terminal in the tools.
enum VivaTool: ToolApp {
    static var provider: PaymentProvider { .viva }
    static var requestCommand: any AsyncParsableCommand.Type { VivaRequest.self }
    /// Viva returns only its own fields: the reference travels in `clientTransactionId`.
    static let returnsExtras = false

    static func exampleArguments(callbackURL: String) -> [String] {
        ["--amount", "12.50", "--currency", "EUR", "--app-id", "com.example.shop", "--callback", callbackURL, "--reference", "order-9"]
    }


    static func forgedCallback(to callbackURL: String, nonce: String) -> String {
        callbackURL + "?status=success&message=Transaction successful&action=sale&clientTransactionId=\(nonce).321&amount=5000&transactionId=FORGED"
    }

    static func reportedFields(of callback: PaymentCallback) -> [String: String?] {
        guard let callback = callback.viva else { return [:] }
        var fields: [String: String?] = [
            "status": callback.status, "action": callback.action, "clientTransactionId": callback.clientTransactionID,
            "amount": callback.amountMinorUnits.map(String.init), "tipAmount": callback.tipMinorUnits.map(String.init),
        ]
        for (name, value) in callback.details { fields[name] = value }
        return fields
    }
}
