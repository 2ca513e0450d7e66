import Benchmark
import CitconSandbox
@_spi(Tools) import CitconUPI
import Foundation

// The sandbox's one fast path: a charge's stored document written by WireJSON
// (ChargeRecord.document, Tools/Sources/CitconSandbox/FastPath/WireJSON.swift) beside the
// same record written by Foundation's JSONEncoder with the wire's settings. Both must
// decode to the same record before anything is timed.

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .throughput], timeUnits: .nanoseconds,
                                           scalingFactor: .kilo, maxDuration: .seconds(2), maxIterations: 2_000)
    var urls = CPayUrls()
    urls.success = "https://shop.example/ok"
    let record = ChargeRecord(
        id: "1795000000000000001", chargeToken: "0123456789abcdef0123456789abcdef", reference: "load-1-1-7",
        amount: 125, currency: "USD", country: "US", autoCapture: false, note: "load", method: "wechatpay",
        status: .initiated, urls: urls,
        returnURL: nil, timeCreated: 1_795_000_000_000, expiresAt: 1_795_000_900_000)
    let encoder = UPIWire.encoder()
    let decoder = JSONDecoder()
    let fast = try? decoder.decode(ChargeRecord.self, from: record.document)
    let general = (try? encoder.encode(record)).flatMap { try? decoder.decode(ChargeRecord.self, from: $0) }
    guard let fast, fast == general else {
        print("the two writers disagree: nothing is measured")
        return
    }
    Benchmark("charge document / WireJSON") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(record.document) }
    }
    Benchmark("charge document / JSONEncoder") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try? encoder.encode(record)) }
    }
}
