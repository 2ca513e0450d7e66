@_spi(Tools) import ChargeKit
@_spi(Tools) import CitconUPI

/// The sandbox wallet: a small self-contained HTML page (no external assets) with
/// Pay, Decline and Cancel. Each button is a plain form POST of `action=…` to the
/// same URL, so a headless wallet can drive it without a browser.
enum WalletPage {
    static func amount(_ minorUnits: Int, _ code: String) -> String {
        guard let currency = try? Currency(code: code) else { return "\(minorUnits) \(code)" }
        return Money(minorUnits: Int64(minorUnits), currency: currency).description
    }

    static let style = """
    body{font-family:-apple-system,system-ui,sans-serif;background:#f2f4f7;margin:0;padding:32px}
    .card{max-width:380px;margin:auto;background:#fff;border-radius:14px;padding:28px;box-shadow:0 4px 18px #0002}
    h1{font-size:18px;margin:0 0 4px} .sub{color:#667;font-size:13px;margin-bottom:20px}
    .amount{font-size:34px;font-weight:700;margin:8px 0 18px} dl{display:grid;grid-template-columns:auto 1fr;gap:6px 14px;font-size:14px}
    dt{color:#667} dd{margin:0} .actions{display:flex;gap:8px;margin-top:24px} .actions form{flex:1;display:flex}
    button{flex:1;font-size:15px;padding:12px 0;border-radius:9px;border:0;cursor:pointer;width:100%}
    .pay{background:#1a7f37;color:#fff} .decline{background:#d1242f;color:#fff} .cancel{background:#e4e7eb;color:#222}
    .status{margin-top:18px;padding:10px;border-radius:8px;background:#fff8c5;font-size:14px}
    .method{display:block;margin-top:18px;font-size:14px} .method select{font-size:15px;margin-left:8px;padding:6px}
    @media (max-width:420px){body{padding:12px}.card{padding:20px}}
    """

    /// The wallet page. `action` is the page's own path, capability included, where its
    /// forms post. A pending charge gets Pay, Decline and Cancel; one only initiated
    /// (created, never confirmed by an app: the desktop QR flow) gets them too, with a
    /// choice of method when it was created without one, as a hosted payment page does.
    static func render(charge: ChargeRecord, merchant: String, formToken: String, action: String) -> String {
        let open = charge.status == .pending || charge.status == .initiated
        let chooser = charge.status == .initiated && charge.method == nil
        let methods = SandboxMethod.all.map { "<option value=\"\(PageLayout.escape($0.name))\">\(PageLayout.escape($0.name))</option>" }.joined()
        let picker = chooser
            ? "<label class=\"method\">Pay with <select name=\"method\" form=\"pay\">\(methods)</select></label>" : ""
        let actions = open ? SandboxAPI.WalletAction.allCases.map { choice in
            """
            <form method="post" id="\(choice.rawValue)" action="\(PageLayout.escape(action))"><input type="hidden" name="form_token" value="\(PageLayout.escape(formToken))"><input type="hidden" name="action" value="\(choice.rawValue)"><button class="\(choice.rawValue)" type="submit">\(choice.rawValue.capitalized)</button></form>
            """
        }.joined() : ""
        // Without buttons the page still carries its token, so that a client posting a
        // late choice gets the charge's state rather than a forgery refusal.
        let status = open ? "" : "<div class=\"status\">This charge is <b>\(PageLayout.escape(charge.status.rawValue))</b>; nothing to pay.</div>"
            + "<form hidden method=\"post\" action=\"\(PageLayout.escape(action))\"><input type=\"hidden\" name=\"form_token\" value=\"\(PageLayout.escape(formToken))\"></form>"
        return PageLayout.page(title: "Citcon UPI sandbox wallet", style: style, body: """
        <div class="card">
        <h1>\(PageLayout.escape(merchant))</h1><div class="sub">Citcon UPI sandbox wallet · no real money moves</div>
        <div class="amount">\(PageLayout.escape(amount(charge.amount, charge.currency)))</div>
        <dl><dt>Merchant</dt><dd>\(PageLayout.escape(merchant))</dd>
        <dt>Amount</dt><dd>\(PageLayout.escape(amount(charge.amount, charge.currency)))</dd>
        <dt>Currency</dt><dd>\(PageLayout.escape(charge.currency))</dd>
        <dt>Method</dt><dd>\(PageLayout.escape(charge.method ?? "—"))</dd>
        <dt>Reference</dt><dd>\(PageLayout.escape(charge.reference))</dd>
        <dt>Status</dt><dd id="status">\(PageLayout.escape(charge.status.rawValue))</dd></dl>
        \(picker)<div class="actions">\(actions)</div>\(status)
        </div>
        """)
    }

    /// The QR page of a charge (the `qr` entry of the create answer's
    /// `payment.client`): a QR code of the wallet page's URL, to scan with a phone,
    /// and the link itself.
    static func qr(charge: ChargeRecord, walletURL: String, merchant: String) -> String {
        let code = QRCode(walletURL)?.svg ?? "<div class=\"status\">The wallet URL is too long for a QR code here; use the link.</div>"
        return PageLayout.page(title: "Scan to pay", style: style, body: """
        <div class="card">
        <h1>\(PageLayout.escape(merchant))</h1><div class="sub">Scan with your phone to pay \(PageLayout.escape(amount(charge.amount, charge.currency)))</div>
        <div id="qr">\(code)</div>
        <p><a href="\(PageLayout.escape(walletURL))">\(PageLayout.escape(walletURL))</a></p>
        </div>
        """)
    }

    static func done(charge: ChargeRecord) -> String {
        PageLayout.page(title: "Payment \(charge.status.rawValue)", style: style, body: """
        <div class="card"><h1>Payment \(PageLayout.escape(charge.status.rawValue))</h1>
        <div class="sub">You can return to the app.</div></div>
        """)
    }

    static func error(_ message: String) -> String {
        PageLayout.page(title: "Sandbox wallet error", style: style, body: """
        <div class="card"><h1>Cannot continue</h1>
        <div class="status">\(PageLayout.escape(message))</div></div>
        """)
    }

    /// Reads an `application/x-www-form-urlencoded` body; each name at most once.
    static func parseForm(_ body: String) throws -> [String: String] {
        var form: [String: String] = [:]
        for pair in body.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = try PercentEncoding.decode(parts[0].replacingOccurrences(of: "+", with: " "), field: "form")
            let value = try PercentEncoding.decode(
                (parts.count > 1 ? String(parts[1]) : "").replacingOccurrences(of: "+", with: " "), field: name)
            guard form[name] == nil else { throw APIError.repeated(name) }
            form[name] = value
        }
        return form
    }
}
