/// The URL schemes of the wallets Citcon hands off to, to list under
/// `LSApplicationQueriesSchemes` (list only the wallets you offer).
public enum CPayWalletSchemes {
    /// WeChat Pay.
    public static let wechatpay = ["weixin", "wechat", "weixinULAPI"]
    /// Alipay.
    public static let alipay = ["alipay", "safepay", "alipays"]
    /// UnionPay.
    public static let unionpay = ["uppaywallet", "uppaysdk", "uppayx1", "uppayx2", "uppayx3"]
    /// Venmo.
    public static let venmo = ["com.venmo.touch.v2"]
    /// Every wallet's, in that order.
    public static let all = wechatpay + alipay + unionpay + venmo
}
