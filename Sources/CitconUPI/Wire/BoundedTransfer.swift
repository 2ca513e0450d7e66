import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP exchange of ``UPIClient``, bounded in every way a server could stretch it.
///
/// - Redirects are never followed: the UPI API never redirects, and following one would
///   send the `Authorization` header (the merchant key, on `/v1/access-tokens`) and the
///   body to wherever the `Location` points. The 3xx itself comes back, and
///   ``UPIClient`` refuses it.
/// - The answer is read as it arrives and the transfer is cancelled as soon as it passes
///   `limit` bytes: nothing larger is ever held in memory.
/// - The whole exchange ends at `deadline`, however slowly a server trickles bytes
///   (URLSession's own timeout fires only on silence).
///
/// It runs on a session of its own, made from the caller's session's configuration
/// (proxies, headers and cookies as the app set them), with this object as its delegate,
/// and invalidated when the exchange ends.
final class BoundedTransfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// How an exchange ended other than with an answer.
    enum Failure: Error {
        case tooLarge
        case deadline
        case transport(any Error)
    }

    private let limit: Int
    private let lock = NSLock()
    private var received = Data()
    private var response: URLResponse?
    private var failure: Failure?
    private var continuation: CheckedContinuation<(Data, URLResponse), any Error>?

    private init(limit: Int) { self.limit = limit }

    /// Sends `request` and returns the answer's body (at most `limit` bytes) and response.
    static func exchange(_ request: URLRequest, configuration: URLSessionConfiguration, limit: Int,
                         deadline: Duration) async throws(Failure) -> (Data, URLResponse) {
        let transfer = BoundedTransfer(limit: limit)
        let session = URLSession(configuration: configuration, delegate: transfer, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let task = session.dataTask(with: request)
        let timer = Task {
            try await Task.sleep(for: deadline)
            transfer.fail(.deadline, task)
        }
        defer { timer.cancel() }
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    transfer.lock.withLock { transfer.continuation = continuation }
                    task.resume()
                }
            } onCancel: {
                task.cancel()
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .transport(error)
        }
    }

    /// Ends the exchange with `failure` (the first failure wins) at once, and cancels the
    /// task: the caller does not wait for the cancellation to reach the transfer.
    private func fail(_ reason: Failure, _ task: URLSessionTask) {
        let waiting = lock.withLock { () -> CheckedContinuation<(Data, URLResponse), any Error>? in
            if failure == nil { failure = reason }
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume(throwing: reason)
        task.cancel()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        lock.withLock { self.response = response }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let over = lock.withLock { () -> Bool in
            guard failure == nil else { return false }
            guard received.count + data.count <= limit else { return true }
            received.append(data)
            return false
        }
        if over { fail(.tooLarge, dataTask) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, outcome) = lock.withLock { () -> (CheckedContinuation<(Data, URLResponse), any Error>?, Result<(Data, URLResponse), any Error>) in
            let continuation = self.continuation
            self.continuation = nil
            if let failure { return (continuation, .failure(failure)) }
            if let error { return (continuation, .failure(Failure.transport(error))) }
            guard let response = response ?? task.response else {
                return (continuation, .failure(Failure.transport(URLError(.badServerResponse))))
            }
            return (continuation, .success((received, response)))
        }
        continuation?.resume(with: outcome)
    }
}
