@_spi(Tools) import ChargeKit
import ChargeKitSimulators

/// `/apps/open`: a payment app played in the phone's browser. The page shows what the
/// app shows of the request (which app, how much, for what) and one button per
/// scenario of that app (``Scenario/catalog``); each button posts the page's form,
/// and the answer sends the browser on to the callback URL the app would open.
enum AppSimulatorPage {
    static let path = "/apps/open"

    private static let extraStyle = """
    .scenarios{display:flex;flex-direction:column;gap:8px;margin-top:22px} .scenarios button{text-align:left;padding:11px 14px}
    .scenarios small{display:block;font-size:12px;opacity:.8;margin-top:3px} .other{background:#e4e7eb;color:#222}
    .approved{background:#1a7f37;color:#fff} .declined,.failed{background:#d1242f;color:#fff} .cancelled{background:#9a6700;color:#fff}
    a.callback{display:block;word-break:break-all;margin-top:14px;font-size:14px}
    """

    private static func page(_ title: String, _ body: String) -> String {
        PageLayout.page(title: title, style: WalletPage.style + extraStyle, body: "<div class=\"card\">\(body)</div>")
    }

    /// The app's page for a request it would take. `refusal` is the app's own answer
    /// to a request it refuses (its error callback's message): the page then offers
    /// only the way back.
    static func render(_ summary: RequestSummary, url: String, formToken: String, refusal: String?) -> String {
        let provider = summary.provider
        let amount = [summary.amount, summary.currency].compactMap { $0 }.joined(separator: " ")
        var details = ""
        if let description = summary.description { details += "<dt>For</dt><dd id=\"description\">\(PageLayout.escape(description))</dd>" }
        if let reference = summary.reference { details += "<dt>Reference</dt><dd id=\"reference\">\(PageLayout.escape(reference))</dd>" }
        let scenarios = refusal == nil ? Scenario.catalog(for: provider) : Scenario.catalog(for: provider).filter { $0.name == "approved" }
        let buttons = scenarios.map { scenario in
            let label = refusal == nil ? title(scenario.name) : "Return to the app"
            // Refused, the app sends its refusal back whatever the button: say so, not the approval's text.
            let text = refusal.map { "Sends \(provider.displayName)'s refusal back to your app: \($0)" } ?? scenario.description
            let style = refusal != nil ? "failed" : scenario.isHandOffFailure ? "other" : scenario.outcome(answering: url)?.rawValue ?? "other"
            // Where the button sends the browser: the answer's scheme, host and path.
            let destination = ((try? scenario.callbacks(for: url)) ?? []).first.map { callback in
                "<small class=\"to\">answers on \(PageLayout.escape(String(callback.prefix { $0 != "?" && $0 != "#" })))</small>"
            } ?? ""
            return "<button type=\"submit\" name=\"scenario\" value=\"\(PageLayout.escape(scenario.name))\" class=\"\(style)\">"
                + "\(PageLayout.escape(label))<small>\(PageLayout.escape(text))</small>\(destination)</button>"
        }.joined()
        let notice = refusal.map { "<div class=\"status\" id=\"refusal\">\(PageLayout.escape(provider.displayName)) refuses this request: \(PageLayout.escape($0))</div>" } ?? ""
        return page(provider.displayName + " (simulated)", """
            <h1 id="app">\(PageLayout.escape(provider.displayName))</h1><div class="sub">Simulated by the ChargeKit sandbox: \
            no card is charged.</div><div class="amount" id="amount">\(PageLayout.escape(amount.isEmpty ? "no amount" : amount))</div>\
            <dl>\(details)</dl>\(notice)<form method="post" action="\(path)" class="scenarios">\
            <input type="hidden" name="form_token" value="\(PageLayout.escape(formToken))">\
            <input type="hidden" name="url" value="\(PageLayout.escape(url))">\(buttons)</form>
            """)
    }

    /// The page after a scenario with no callback, the same callback twice, or one that
    /// must come late: what to do to see what the ledger does.
    static func played(_ scenario: Scenario, callbacks: [String]) -> String {
        let link = callbacks.first.map { "<a class=\"callback\" id=\"callback\" href=\"\(PageLayout.escape($0))\">Open the app with the callback</a>" } ?? ""
        let what = callbacks.isEmpty
            ? "The app was closed without answering: your app gets no callback. It finds the hand-off with PaymentCoordinator.pending()."
            : scenario.play == .late
            ? "The app answers approved, late: wait until the hand-off's time to live has passed (30 minutes unless your ledger sets another; "
              + "chargekit request --ttl 60 sets a minute), then open the link: the ledger refuses the approval as expired."
            : "Open the link, come back, and open it again: the app receives the same callback twice."
        return page(scenario.provider.displayName + " (simulated)", """
            <h1>\(PageLayout.escape(scenario.provider.displayName))</h1><div class="sub">\(PageLayout.escape(title(scenario.name)))</div>\
            <div class="status" id="played">\(PageLayout.escape(what))</div>\(link)
            """)
    }

    static func error(_ message: String) -> String {
        page("Simulated payment app", "<h1>Cannot open the request</h1><div class=\"status\" id=\"error\">\(PageLayout.escape(message))</div>")
    }

    /// `could-not-perform` as `Could not perform`.
    static func title(_ name: String) -> String {
        let words = name.replacingOccurrences(of: "-", with: " ")
        return words.prefix(1).uppercased() + words.dropFirst()
    }
}
