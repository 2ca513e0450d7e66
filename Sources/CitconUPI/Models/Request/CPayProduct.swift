import Foundation

/// One product: the seed's `CPayProduct`. Amounts are in minor units.
public struct CPayProduct: Sendable, Equatable, Codable {
    /// Name.
    public var name: String?
    /// SKU.
    public var sku: String?
    /// Product page.
    public var url: String?
    /// Quantity.
    public var quantity: Int?
    /// Total including tax and discount.
    public var totalAmount: Int?
    /// Unit amount including tax, excluding discount.
    public var unitAmount: Int?
    /// Tax rate.
    public var totalTaxRate: Int?
    /// Tax amount.
    public var totalTaxAmount: Int?
    /// Discount amount.
    public var totalDiscountAmount: Int?
    /// Taxable amount.
    public var taxableAmount: Int?
    /// Tax-exempt amount.
    public var taxExemptAmount: Int?
    /// Category (published SDK).
    public var category: String?
    /// Discount code (published SDK).
    public var totalDiscountCode: String?
    /// Product type (published SDK).
    public var productType: String?
    /// Description (published SDK).
    public var desc: String?

    /// Makes an empty product.
    public init() {}

    enum CodingKeys: String, CodingKey {
        case name, sku, url, quantity, category, desc
        case totalAmount = "total_amount", unitAmount = "unit_amount", totalTaxRate = "total_tax_rate"
        case totalTaxAmount = "total_tax_amount", totalDiscountAmount = "total_discount_amount"
        case taxableAmount = "taxable_amount", taxExemptAmount = "tax_exempt_amount"
        case totalDiscountCode = "total_discount_code", productType = "product_type"
    }
}
