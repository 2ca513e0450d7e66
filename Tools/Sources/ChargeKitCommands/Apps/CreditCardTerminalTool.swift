import ArgumentParser
@_spi(Tools) import ChargeKit
import ChargeKitSimulators
import Foundation

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
            var request = CreditCardTerminal.ChargeRequest.Fields()
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
            let fields = request
            let frozen = try madeRequest { () throws(ChargeKitError) in try CreditCardTerminal.ChargeRequest(fields) }
            try await ledger.emit({ nonce throws(ChargeKitError) in try frozen.handoff(nonce: nonce) }, plain: { () throws(ChargeKitError) in try frozen.requestURL() })
        }
    }
}

/// Credit Card Terminal in the tools.
enum CreditCardTerminalTool: ToolApp {
    static var provider: PaymentProvider { .creditCardTerminal }
    static var requestCommand: any AsyncParsableCommand.Type { CCTerminal.self }
    static let demoNote = ", tax rate 8.5"

    static func exampleArguments(callbackURL: String) -> [String] {
        ["--amount", "12.50", "--currency", "USD", "--description", "Flat white", "--return-url", callbackURL]
    }

    static func demoApp(callbackURL: String) -> PaymentApp? {
        var template = CreditCardTerminal.ChargeRequest.Fields()
        template.taxRate = .percent("8.5")
        template.returnAppName = "ChargeDemo"
        return .creditCardTerminal(returnURL: callbackURL, template: template)
    }

    static func demoLines(of callback: PaymentCallback) -> [String]? {
        guard let response = callback.creditCardTerminal else { return nil }
        return [
            "amount: \(response.amount?.description ?? "?") (tax \(response.taxAmount?.formatted ?? "0.00") at \(response.taxRate ?? "-")%)",
            "card: \(response.cardType?.rawValue ?? "?") \(response.redactedCardNumber ?? "?")",
        ]
    }

    static func forgedCallback(to callbackURL: String, nonce: String) -> String {
        callbackURL + "?record_id=123&ifcc_request_nonce=\(nonce)&ifcc_responseType=approved&ifcc_transactionId=999999&ifcc_amount=50.00&ifcc_currency=USD&ifcc_redactedCardNumber=XXXXXXXXXXXX4242&ifcc_cardType=Visa"
    }

    static func reportedFields(of callback: PaymentCallback) -> [String: String?] {
        guard let response = callback.creditCardTerminal else { return [:] }
        return [
            "transactionId": response.transactionId, "amount": response.amount?.formatted,
            "currency": response.currency?.code, "taxAmount": response.taxAmount?.formatted,
            "taxRate": response.taxRate, "tipAmount": response.tipAmount?.formatted,
            "cardType": response.cardType?.rawValue, "redactedCardNumber": response.redactedCardNumber,
            "format": response.format.rawValue,
        ]
    }
}
