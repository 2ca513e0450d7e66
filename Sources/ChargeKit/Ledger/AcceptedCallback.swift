/// The callback that consumed a pending charge, as the ledger accepted it: kept with
/// the entry, so that a call waiting for the charge, in this process or another, gets
/// the same result without parsing or checking the callback again.
public struct AcceptedCallback: Hashable, Sendable, Codable {
    /// The URL the app was opened with.
    public var url: String
    /// The callback, parsed by the rules of the app the charge went to.
    public var callback: PaymentCallback
    /// What the ledger's checks noticed.
    public var flags: [VerificationFlag]

    /// Whether a ledger keeps it with its entry: its URL is at most
    /// `LedgerEntries.maximumKeptCallback` bytes long (every store applies this rule).
    @_spi(Tools) public var isKept: Bool { url.utf8.count <= LedgerEntries.maximumKeptCallback }

    /// Records an accepted callback.
    public init(url: String, callback: PaymentCallback, flags: [VerificationFlag]) {
        self.url = url
        self.callback = callback
        self.flags = flags
    }
}

extension PaymentCallback: Codable {
    private enum CodingKeys: String, CodingKey { case provider, callback }

    /// Reads a callback kept by a ledger: the app's name, then its own callback type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let provider = try container.decode(PaymentProvider.self, forKey: .provider)
        self.init(try provider.definition.decodeCallback(from: container.superDecoder(forKey: .callback)))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(provider, forKey: .provider)
        try base.encode(to: container.superEncoder(forKey: .callback))
    }
}
