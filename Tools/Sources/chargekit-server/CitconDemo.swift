import ArgumentParser
import ChargeKitCommands
@_spi(Tools) import ChargeKit
import CitconSandbox
import CitconSandboxTesting
@_spi(Tools) import CitconUPI
import Foundation

/// `chargekit demo --provider citcon`: the UPI sandbox in-process on a temporary
/// database, a merchant server creating the charge, the SDK paying it through a
/// headless wallet, the CPayResult, the NTFY_ASYNC check and the IPN the merchant got.
enum CitconDemo {
    static func run(json: Bool) async throws {
        // The story for people; with --json, one object at the end instead.
        let print: @Sendable (String) -> Void = { line in if !json { Swift.print(line) } }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chargekit-citcon-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        var configuration = SandboxConfiguration()
        configuration.port = 0
        configuration.databasePath = directory.appendingPathComponent("sandbox.sqlite").path
        configuration.ipnRetrySchedule = [.milliseconds(200), .milliseconds(400)]
        let sandbox = try await RunningSandbox.start(configuration)
        let receiver = try await IPNReceiver.start()
        print("Citcon UPI demo against the local sandbox")
        print("1. Sandbox at \(sandbox.info.baseURL) (database \(configuration.databasePath))")
        print("   merchant IPN receiver at \(receiver.url)")

        // The merchant's server: a server token, then the charge.
        let merchant = UPIClient.tools(sandbox.baseURL)
        let serverToken = try await merchant.accessToken(merchantKey: sandbox.info.merchantKey, type: "server")
        var order = CPayRequest()
        order.transaction.reference = "demo_\(Int(Date().timeIntervalSince1970 * 1000))"
        order.transaction.amount = 1
        order.transaction.currency = "USD"
        order.transaction.country = "US"
        order.transaction.note = "ChargeKit demo"
        order.payment = CPayPayment()
        order.payment.method = "alipay"
        order.urls.ipn = receiver.url
        order.urls.success = "https://success.merchant.example/"
        order.urls.cancel = "https://cancel.merchant.example/"
        order.urls.fail = "https://fail.merchant.example/"
        order.scheme = "com.citcon.citconpay"
        let created = try await merchant.createCharge(UPIWire.ChargeRequest(order: order), token: serverToken.accessToken)
        order.chargeToken = created.chargeToken
        print("2. Merchant server created charge \(created.id) (\(created.status)), charge token handed to the app")

        // The app: the SDK with a client token and a headless wallet that pays.
        let clientToken = try await merchant.accessToken(merchantKey: sandbox.info.merchantKey, type: "client")
        let center = NotificationCenter()
        let manager = CPayManager(notificationCenter: center)
        manager.callbackQueue = DispatchQueue(label: "chargekit.demo.callbacks")
        manager.setBaseURL(sandbox.baseURL)
        manager.setAccessToken(clientToken.accessToken)
        manager.opener = HeadlessWallet(always: .pay) { url in
            print("   <- wallet returns to the app: \(url.absoluteString)")
            manager.handle(url: url)
        }
        let asyncChecks = AsyncStream<CPayCheck>.makeStream()
        let observer = center.addObserver(forName: Notification.Name(CPayManager.NTFY_ASYNC()), object: nil, queue: nil) { note in
            if let check = note.object as? CPayCheck { asyncChecks.continuation.yield(check) }
        }
        defer { center.removeObserver(observer) }

        print("3. requestOrder: confirm, open the wallet, consumer taps Pay")
        let result: CPayResult
        do {
            result = try await manager.requestOrder(order)
        } catch {
            print("   failed: \(error)")
            throw ExitCode.failure
        }
        print("4. CPayResult (synchronous):")
        print(indent(Self.json(result)))
        var iterator = asyncChecks.stream.makeAsyncIterator()
        if let check = await iterator.next() {
            print("5. NTFY_ASYNC notification: status \(check.status), data.status \(check.data?.status?.rawValue ?? "?")")
        }
        let secret = sandbox.info.ipnSecret
        let delivered = await receiver.wait { deliveries in
            deliveries.contains { (try? $0.verified(secret: secret))?.status == "success" }
        }
        print("6. IPN received by the merchant server, its signature verified with the IPN secret:")
        if delivered, let ipn = receiver.deliveries.last(where: { (try? $0.verified(secret: secret))?.status == "success" }) {
            print(indent(String(decoding: ipn.body, as: UTF8.self)))
        } else {
            print("   none within 10 s")
        }
        await receiver.stop()
        await sandbox.stop()
        if json {
            struct Summary: Encodable {
                let provider = "citcon", charge: String, paid: Bool, status: String?, ipnVerified: Bool
                enum CodingKeys: String, CodingKey { case provider, charge, paid, status, ipnVerified = "ipn_verified" }
            }
            try printJSON(Summary(charge: created.id, paid: result.isPaid, status: result.data?.status?.rawValue, ipnVerified: delivered))
        }
        guard result.isPaid, delivered else { throw ExitCode.failure }
        print("Paid, verified by inquiry, notified, and the IPN reached the merchant.")
    }

    static func json<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
    }

    static func indent(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "   " + $0 }.joined(separator: "\n")
    }
}
