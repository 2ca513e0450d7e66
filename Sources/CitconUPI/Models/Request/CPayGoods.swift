import Foundation

/// Products and shipping: the seed's `CPayGoods`.
public struct CPayGoods: Sendable, Equatable, Codable {
    /// The products.
    public var goods: [CPayProduct] = []
    /// Where they ship.
    public var shipping: CPayShipping?

    /// Makes empty goods.
    public init() {}

    enum CodingKeys: String, CodingKey { case goods, data, shipping }

    /// Reads the live API's shape (`data[]`) and the seed's (`goods[]`).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        goods = try c.decodeIfPresent([CPayProduct].self, forKey: .data) ?? c.decodeIfPresent([CPayProduct].self, forKey: .goods) ?? []
        shipping = try c.decodeIfPresent(CPayShipping.self, forKey: .shipping)
    }

    /// Writes the live API's shape: the products under `data`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(goods, forKey: .data)
        try c.encodeIfPresent(shipping, forKey: .shipping)
    }
}
