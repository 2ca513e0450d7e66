import ArgumentParser
@_spi(Tools) import ChargeKit
import ChargeKitSimulators
import Foundation

struct SumUpRequest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sumup", abstract: "A SumUp payment request (sumupmerchant://pay/1.0).")

    @Option(help: "Amount, e.g. 10.00.") var amount: String
    @Option(help: "ISO 4217 currency of the merchant account.") var currency: String
    @Option(help: "Your SumUp affiliate key (from the SumUp developer dashboard).") var affiliateKey: String
    @Option(help: "Title of the payment, shown in the app and on the receipt.") var title: String?
    @Option(help: "callbacksuccess URL.") var callbackSuccess: String?
    @Option(help: "callbackfail URL.") var callbackFailure: String?
    @Option(help: "receipt-email.") var receiptEmail: String?
    @Option(help: "receipt-mobilephone.") var receiptPhone: String?
    @Option(help: "foreign-tx-id: up to 128 printable ASCII characters.") var foreignTxId: String?
    @Flag(help: "Ask SumUp to skip its own success screen after an approved payment and return to the app at once (sends skip-screen-success=true).") var skipScreenSuccess = false
    @Option(name: .customLong("extra"), help: "NAME=VALUE returned on the callback (with --ledger).") var extras: [String] = []
    @OptionGroup var ledger: LedgerOption

    func run() async throws {
        try await Self.withOwnUsage {
            let money = try parseMoney(amount, currency)
            let items = try parseExtras(extras)
            let frozen = try madeRequest { () throws(ChargeKitError) in
                try SumUp.PaymentRequest(
                    amount: money, title: title, affiliateKey: affiliateKey, callbackSuccess: callbackSuccess,
                    callbackFailure: callbackFailure, receiptEmail: receiptEmail, receiptMobilePhone: receiptPhone,
                    foreignTransactionID: foreignTxId, skipSuccessScreen: skipScreenSuccess
                )
            }
            try await ledger.emit({ nonce throws(ChargeKitError) in try frozen.handoff(nonce: nonce, extras: items) }, plain: { () throws(ChargeKitError) in try frozen.requestURL(callbackItems: items) })
        }
    }
}

/// SumUp in the tools.
enum SumUpTool: ToolApp {
    static var provider: PaymentProvider { .sumUp }
    static var requestCommand: any AsyncParsableCommand.Type { SumUpRequest.self }

    static func exampleArguments(callbackURL: String) -> [String] {
        ["--amount", "12.50", "--currency", "EUR", "--affiliate-key", "K", "--title", "Flat white",
         "--callback-success", callbackURL, "--callback-failure", callbackURL]
    }


    static func forgedCallback(to callbackURL: String, nonce: String) -> String {
        callbackURL + "?record_id=123&chargekit-nonce=\(nonce)&smp-status=success&smp-tx-code=FORGED"
    }

    static func reportedFields(of callback: PaymentCallback) -> [String: String?] {
        guard let callback = callback.sumUp else { return [:] }
        var fields: [String: String?] = [
            "smp-tx-code": callback.transactionCode, "foreign-tx-id": callback.foreignTransactionID,
            "smp-message": callback.message, "failureCause": callback.failureCause?.rawValue,
        ]
        for tag in callback.tags { fields[tag.name] = tag.value }
        return fields
    }

    static func receiptSent(in callback: PaymentCallback) -> Bool? { callback.sumUp?.receiptSent }
}
