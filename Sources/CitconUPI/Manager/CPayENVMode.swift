import Foundation

/// The runtime environment: the seed's `CPayENVMode` (`CPayENVModePROD` is `.prod`).
/// Each has its own base URL and its own tokens. To use a local sandbox or any other
/// host, call ``CPayManager/setBaseURL(_:)``.
public enum CPayENVMode: String, Sendable, CaseIterable {
    /// Citcon development.
    case dev = "DEV"
    /// Citcon QA.
    case qa = "QA"
    /// Citcon UAT, the sandbox merchants integrate against.
    case uat = "UAT"
    /// Production.
    case prod = "PROD"

    /// The environment's API root.
    public var baseURL: URL {
        let host = switch self {
        case .dev: "https://api.dev.citconpay.com"
        case .qa: "https://api.qa01.citconpay.com"
        case .uat: "https://api.sandbox.citconpay.com"
        case .prod: "https://api.citconpay.com"
        }
        return URL(string: host) ?? URL(fileURLWithPath: "/")
    }
}
