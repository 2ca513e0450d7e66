import ArgumentParser
@_spi(Tools) import ChargeKit
import ChargeKitSimulators
import Foundation

struct Request: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the URL that opens a payment app.",
        subcommands: [CCTerminal.self, SumUpRequest.self, ZettleRequest.self, SquareRequest.self]
    )
}

/// What every `request` subcommand takes beside its app's fields: a ledger to record
/// the hand-off in, and how to print it.
struct LedgerOption: ParsableArguments {
    @Option(help: "Record the charge in this ledger (a file path, or postgres://user@host:port/db[?table_prefix=p_]) and add its nonce to the callback URL.")
    var ledger: String?
    @Flag(help: "Print one JSON object: url, provider, and the nonce when --ledger records it.")
    var json = false

    /// Records the hand-off when a ledger is given; otherwise builds it without a nonce.
    func emit(
        _ build: @escaping @Sendable (Nonce) throws(ChargeKitError) -> HandoffRequest,
        plain: () throws(ChargeKitError) -> String
    ) async throws {
        let url: String
        var nonce: String?
        do throws(ChargeKitError) {
            if let ledger {
                let opened = try await openLedger(ledger)
                defer { opened.close() }
                let store = opened.store
                let issued = try await ChargeLedger(store: store).issue(build)
                (url, nonce) = (issued.request.url, issued.charge.nonce.value)
            } else {
                url = try plain()
            }
        } catch {
            throw invalidValue(error)
        }
        guard json else {
            print(url)
            return
        }
        struct Printed: Encodable { let url: String; let provider: String?; let nonce: String? }
        try printJSON(Printed(url: url, provider: SimulatedApps.provider(of: url)?.rawValue, nonce: nonce))
    }
}

struct CCTerminal: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ccterminal", abstract: "A Credit Card Terminal charge request (com-innerfence-ccterminal://charge/1.0.0/)."
    )

    @Option(help: "Amount, e.g. 10.99.") var amount: String?
    @Option(help: "ISO 4217 currency (USD when absent).") var currency: String?
    @Option(help: "Sales tax rate (e.g. 8.5) or 'default'.") var taxRate: String?
    @Option(help: "Your app's URL handler.") var returnURL: String?
    @Option(help: "Your app's name, shown in Credit Card Terminal.") var returnAppName: String?
    @Flag(help: "Return at once instead of after the Approved screen.") var returnImmediately = false
    @Flag(name: [.customLong("fm"), .customLong("file-maker")], help: "Ask for the FileMaker response format.") var fileMaker = false
    @Flag(help: "Make the subtotal unchangeable.") var amountFixed = false
    @Option(help: "Customer email (up to 255 characters).") var email: String?
    @Option(help: "Customer first name (up to 50).") var firstName: String?
    @Option(help: "Customer last name (up to 50).") var lastName: String?
    @Option(help: "Customer company (up to 50).") var company: String?
    @Option(help: "Street address (up to 60).") var address: String?
    @Option(help: "City (up to 40).") var city: String?
    @Option(help: "State (up to 40, or a 2-letter code).") var state: String?
    @Option(help: "ZIP or postal code (up to 20).") var zip: String?
    @Option(help: "Phone (up to 25 digits).") var phone: String?
    @Option(help: "Country (up to 60).") var country: String?
    @Option(help: "Invoice number (up to 20).") var invoiceNumber: String?
    @Option(help: "Description (up to 255).") var description: String?
    @Option(name: .customLong("extra"), help: "NAME=VALUE returned untouched on the callback (repeat).") var extras: [String] = []
    @OptionGroup var ledger: LedgerOption

    /// A request with no field at all asks the app for nothing: refused (exit 64, with
    /// this subcommand's usage) rather than printed as a bare `?`.
    func validate() throws {
        let texts: [String?] = [amount, currency, taxRate, returnURL, returnAppName, email, firstName, lastName, company,
                                address, city, state, zip, phone, country, invoiceNumber, description]
        guard texts.contains(where: { $0?.isEmpty == false }) || returnImmediately || fileMaker || amountFixed || !extras.isEmpty
        else { throw ValidationError("nothing to send: give at least --amount or --return-url") }
    }

    func run() async throws {
        try await Self.withOwnUsage {
            var request = CreditCardTerminal.ChargeRequest()
            request.currency = try currency.map(parseCurrency)
            request.amount = try amount.map { try parseMoney($0, currency ?? "USD") }
            if let taxRate {
                do throws(ChargeKitError) { request.taxRate = try .init(parsing: taxRate) } catch { throw ValidationError(error.description) }
            }
            request.returnURL = returnURL
            request.extraParams = try parseExtras(extras)
            request.returnAppName = returnAppName
            request.returnImmediately = returnImmediately
            request.fileMakerFormat = fileMaker
            request.amountFixed = amountFixed
            request.email = email
            request.firstName = firstName
            request.lastName = lastName
            request.company = company
            request.address = address
            request.city = city
            request.state = state
            request.zip = zip
            request.phone = phone
            request.country = country
            request.invoiceNumber = invoiceNumber
            request.description = description
            let frozen = request
            try await ledger.emit({ nonce throws(ChargeKitError) in try frozen.handoff(nonce: nonce) }, plain: { () throws(ChargeKitError) in try frozen.requestURL() })
        }
    }
}


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
            var request = SumUp.PaymentRequest(amount: try parseMoney(amount, currency), title: title, affiliateKey: affiliateKey)
            request.callbackSuccess = callbackSuccess
            request.callbackFailure = callbackFailure
            request.receiptEmail = receiptEmail
            request.receiptMobilePhone = receiptPhone
            request.foreignTransactionID = foreignTxId
            request.skipSuccessScreen = skipScreenSuccess
            let frozen = request
            let items = try parseExtras(extras)
            try await ledger.emit({ nonce throws(ChargeKitError) in try frozen.handoff(nonce: nonce, extras: items) }, plain: { () throws(ChargeKitError) in try frozen.requestURL(callbackItems: items) })
        }
    }
}

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
                var request = Zettle.APIRequest(operation: operation, successURL: success, failureURL: failure)
                request.referralCode = referralCode
                request.enforcedUserAccount = enforcedUserAccount
                let frozen = request
                try await ledger.emit({ nonce throws(ChargeKitError) in try frozen.handoff(nonce: nonce, extras: items) }, plain: { () throws(ChargeKitError) in try frozen.requestURL(callbackItems: items) })
                return
            }
            var request = Zettle.PaymentRequest(
                source: try required(source, "source"), successURL: success, failureURL: failure,
                apiKey: try required(apiKey, "api-key"), price: try parseMoney(required(amount, "amount"), required(currency, "currency"), field: "price"),
                title: try required(title, "title")
            )
            request.reference = reference
            if let image {
                guard let data = FileManager.default.contents(atPath: image) else { throw ValidationError("cannot read --image \(image)") }
                request.image = data
            }
            let frozen = request
            try await ledger.emit({ nonce throws(ChargeKitError) in try frozen.handoff(nonce: nonce, extras: items) }, plain: { () throws(ChargeKitError) in try frozen.requestURL(callbackItems: items) })
        }
    }
}
