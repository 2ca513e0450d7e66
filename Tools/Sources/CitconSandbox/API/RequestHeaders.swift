import Foundation
import SandboxScenarios

/// The `ChargeKit-Scenario` header (schema `ScenarioName`): the outcome a request asks the
/// sandbox to play, refused naming the header and the names it takes.
struct ScenarioHeader: Codable, Sendable, Hashable {
    let scenario: SandboxScenario

    init(from decoder: any Decoder) throws {
        let text = (try? decoder.singleValueContainer().decode(String.self)) ?? ""
        guard let scenario = SandboxScenario.named(text.trimmingCharacters(in: .whitespaces)) else {
            throw APIError(.invalidRequest, "\(SandboxScenario.header): must be one of \(SandboxScenario.names)")
        }
        self.scenario = scenario
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(scenario.rawValue)
    }
}

/// The `ChargeKit-IPN-Fault` header (schema `IPNFaultName`): what the sandbox does to a
/// new charge's IPNs, refused naming the header and its rule.
struct IPNFaultHeader: Codable, Sendable, Hashable {
    let fault: IPNFault

    init(from decoder: any Decoder) throws {
        let text = (try? decoder.singleValueContainer().decode(String.self)) ?? ""
        guard let fault = IPNFault(header: text) else { throw APIError(.invalidRequest, "\(IPNFault.header): \(IPNFault.rule)") }
        self.fault = fault
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(fault.text)
    }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.fault == rhs.fault }

    func hash(into hasher: inout Hasher) { hasher.combine(fault.text) }
}
