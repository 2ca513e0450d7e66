import Foundation

/// Resumes a continuation once, whoever comes first: the result or a cancellation.
final class ResumeOnce: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Result<CPayResult, CPayError>, Never>?
    private var early: Result<CPayResult, CPayError>?
    private var done = false

    var isDone: Bool { lock.withLock { done } }

    func set(_ continuation: CheckedContinuation<Result<CPayResult, CPayError>, Never>) {
        let pending: Result<CPayResult, CPayError>? = lock.withLock {
            if let early { return early }
            self.continuation = continuation
            return nil
        }
        if let pending { continuation.resume(returning: pending) }
    }

    func resume(_ result: Result<CPayResult, CPayError>) {
        let target: CheckedContinuation<Result<CPayResult, CPayError>, Never>? = lock.withLock {
            guard !done else { return nil }
            done = true
            guard let continuation else {
                early = result
                return nil
            }
            self.continuation = nil
            return continuation
        }
        target?.resume(returning: result)
    }
}
