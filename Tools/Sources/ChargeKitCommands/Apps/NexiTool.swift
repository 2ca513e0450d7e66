import ArgumentParser
@_spi(Tools) import ChargeKit
import Foundation

struct NexiRequest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nexi", abstract: "A Nexi POS request (neximpos://payment): a payment in euro, or with --operation reversal the reversal of one."
    )

    enum OperationArgument: String, ExpressibleByArgument, CaseIterable { case payment, reversal }

    @Option(help: "payment (default) or reversal (of a payment, by --terminal-id and --timestamp).") var operation: OperationArgument = .payment
    @Option(help: "Amount in euro, e.g. 10.00 (sent in cents: 1000).") var amount: String
    @Option(help: "The label of Nexi's button back to your app (callerName).") var callerName: String
    @Option(help: "Where the answer goes (uri): a URL such as my-app://payment, without a query.") var uri: String
    @Option(help: "Your reference, sent after the nonce in callerTrxId and echoed: letters, digits, '.', '_', '-'.") var reference: String?
    @Option(help: "email: pre-fills the receipt screen.") var email: String?
    @Option(help: "sms: pre-fills the receipt screen's phone number.") var sms: String?
    @Option(help: "sendTicket: true or false (Nexi's default: true).") var sendTicket: Bool?
    @Option(help: "urlTicket: true or false, a link to the receipt's image in the answer (default: true).") var urlTicket: Bool?
    @Option(help: "autoClose: true or false, return by itself after a result that cannot be retried.") var autoClose: Bool?
    @Option(help: "hideRetry: true or false.") var hideRetry: Bool?
    @Option(name: .customLong("tag"), help: "An additional tag KEY=VALUE (addInfoKeyN, addInfoN), at most five.") var tags: [String] = []
    @Option(help: "--operation reversal: the payment's terminalId.") var terminalId: String?
    @Option(help: "--operation reversal: the payment's timestamp (ddMMyyHHmm).") var timestamp: String?
    @OptionGroup var ledger: LedgerOption

    func run() async throws {
        try await Self.withOwnUsage {
            let money = try parseMoney(amount, "EUR")
            let request = try madeRequest { () throws(ChargeKitError) in
                var madeTags: [Nexi.Tag] = []
                for tag in tags {
                    let parts = tag.split(separator: "=", maxSplits: 1).map(String.init)
                    guard parts.count == 2 else { throw ChargeKitError.invalidField("addInfoKey", rule: "--tag must be KEY=VALUE") }
                    madeTags.append(try Nexi.Tag(key: parts[0], value: parts[1]))
                }
                var original: Nexi.Original?
                if terminalId != nil || timestamp != nil {
                    guard let terminalId else { throw ChargeKitError.missingField("terminalId") }
                    guard let timestamp else { throw ChargeKitError.missingField("timestamp") }
                    original = try Nexi.Original(terminalID: terminalId, timestamp: timestamp)
                }
                return try Nexi.PaymentRequest(
                    operation: Nexi.Operation(rawValue: operation.rawValue) ?? .payment, amount: money, callerName: callerName,
                    callbackURL: uri, reference: reference,
                    screens: Nexi.Screens(sendTicket: sendTicket, urlTicket: urlTicket, autoClose: autoClose, hideRetry: hideRetry,
                                          email: email, sms: sms),
                    tags: madeTags, original: original
                )
            }
            try await ledger.emit({ nonce in request.handoff(nonce: nonce) }, plain: { request.requestURL() })
        }
    }
}

/// Nexi POS in the tools.
enum NexiTool: ToolApp {
    static var provider: PaymentProvider { .nexi }
    static var requestCommand: any AsyncParsableCommand.Type { NexiRequest.self }
    /// Nexi returns only its own fields: the reference travels in `callerTrxId`.
    static let returnsExtras = false

    static func exampleArguments(callbackURL: String) -> [String] {
        ["--amount", "12.50", "--caller-name", "Shop", "--uri", callbackURL, "--reference", "order-9"]
    }


    static func forgedCallback(to callbackURL: String, nonce: String) -> String {
        callbackURL + "?result=0&amount=5000&callerTrxId=\(nonce)&operationType=PAYMENT&actionCode=000&operationNumber=FORGED"
    }

    static func reportedFields(of callback: PaymentCallback) -> [String: String?] {
        guard let callback = callback.nexi else { return [:] }
        var fields: [String: String?] = [
            "result": callback.result, "operationType": callback.operationType, "callerTrxId": callback.callerTrxID,
            "amount": callback.amountMinorUnits.map(String.init),
        ]
        for (name, value) in callback.details { fields[name] = value }
        return fields
    }
}
