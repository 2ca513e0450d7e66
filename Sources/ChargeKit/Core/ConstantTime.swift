/// Whether two secrets (keys, tokens, signatures) are equal, in a time that depends on
/// their length only, not on where they first differ: the one comparison every
/// module uses for secrets.
@_spi(Tools) public func constantTimeEquals(_ a: String, _ b: String) -> Bool {
    let (x, y) = (Array(a.utf8), Array(b.utf8))
    guard x.count == y.count else { return false }
    return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
}
