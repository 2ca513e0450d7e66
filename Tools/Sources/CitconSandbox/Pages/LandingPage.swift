/// `GET /`: what this server is and where to go from here: the dashboard, the OpenAPI
/// document, the documentation, and how to get an access token.
enum LandingPage {
    private static let style = """
    body{font-family:-apple-system,system-ui,sans-serif;background:#f2f4f7;margin:0;padding:24px;color:#1f2328}
    main{max-width:640px;margin:auto;background:#fff;border-radius:14px;padding:24px;box-shadow:0 4px 18px #0002}
    h1{font-size:20px;margin:0 0 4px} .sub{color:#667;font-size:13px;margin-bottom:16px} li{margin:6px 0}
    pre{background:#f6f8fa;border-radius:8px;padding:10px;font-size:12px;white-space:pre-wrap;word-break:break-all}
    @media (max-width:420px){body{padding:10px}main{padding:16px}}
    """

    /// The page, with `baseURL` in its examples.
    static func render(merchant: String, baseURL: String) -> String {
        let base = PageLayout.escape(baseURL)
        return PageLayout.page(title: "ChargeKit Citcon UPI sandbox", style: style, body: """
        <main>
        <h1>ChargeKit Citcon UPI sandbox</h1>
        <div class="sub">\(PageLayout.escape(merchant)) · a local stand-in for the Citcon UPI API; no real money moves</div>
        <ul>
        <li><a id="dashboard" href="\(DashboardPage.path)">Dashboard</a>: every charge, its history and IPNs, with buttons to pay, decline, cancel or expire (the merchant key is the password).</li>
        <li><a id="openapi" href="/openapi.yaml">OpenAPI document</a> of the <code>/v1</code> API.</li>
        <li><a id="docs" href="/docs/running-the-sandbox.md">Running the sandbox</a>: the guide, as Markdown (in the package: <code>Sources/CitconSandbox/CitconSandbox.docc/RunningTheSandbox.md</code>).</li>
        </ul>
        <h2 style="font-size:16px">Get an access token</h2>
        <p>The merchant key was printed when the sandbox started (<code>merchant key: …</code>).</p>
        <pre>export CHARGEKIT_MERCHANT_KEY=&lt;merchant key&gt;
        chargekit upi token --base-url \(base)/v1</pre>
        <p>or with curl:</p>
        <pre>curl -X POST \(base)/v1/access-tokens \\
          -H "Authorization: Bearer $CHARGEKIT_MERCHANT_KEY" \\
          -d '{"token_type":"server"}'</pre>
        </main>
        """)
    }
}
