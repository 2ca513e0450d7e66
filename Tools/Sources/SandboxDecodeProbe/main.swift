import CitconSandbox
@_spi(Tools) import CitconUPI
import Foundation

// Decodes the load test's create body N times (64 bodies that differ in their
// reference, in turn), as the sandbox reads it (`wire`: SandboxAPI.decode, its fast
// reader first) or with JSONDecoder
// (`foundation`), and prints the sum of the amounts read so that nothing is optimised
// away. scripts/instructions.sh runs it under callgrind with two counts and divides the
// difference. Usage: SandboxDecodeProbe wire|foundation N
let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let reader = arguments.first, ["wire", "foundation"].contains(reader),
      let count = arguments.last.flatMap({ Int($0) }), count >= 0
else {
    FileHandle.standardError.write(Data("usage: SandboxDecodeProbe wire|foundation N\n".utf8))
    exit(64)
}
let bodies = (0..<64).map { index in
    Data(#"{"transaction":{"reference":"load-1-1-\#(index)","amount":125,"currency":"USD","country":"US","note":"load"},"payment":{"method":"wechatpay"},"urls":{"success":"https://shop.example/ok"}}"#.utf8)
}
let decoder = JSONDecoder()
var total = 0
for index in 0..<count {
    let body = bodies[index & 63]
    let request = reader == "wire"
        ? try? SandboxAPI.decode(ChargeBody.self, from: body)
        : try? decoder.decode(ChargeBody.self, from: body)
    guard let request else {
        FileHandle.standardError.write(Data("SandboxDecodeProbe: the body was not read\n".utf8))
        exit(1)
    }
    total &+= request.transaction.amount
}
print(total)
