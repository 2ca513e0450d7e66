@_spi(Tools) import ChargeKit
@_spi(Tools) import CitconUPI

/// The sandbox dashboard: one self-contained HTML page (no script, no external asset)
/// listing the recent charges with their status history and IPNs, with a form button
/// for every action. Every value from the database is escaped.
enum DashboardPage {
    /// The form posts go here.
    static let path = "/sandbox/dashboard"

    private static let style = """
    body{font-family:-apple-system,system-ui,sans-serif;background:#f2f4f7;margin:0;padding:24px;color:#1f2328}
    h1{font-size:20px;margin:0} .sub{color:#667;font-size:13px;margin:4px 0 16px}
    .summary{display:flex;gap:10px;margin-bottom:16px;flex-wrap:wrap}
    .summary span{background:#fff;border-radius:8px;padding:6px 12px;font-size:13px;box-shadow:0 1px 4px #0001}
    .charge{background:#fff;border-radius:12px;padding:14px 18px;margin-bottom:12px;box-shadow:0 2px 10px #0001}
    .head{display:flex;align-items:center;gap:12px;flex-wrap:wrap} .amount{font-weight:700;font-size:17px}
    .id{font-family:ui-monospace,monospace;font-size:12px;color:#667} .ref{font-size:13px}
    .badge{font-size:12px;font-weight:600;padding:2px 9px;border-radius:10px;background:#e4e7eb}
    .warning{background:#fff8c5;border:1px solid #d4a72c;padding:.5em;margin:.5em 0} .succeeded,.delivered{background:#dafbe1;color:#116329} .failed,.dead{background:#ffebe9;color:#a40e26}
    .canceled,.expired{background:#eaeef2;color:#424a53} .pending,.authorized{background:#fff8c5;color:#7d4e00}
    .initiated{background:#ddf4ff;color:#0550ae}
    .history{font-size:12px;color:#424a53;margin:8px 0 4px} .history b{font-weight:600}
    .actions{margin-left:auto;display:flex;gap:6px} form{margin:0}
    button{font-size:13px;padding:5px 14px;border-radius:7px;border:0;cursor:pointer;background:#e4e7eb;color:#222}
    .pay{background:#1a7f37;color:#fff} .decline{background:#d1242f;color:#fff}
    .ipns{overflow-x:auto;max-width:100%}
    table{border-collapse:collapse;width:100%;font-size:12px;margin-top:6px}
    th{text-align:left;color:#667;font-weight:500;border-bottom:1px solid #d0d7de;padding:4px 6px}
    td{border-bottom:1px solid #eaeef2;padding:4px 6px;vertical-align:top} .answer{font-family:ui-monospace,monospace}
    .ok{color:#116329} .bad{color:#a40e26} .empty{color:#667;font-size:13px} .note{font-size:12px;color:#667}
    .operation{color:#0550ae}
    @media (max-width:600px){
    body{padding:10px} .charge{padding:12px} .actions{margin-left:0;flex-wrap:wrap} .id{word-break:break-all}
    table,tbody,tr,td{display:block;width:auto} tr:first-child{display:none}
    tr{border-bottom:1px solid #d0d7de;padding:4px 0} td{border:0;padding:2px 0;word-break:break-all}
    td[data-label]::before{content:attr(data-label) ": ";color:#667}}
    """

    /// `HH:mm:ss` (UTC) of a time in milliseconds since 1970; `—` for an unknown one.
    static func clock(_ milliseconds: Int64) -> String {
        guard milliseconds > 0 else { return "—" }
        let seconds = (milliseconds / 1000) % 86_400
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60))"
    }

    /// A hidden form with one button: an action on a charge or an IPN.
    private static func button(_ label: String, action: String, field: String, value: String, formToken: String,
                               style: String = "") -> String {
        """
        <form method="post" action="\(path)"><input type="hidden" name="form_token" value="\(PageLayout.escape(formToken))">\
        <input type="hidden" name="action" value="\(action)"><input type="hidden" name="\(field)" value="\(PageLayout.escape(value))">\
        <button class="\(style)" type="submit">\(label)</button></form>
        """
    }

    private static func chargeActions(_ charge: ChargeRecord, formToken: String) -> String {
        var buttons: [String] = []
        if charge.status == .pending {
            for action in SandboxAPI.WalletAction.allCases {
                buttons.append(button(action.rawValue.capitalized, action: action.rawValue, field: "charge", value: charge.id,
                                      formToken: formToken, style: action.rawValue))
            }
        }
        if charge.canMove(to: .expired) {
            buttons.append(button("Expire", action: "expire", field: "charge", value: charge.id, formToken: formToken))
        }
        return buttons.joined()
    }

    private static func notifications(_ entry: SandboxAPI.DashboardCharge, now: Int64, formToken: String) -> String {
        guard !entry.notifications.isEmpty else {
            return entry.charge.urls.ipn.isEmpty ? "<div class=\"note\">No IPN URL: no notifications.</div>" : ""
        }
        let rows = entry.notifications.map { ipn -> String in
            let attempts = entry.attempts.filter { $0.notificationID == ipn.id }.map { attempt in
                "<div>\(attempt.number < 0 ? "upi listen" : "#\(attempt.number)") \(clock(attempt.time)) <span class=\"answer \(attempt.delivered ? "ok" : "bad")\">"
                    + PageLayout.escape(attempt.answer) + "</span></div>"
            }.joined()
            let next: String
            if let earlier = entry.notifications.first(where: { $0.id < ipn.id && $0.state == .pending }) {
                next = "after IPN \(earlier.id)"  // a transaction's IPNs go out in order
            } else if ipn.state == .pending {
                let wait = max(0, ipn.nextAttemptAt - now)
                next = wait == 0 ? "now" : "\(clock(ipn.nextAttemptAt)) (in \((wait + 999) / 1000) s)"
            } else {
                next = "—"
            }
            return """
            <tr><td data-label="IPN">\(ipn.id)</td><td data-label="Reports">\(PageLayout.escape(ipn.status.rawValue))</td>\
            <td data-label="State"><span class="badge \(PageLayout.escape(ipn.state.rawValue))">\
            \(PageLayout.escape(ipn.state.rawValue))</span></td><td data-label="Attempts">\(ipn.attempts)</td>\
            <td data-label="Answers">\(attempts.isEmpty ? "—" : attempts)</td>\
            <td data-label="Next try">\(next)</td><td data-label="To" class="answer">\(PageLayout.escape(ipn.url))</td>\
            <td>\(button(ipn.state == .pending ? "Send now" : "Send again", action: "resend", field: "ipn",
                         value: String(ipn.id), formToken: formToken))</td></tr>
            """
        }.joined()
        return """
        <div class="ipns"><table><tr><th>IPN</th><th>Reports</th><th>State</th><th>Attempts</th><th>Answers</th><th>Next try</th><th>To</th><th></th></tr>\
        \(rows)</table></div>
        """
    }

    private static func charge(_ entry: SandboxAPI.DashboardCharge, now: Int64, formToken: String) -> String {
        let charge = entry.charge
        let history = Self.history(of: charge).joined(separator: " → ")
        let status = PageLayout.escape(charge.status.rawValue)
        let expiry = charge.status == .initiated || charge.status == .pending ? " · expires \(clock(charge.expiresAt))" : ""
        return """
        <section class="charge" id="charge-\(PageLayout.escape(charge.id))"><div class="head">\
        <span class="amount">\(PageLayout.escape(WalletPage.amount(charge.amount, charge.currency)))</span>\
        <span class="badge \(status)">\(status)</span><span class="ref">\(PageLayout.escape(charge.reference))</span>\
        <span class="id">\(PageLayout.escape(charge.id)) · \(PageLayout.escape(charge.method ?? "no method yet"))\(expiry)</span>\
        <span class="actions">\(chargeActions(charge, formToken: formToken))</span></div>\
        <div class="history">\(history)</div>\(notifications(entry, now: now, formToken: formToken))</section>
        """
    }

    /// A charge's history, oldest first: each status it took, and each capture and
    /// refund with its amount (a partial refund leaves the status as it was).
    static func history(of charge: ChargeRecord) -> [String] {
        var events: [(time: Int64, order: Int, text: String)] = charge.statusHistory.enumerated().map { index, change in
            (change.time, index, "<b>\(PageLayout.escape(change.status.rawValue))</b> \(clock(change.time))")
        }
        for operation in charge.captures + charge.refunds {
            let verb = operation.object == "refund" ? "refunded" : "captured"
            let amount = WalletPage.amount(operation.amount, operation.currency ?? charge.currency)
            events.append((operation.timeCreated ?? 0, events.count,
                           "<span class=\"operation\">\(verb) \(PageLayout.escape(amount))</span> \(clock(operation.timeCreated ?? 0))"))
        }
        return events.sorted { ($0.time, $0.order) < ($1.time, $1.order) }.map(\.text)
    }

    /// The dashboard page.
    static func render(_ entries: [SandboxAPI.DashboardCharge], merchant: String, formToken: String, now: Int64,
                       requests: [RequestJournal.Entry] = [], failedKeyAttempts: Int = 0) -> String {
        var counts: [CPayStatus: Int] = [:]
        for entry in entries { counts[entry.charge.status, default: 0] += 1 }
        let summary = counts.sorted { $0.key.rawValue < $1.key.rawValue }.map { status, count in
            "<span><b>\(count)</b> \(PageLayout.escape(status.rawValue))</span>"
        }.joined()
        let ipns = entries.flatMap(\.notifications)
        let body = entries.isEmpty
            ? "<div class=\"empty\">No charges yet. Create one with POST /v1/charges (or `chargekit upi demo`).</div>"
            : entries.map { charge($0, now: now, formToken: formToken) }.joined(separator: "\n")
        return PageLayout.page(title: "Citcon UPI sandbox dashboard", style: style, body: """
        <h1>\(PageLayout.escape(merchant)) · sandbox dashboard</h1>
        <div class="sub">The \(SandboxAPI.dashboardLimit) most recent charges, newest first · times UTC · \
        <a href="\(path)">refresh</a></div>
        \(failedKeyAttempts > 0 ? "<div class=\"warning\" role=\"alert\"><b>\(failedKeyAttempts)</b> wrong merchant keys in the last minute: someone may be guessing the key (rotate it if you did not type them).</div>" : "")
        <div class="summary"><span><b>\(entries.count)</b> charges</span>\(summary)\
        <span><b>\(ipns.count)</b> IPNs, <b>\(ipns.filter { $0.state == .pending }.count)</b> waiting, \
        <b>\(ipns.filter { $0.state == .dead }.count)</b> dead</span></div>
        \(body)
        \(requestList(requests))
        """)
    }

    /// The latest API requests this instance answered (bodies with `chargekit upi logs tail --bodies`).
    static func requestList(_ requests: [RequestJournal.Entry]) -> String {
        guard !requests.isEmpty else { return "" }
        let rows = requests.map { entry in
            let time = clock(entry.time * 1000)
            return "<li class=\"request\"><code>\(PageLayout.escape(entry.method)) \(PageLayout.escape(entry.route))</code> "
                + "<b>\(entry.status)</b> <small>\(PageLayout.escape(time)) · \(entry.milliseconds) ms</small></li>"
        }.joined()
        return "<div class=\"charge\" id=\"requests\"><h2>Latest API requests</h2><ul>\(rows)</ul>"
            + "<div class=\"sub\">With their bodies, masked: <code>chargekit upi logs tail --bodies</code> or GET /v1/logs.</div></div>"
    }

    /// The page of a refused action, with a way back.
    static func error(_ message: String) -> String {
        PageLayout.page(title: "Sandbox dashboard", style: style, body: """
        <div class="charge"><h1>Cannot do that</h1><p>\(PageLayout.escape(message))</p>\
        <p><a href="\(path)">Back to the dashboard</a></p></div>
        """)
    }
}
