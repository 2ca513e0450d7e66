import Foundation

/// What only Credit Card Terminal's answer can be checked for, against the request it
/// answers: the FileMaker format asked, the currency, the amount (fixed or not) and,
/// with a fixed amount, the tax. ``ChargeLedger`` asks every provider's callback the
/// same question (through its ``PaymentAppDefinition``) and names none.
extension CreditCardTerminal.ChargeResponse {
    func check(against charge: PendingCharge) throws(ChargeKitError) -> [VerificationFlag] {
        let response = self
        let wire = response.format == .fileMaker ? "$ifcc_" : "ifcc_"
        let fileMakerAsked = charge.request.appFacts[CreditCardTerminal.Fact.fileMakerFormat] != nil
        guard (response.format == .fileMaker) == fileMakerAsked else {
            throw .mismatch(field: wire + "responseType", rule: fileMakerAsked ? "FileMaker ($) names were asked" : "FileMaker names were not asked")
        }
        let asked = charge.request.currency ?? .usd
        if let currency = response.currency, currency != asked {
            throw .mismatch(field: wire + "currency", rule: "charged in \(currency.code), asked in \(asked.code)")
        }
        guard response.responseCode == .approved, let requested = charge.request.amount else { return [] }
        guard let subtotal = response.subtotal else { return [.amountNotReported] }
        if charge.request.appFacts[CreditCardTerminal.Fact.amountFixed] != nil {
            guard subtotal == requested else {
                throw .mismatch(field: wire + "amount", rule: "the amount was fixed at \(requested); the approval is for \(subtotal) before tax and tip")
            }
            try checkTax(against: charge, subtotal: subtotal, wire: wire)
            return []
        }
        if subtotal < requested { return [.amountBelowRequested(requested: requested, approved: subtotal)] }
        if subtotal > requested { return [.amountAboveRequested(requested: requested, approved: subtotal)] }
        return []
    }

    /// With a fixed amount the tax follows from the request: none when no rate was
    /// sent, and the rate sent (within one minor unit of rounding) when one was.
    private func checkTax(against charge: PendingCharge, subtotal: Money, wire: String) throws(ChargeKitError) {
        let response = self
        let tax = response.taxAmount?.minorUnits ?? 0
        guard let askedRate = charge.request.appFacts[CreditCardTerminal.Fact.taxRate] else {
            if tax != 0 { throw .mismatch(field: wire + "taxAmount", rule: "no tax rate was sent with the fixed amount") }
            return
        }
        guard askedRate != "default", let rate = Decimal(string: askedRate, locale: Locale(identifier: "en_US_POSIX")) else { return }
        if let reported = response.taxRate, Decimal(string: reported, locale: Locale(identifier: "en_US_POSIX")) != rate {
            throw .mismatch(field: wire + "taxRate", rule: "\(reported) reported, \(askedRate) sent")
        }
        guard let expected = try? subtotal.percentage(rate, rule: .halfUp) else { return }
        if abs(expected.minorUnits - tax) > 1 {
            throw .mismatch(field: wire + "taxAmount", rule: "\(askedRate) % of \(subtotal) is \(expected)")
        }
    }
}
