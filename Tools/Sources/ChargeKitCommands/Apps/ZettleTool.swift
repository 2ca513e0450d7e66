import ArgumentParser
@_spi(Tools) import ChargeKit
import ChargeKitSimulators
import Foundation

struct ZettleRequest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zettle",
        abstract: "An iZettle payment (izettle://x-callback-url/payment/1.0), or with --api an izettle://api/ operation."
    )

    enum API: String, ExpressibleByArgument, CaseIterable { case charge, refund, query, open }

    @Option(help: "price (version 1) or amount (--api charge/refund).") var amount: String?
    @Option(help: "ISO 4217 currency of the Zettle account (Zettle's own when absent, for the api/ operations).") var currency: String?
    @Option(help: "Title of the payment, shown in the app and on the receipt.") var title: String?
    @Option(help: "api-key.") var apiKey: String?
    @Option(help: "x-source: your app's name.") var source: String?
    @Option(help: "x-success (or successURL with --api).") var callbackSuccess: String?
    @Option(help: "x-failure (or failureURL with --api).") var callbackFailure: String?
    @Option(help: "Your reference for the payment, echoed on the callback.") var reference: String?
    @Option(help: "A PNG or JPEG file, sent Base64-encoded.") var image: String?
    @Option(help: "Use the later izettle://api/ operation.") var api: API?
    @Option(help: "--api refund: the reference of the payment to refund.") var originalReference: String?
    @Option(help: "--api: referralCode.") var referralCode: String?
    @Option(help: "--api: enforcedUserAccount.") var enforcedUserAccount: String?
    @Option(name: .customLong("extra"), help: "NAME=VALUE returned on the callback (with --ledger).") var extras: [String] = []
    @OptionGroup var ledger: LedgerOption

    func required(_ value: String?, _ name: String) throws -> String {
        guard let value else { throw ValidationError("--\(name) is required") }
        return value
    }

    func run() async throws {
        try await Self.withOwnUsage {
            let items = try parseExtras(extras)
            let success = try required(callbackSuccess, "callback-success")
            let failure = try required(callbackFailure, "callback-failure")
            if let api {
                let operation: Zettle.APIRequest.Operation
                switch api {
                case .charge:
                    operation = .charge(amount: try parseMoney(required(amount, "amount"), required(currency, "currency")), reference: try required(reference, "reference"))
                case .refund:
                    let partial = try amount.map { try parseMoney($0, required(currency, "currency")) }
                    operation = .refund(originalReference: try required(originalReference, "original-reference"), reference: try required(reference, "reference"), amount: partial)
                case .query:
                    operation = .query(reference: try required(reference, "reference"))
                case .open:
                    operation = .open
                }
                let frozen = try madeRequest { () throws(ChargeKitError) in
                    try Zettle.APIRequest(
                        operation: operation, successURL: success, failureURL: failure, referralCode: referralCode,
                        enforcedUserAccount: enforcedUserAccount
                    )
                }
                try await ledger.emit({ nonce throws(ChargeKitError) in try frozen.handoff(nonce: nonce, extras: items) }, plain: { () throws(ChargeKitError) in try frozen.requestURL(callbackItems: items) })
                return
            }
            var imageData: Data?
            if let image {
                guard let data = FileManager.default.contents(atPath: image) else { throw ValidationError("cannot read --image \(image)") }
                imageData = data
            }
            let source = try required(source, "source"), apiKey = try required(apiKey, "api-key"), title = try required(title, "title")
            let price = try parseMoney(required(amount, "amount"), required(currency, "currency"), field: "price")
            let image = imageData
            let frozen = try madeRequest { () throws(ChargeKitError) in
                try Zettle.PaymentRequest(
                    source: source, successURL: success, failureURL: failure, apiKey: apiKey, price: price, title: title,
                    reference: reference, image: image
                )
            }
            try await ledger.emit({ nonce throws(ChargeKitError) in try frozen.handoff(nonce: nonce, extras: items) }, plain: { () throws(ChargeKitError) in try frozen.requestURL(callbackItems: items) })
        }
    }
}

/// Zettle in the tools.
enum ZettleTool: ToolApp {
    static var provider: PaymentProvider { .zettle }
    static var requestCommand: any AsyncParsableCommand.Type { ZettleRequest.self }
    /// A Zettle callback looks the same for every operation: only the request says which it answers.
    static let callbackNamesOperation = false

    static func exampleArguments(callbackURL: String) -> [String] {
        ["--amount", "12.50", "--currency", "SEK", "--api-key", "K", "--source", "Shop", "--title", "Flat white",
         "--callback-success", callbackURL, "--callback-failure", callbackURL, "--reference", "order-9"]
    }


    static func forgedCallback(to callbackURL: String, nonce: String) -> String {
        callbackURL + "?record_id=123&chargekit-nonce=\(nonce)&chargekit-callback=success&reference=321"
    }

    static func reportedFields(of callback: PaymentCallback) -> [String: String?] {
        guard let callback = callback.zettle else { return [:] }
        let info = callback.paymentInfo
        let structured = callback.structuredError
        return [
            "errorCode": callback.errorCode?.rawValue ?? structured.map { String($0.code) },
            "errorDomain": structured?.domain, "authorizationCode": info.authorizationCode,
            "operationUUID": callback.operationUUID, "errorMessage": callback.errorMessage, "reference": callback.reference,
            "referenceNumber": info.referenceNumber, "entryMode": info.entryMode?.rawValue, "obfuscatedPan": info.obfuscatedPan,
            "panHash": info.panHash, "cardBrand": info.cardBrand, "AID": info.aid, "TSI": info.tsi, "TVR": info.tvr,
            "applicationName": info.applicationName, "numberOfInstallments": info.numberOfInstallments.map(String.init),
            "installmentAmount": info.installmentAmount,
        ]
    }
}
