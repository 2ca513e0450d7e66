@_spi(Tools) import CitconUPI
import Foundation
import ToolsHTTP
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `UPIClient`'s requests, sent through the tools' one HTTP client: what every
/// `chargekit upi` command and the Citcon demo's merchant server use.
struct ToolsUPITransport: UPITransport {
    func exchange(_ request: URLRequest, limit: Int, deadline: Duration) async throws(UPITransportFailure) -> (status: Int, body: Data) {
        guard let url = request.url else { throw .transport("a request without a URL") }
        let headers = (request.allHTTPHeaderFields ?? [:]).sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
        do throws(ToolsHTTPClient.Failure) {
            // The 3xx comes back to UPIClient, which refuses it with its own words; it is never followed.
            let answer = try await ToolsHTTPClient.shared.send(
                .init(request.httpMethod ?? "GET", url, headers: headers, body: request.httpBody, deadline: deadline, limit: limit, readsRedirects: true))
            return (answer.status, answer.body)
        } catch {
            switch error {
            case .tooLarge: throw .tooLarge
            case .deadline: throw .deadline
            default: throw .transport(error.description)
            }
        }
    }
}

extension UPIClient {
    /// A client of the API at `baseURL` on the tools' one HTTP client.
    static func tools(_ baseURL: URL) -> UPIClient { UPIClient(baseURL: baseURL, transport: ToolsUPITransport()) }
}
