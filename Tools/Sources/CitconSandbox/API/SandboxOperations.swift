@_spi(Tools) import ChargeKit
@_spi(Tools) import CitconUPI
import Foundation
import OpenAPIRuntime
import SandboxScenarios

/// The sandbox's operations as its description declares them (`Tools/openapi/sandbox.yaml`,
/// generated into `Generated/` beside this file by `scripts/openapi-generate.sh`): each takes the
/// generated input and returns the generated output. ``SandboxRoutes`` registers them
/// through ``RecordingTransport`` behind ``OpenAPIEdge``.
struct SandboxOperations: APIProtocol {
    let api: SandboxAPI
    /// The API requests this instance answered (`GET /v1/logs`).
    let journal: RequestJournal
    /// What this instance's listener streams share.
    let listeners: ListenerStreams

    /// `GET /v1/health`: the sandbox is up.
    func health(_ input: Operations.Health.Input) async throws -> Operations.Health.Output {
        .ok(.init(body: .json(try Self.success(["status": "ok"]))))
    }

    /// `POST /v1/access-tokens` (the merchant key, ``OperationPermissions``): a token of
    /// the type asked, an answer no cache may keep.
    func issueToken(_ input: Operations.IssueToken.Input) async throws -> Operations.IssueToken.Output {
        guard case .json(let body) = input.body else { throw APIError.bodyRequired }
        let token = try await api.issueToken(body)
        guard let type = Components.Schemas.AccessToken.TokenTypePayload(rawValue: token.tokenType) else {
            throw APIError(.invalidRequest, "token_type: must be \"server\" or \"client\"")
        }
        let data = Components.Schemas.AccessToken(accessToken: token.accessToken, tokenType: type,
                                                  expiry: Int(UPIWire.wireTime(token.expiry)), permission: token.permissions)
        return .ok(.init(headers: .init(cacheControl: .noStore),
                         body: .json(.init(status: .success, app: .citconUpi, version: UPIWire.version, data: data))))
    }

    /// `GET /sandbox/scenarios`: the outcomes the `ChargeKit-Scenario` header plays.
    func scenarioList(_ input: Operations.ScenarioList.Input) async throws -> Operations.ScenarioList.Output {
        typealias Data = Components.Schemas.ScenarioListEnvelope.DataPayload
        let scenarios = SandboxScenario.allCases.map {
            Components.Schemas.SandboxScenario(name: $0.rawValue, outcome: $0.outcome, description: $0.description)
        }
        return .ok(.init(body: .json(.init(status: .success, app: .citconUpi, version: UPIWire.version,
                                           data: Data(header: SandboxScenario.header, scenarios: scenarios)))))
    }

    /// `GET /sandbox/clock` (the merchant key): the sandbox's time, as the store last moved it.
    func clockRead(_ input: Operations.ClockRead.Input) async throws -> Operations.ClockRead.Output {
        await api.clock.refresh(from: api.store)
        return .ok(.init(body: .json(clockReading())))
    }

    /// `POST /sandbox/clock` (the merchant key): the clock moved forward, never back; what
    /// is now overdue expires at once, its IPNs due with it.
    func clockAdvance(_ input: Operations.ClockAdvance.Input) async throws -> Operations.ClockAdvance.Output {
        guard case .json(let body) = input.body else { throw APIError.bodyRequired }
        guard (1...SandboxClock.maximumAdvance).contains(body.advanceSeconds) else {
            throw APIError(.invalidRequest, "advance_seconds: must be 1 to \(SandboxClock.maximumAdvance) (the clock only moves forward)")
        }
        _ = try await api.clock.advance(seconds: body.advanceSeconds, in: api.store)
        _ = try? await api.expireOverdue()
        return .ok(.init(body: .json(clockReading())))
    }

    /// `DELETE /sandbox/clock` (the merchant key): back to the real time.
    func clockReset(_ input: Operations.ClockReset.Input) async throws -> Operations.ClockReset.Output {
        try await api.clock.reset(in: api.store)
        return .ok(.init(body: .json(clockReading())))
    }

    /// The clock as it reads now, in a `success` envelope.
    func clockReading() -> Components.Schemas.ClockReadingEnvelope {
        .init(status: .success, app: .citconUpi, version: UPIWire.version,
              data: .init(now: Int(api.clock.now / 1000), offsetSeconds: Int(api.clock.offsetMilliseconds / 1000)))
    }

    /// `GET /v1/ipns` (the merchant key): the newest 500 IPNs the outbox holds (of one
    /// charge, with `charge`), oldest first, each with its attempts.
    func ipnList(_ input: Operations.IpnList.Input) async throws -> Operations.IpnList.Output {
        if let charge = input.query.charge {
            try SandboxAPI.field { () throws(ChargeKitError) in try FieldRules.identifier(charge, field: "charge", limit: 128) }
        }
        // The newest 500 and their attempts: two queries, whatever the outbox holds.
        let (entries, attempts) = try await api.store.latestNotifications(transactionID: input.query.charge, limit: 500)
        let attemptsByIPN = Dictionary(grouping: attempts, by: \.notificationID)
        let listing = try entries.map { entry in
            guard let state = Components.Schemas.IPNListing.StatePayload(rawValue: entry.state.rawValue) else {
                throw APIError(.invalidRequest, "state: \(entry.state.rawValue) is not an IPN's state")
            }
            return Components.Schemas.IPNListing(
                id: entry.id, charge: entry.transactionID, event: entry.status.event, state: state, url: entry.url,
                attempts: (attemptsByIPN[entry.id] ?? []).map { .init(number: $0.number, time: $0.time / 1000, answer: $0.answer) },
                lastError: entry.lastError)
        }
        return .ok(.init(body: .json(.init(status: .success, app: .citconUpi, version: UPIWire.version, data: listing))))
    }

    /// `POST /v1/ipn-events/{id}/forwards` (the merchant key): how the URL a listener
    /// forwarded IPN `id` to answered, kept beside the IPN's attempts.
    func ipnForwarded(_ input: Operations.IpnForwarded.Input) async throws -> Operations.IpnForwarded.Output {
        guard let number = Int64(input.path.id), number > 0 else { throw APIError(.invalidRequest, "id: must be an IPN's number") }
        guard case .json(let report) = input.body else { throw APIError.bodyRequired }
        guard !report.answer.isEmpty else { throw APIError(.invalidRequest, "answer: must not be empty") }
        try SandboxAPI.field { () throws(ChargeKitError) in try FieldRules.text(report.answer, field: "answer", limit: 200) }
        // Shown on the dashboard and in terminals: no bidirectional override, zero-width
        // or line-separator character may reorder or break what others read.
        guard !report.answer.unicodeScalars.contains(where: {
            [.format, .lineSeparator, .paragraphSeparator].contains($0.properties.generalCategory)
        }) else {
            throw APIError(.invalidRequest, "answer: must not contain Unicode format or separator characters (such as U+202E or U+2028)")
        }
        guard try await api.store.recordForward(notificationID: number, time: api.now, answer: report.answer, delivered: report.delivered) else {
            throw APIError(.notFound, "id: no IPN \(number)")
        }
        return .ok(.init(body: .json(.init(status: .success, app: .citconUpi, version: UPIWire.version, data: .init(recorded: ._true)))))
    }

    /// `GET /v1/logs?after=ID&limit=N` (the merchant key): the API requests this instance
    /// answered after `after` (0 for all it keeps), oldest first, at most `limit` (100 by
    /// default), bodies masked. `chargekit upi logs tail` follows it.
    func logList(_ input: Operations.LogList.Input) async throws -> Operations.LogList.Output {
        let entries = journal.entries(after: input.query.after?.value ?? 0, limit: Int(input.query.limit?.value ?? 100))
        return .ok(.init(body: .json(.init(status: .success, app: .citconUpi, version: UPIWire.version, data: entries))))
    }

    /// `GET /v1/transactions/{id}` (an access token that may inquire): the transaction
    /// with its captures, refunds and chargebacks.
    func inquire(_ input: Operations.Inquire.Input) async throws -> Operations.Inquire.Output {
        .ok(.init(body: .json(Self.transaction(try await api.inquire(id: input.path.id)))))
    }

    /// `POST /v1/charges` (a server token): a charge, with its charge token; the
    /// `ChargeKit-Scenario` and `ChargeKit-IPN-Fault` headers set its outcome and what
    /// its IPNs meet.
    func createCharge(_ input: Operations.CreateCharge.Input) async throws -> Operations.CreateCharge.Output {
        guard case .json(let body) = input.body else { throw APIError.bodyRequired }
        let created = try await api.createCharge(try NewCharge(body, remoteIPN: api.configuration.allowNonLoopbackIPN),
                                                 scenario: input.headers.chargeKitScenario?.scenario,
                                                 ipnFault: input.headers.chargeKitIPNFault?.fault)
        return .ok(.init(body: .json(.init(status: .success, app: .citconUpi, version: UPIWire.version, data: created))))
    }

    /// `POST /v1/charges/{charge_token}` (a client token): the charge confirmed with a
    /// method, and the wallet it is paid in.
    func confirmCharge(_ input: Operations.ConfirmCharge.Input) async throws -> Operations.ConfirmCharge.Output {
        guard case .json(let body) = input.body else { throw APIError.bodyRequired }
        let confirmed = try await api.confirm(try ChargeConfirmation(body, chargeToken: input.path.chargeToken),
                                              scenario: input.headers.chargeKitScenario?.scenario)
        return .ok(.init(body: .json(.init(status: .success, app: .citconUpi, version: UPIWire.version, data: confirmed))))
    }

    /// `POST /v1/captures` (a server token): an authorized charge captured, all or part.
    func capture(_ input: Operations.Capture.Input) async throws -> Operations.Capture.Output {
        guard case .json(let body) = input.body else { throw APIError.bodyRequired }
        let transaction = try await api.capture(try ChargeOperation(body), scenario: input.headers.chargeKitScenario?.scenario)
        return .ok(.init(body: .json(Self.transaction(transaction))))
    }

    /// `POST /v1/refunds` (a server token): the refund of a paid charge.
    func refund(_ input: Operations.Refund.Input) async throws -> Operations.Refund.Output {
        guard case .json(let body) = input.body else { throw APIError.bodyRequired }
        let refund = try await api.refund(try ChargeOperation(body), scenario: input.headers.chargeKitScenario?.scenario)
        return .ok(.init(body: .json(Self.transaction(refund))))
    }

    /// `POST /v1/cancels` (a server token): an unpaid charge canceled, or an authorization voided.
    func cancel(_ input: Operations.Cancel.Input) async throws -> Operations.Cancel.Output {
        guard case .json(let body) = input.body else { throw APIError.bodyRequired }
        return .ok(.init(body: .json(Self.transaction(try await api.cancel(try ChargeOperation(body))))))
    }

    /// `GET /v1/ipn-events` (the merchant key): every IPN of the merchant as server-sent
    /// events (``IPNEventStream``), after `Last-Event-ID` (or `?after=`), or from now on.
    func ipnEvents(_ input: Operations.IpnEvents.Input) async throws -> Operations.IpnEvents.Output {
        let resume = input.headers.lastEventID ?? input.query.after
        // A new listener starts with the IPNs to come; one that resumes, after the last it had.
        let latest = try await api.store.latestNotificationID()
        let after: Int64
        if let resume { after = Int64(resume) ?? -1 } else { after = latest }
        guard after >= 0 else {
            throw APIError(.invalidRequest, "Last-Event-ID: must be the id of an event this stream sent (digits)")
        }
        // The key was just checked against the store: one rotated in by another
        // instance in the last second is read now, so that the stream does not end at once.
        let key = OperationPermissions.merchantKey ?? ""
        if !constantTimeEquals(listeners.secrets.merchantKey, key) { await listeners.secrets.refresh(from: api.store) }
        // The place is freed when the stream ends, or when the transport drops it unread.
        let place: ListenerFeed.Place
        do throws(APIError) {
            place = try listeners.feed.open()
        } catch {
            // Over the key's bound: refused, and the connection it held freed.
            throw ClosingRefusal(error)
        }
        let stream = IPNEventStream(store: api.store, listeners: listeners, after: after, latest: latest, key: key, place: place)
        return .ok(.init(headers: .init(cacheControl: .noStore), body: .textEventStream(stream.body)))
    }

    /// A transaction in a `success` envelope.
    static func transaction(_ value: CPayCheckData) -> Components.Schemas.TransactionEnvelope {
        .init(status: .success, app: .citconUpi, version: UPIWire.version, data: TransactionAnswer(value))
    }

    /// A `success` envelope of the UPI API around `data`.
    static func success(_ data: [String: (any Sendable)?]) throws -> Components.Schemas.Envelope {
        Components.Schemas.Envelope(status: .success, app: .citconUpi, version: UPIWire.version,
                                    data: try OpenAPIObjectContainer(unvalidatedValue: data))
    }
}
