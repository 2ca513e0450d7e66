import CitconSandbox
import ChargeKitTesting
@_spi(Tools) import CitconUPI
import Foundation

/// The behaviour every ``SandboxStore`` must show, written once so that anyone writing
/// a store (another database) can run it, and this repository runs it over every store
/// it ships. Each check gets `open`, a fresh storage (already migrated by the check),
/// and throws ``SandboxStoreConformanceFailure`` naming what went wrong.
public enum SandboxStoreConformance {
    /// One behaviour, run on a fresh, empty store (which the check migrates first).
    public typealias Check = ConformanceCheck<any SandboxStore>

    /// A check that migrates the store, then runs `body`.
    static func check(_ name: String, _ body: @escaping @Sendable (any SandboxStore) async throws -> Void) -> Check {
        Check(name: name) { store in
            _ = try await store.migrate()
            try await body(store)
        }
    }

    /// Every check.
    public static let checks: [Check] = [
        check("migrating twice keeps the schema version", migrateTwice),
        check("settings and tokens are kept; a new merchant key revokes the tokens", settingsAndTokens),
        check("adds to a setting made at once all count; a setting holding no whole number is refused, unchanged", settingSums),
        check("a charge is found by id and by charge token", chargeLookup),
        check("a reference is claimed once, by charges and operations alike", referencesOnce),
        check("racing writers claim a reference exactly once", racingReferences),
        check("many charges written at once are each kept whole, duplicates refused", concurrentCharges),
        check("a charge whose id or charge token is taken is refused whole; its reference stays free", takenIdentifiers),
        check("charges written at once with taken ids are refused alone; their references stay free", concurrentTakenIdentifiers),
        check("an update that throws changes nothing", failedUpdate),
        check("a status change writes one outbox entry (posted with an IPN URL, kept for listeners without, which a resend writes again); no change, none", outboxPerChange),
        check("listeners read the IPNs after an id, in order, from the latest on", listenersRead),
        check("due IPNs: the oldest pending one per transaction, when due", dueInOrder),
        check("unpaid charges past their expiry are overdue", overdue),
        check("a claimed IPN is nobody else's until its lease ends or its attempt is recorded", leases),
        check("claims are bounded per receiver origin and taken in turns: one receiver's backlog holds no other back", fairClaims),
        check("every attempt is logged with its answer; a delivered or dead IPN can be sent again", attemptLog),
        check("recent charges come newest first; every status change is in the history", recentAndHistory),
        check("the latest IPNs, of all or of one transaction, come with their attempts, oldest first", latestNotifications),
        check("failed authentications are counted from a time on; only those before a cutoff are forgotten", authenticationFailures),
    ]

    /// A failed attempt answered `HTTP 500`.
    static func failed(_ id: Int64, _ number: Int, at time: Int64) -> IPNAttempt {
        IPNAttempt(notificationID: id, number: number, time: time, answer: "HTTP 500", delivered: false)
    }

    /// A new charge for the checks (and the SQLite store's own tests): `id`, its charge token
    /// `ct-<id>`, `reference`, and an IPN URL when `ipn` is not empty.
    package static func charge(_ id: String, reference: String, ipn: String = "", expiresAt: Int64 = 10_000) -> ChargeRecord {
        var urls = CPayUrls()
        urls.ipn = ipn
        return ChargeRecord(id: id, chargeToken: "ct-" + id, reference: reference, amount: 100, currency: "USD", country: "US",
                            autoCapture: false, note: "", method: "alipay", status: .initiated, urls: urls, returnURL: nil,
                            timeCreated: 1000, expiresAt: expiresAt)
    }

    static func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw SandboxStoreConformanceFailure(message()) }
    }

    /// Runs `body`, which must fail with an `E`; `problem` says what is wrong with it, if anything.
    static func expectFailure<E: Error>(
        _ type: E.Type, expected: String, problem: (E) -> String?, _ body: () async throws -> Void
    ) async throws {
        do {
            try await body()
        } catch let error as E {
            if let problem = problem(error) { throw SandboxStoreConformanceFailure(problem) }
            return
        }
        throw SandboxStoreConformanceFailure("succeeded; expected \(expected)")
    }

    /// Runs `body`, which must fail with the API error `code`.
    static func expectAPIError(_ code: CPayAPICode, _ body: () async throws -> Void) async throws {
        try await expectFailure(APIError.self, expected: "the API error \(code.rawValue)", problem: { error in
            error.code == code ? nil : "failed with \(error.code.rawValue), expected \(code.rawValue)"
        }, body)
    }

    static func migrateTwice(_ store: any SandboxStore) async throws {
        let first = try await store.migrate()
        let second = try await store.migrate()
        try expect(first >= 1 && first == second, "schema versions \(first) then \(second)")
    }

    static func settingsAndTokens(_ store: any SandboxStore) async throws {
        try await store.setSetting("greeting", to: "hello")
        try expect(try await store.setting("greeting") == "hello", "a setting was not kept")
        try expect(try await store.setting("missing") == nil, "an unknown setting has a value")
        try expect(try await store.rotateMerchantKey(to: "key-1"), "a first merchant key is a change")
        let token = AccessTokenRecord(token: "tok-1", type: "server", permissions: ["charge", "inquiry"], expiresAt: 99)
        try await store.insertToken(token)
        try expect(try await store.token("tok-1") == token, "a token was not kept as inserted")
        try expect(!(try await store.rotateMerchantKey(to: "key-1")), "the same key is no change")
        try expect(try await store.token("tok-1") != nil, "the same key revoked a token")
        try expect(try await store.rotateMerchantKey(to: "key-2"), "a new key is a change")
        try expect(try await store.token("tok-1") == nil, "a new merchant key did not revoke the old tokens")
        try expect(try await store.setting("merchant_key") == "key-2", "the new merchant key was not stored")
    }

    static func settingSums(_ store: any SandboxStore) async throws {
        try expect(try await store.add(5, toSetting: "sum") == 5, "an unset setting did not start at 0")
        try await withThrowingTaskGroup(of: Int64.self) { group in
            for _ in 0..<40 { group.addTask { try await store.add(10, toSetting: "sum") } }
            var sums = Set<Int64>()
            for try await sum in group { sums.insert(sum) }
            try expect(sums == Set((1...40).map { 5 + Int64($0) * 10 }), "adds at once returned \(sums.sorted()), not each sum once")
        }
        try expect(try await store.setting("sum") == "405", "the adds made at once did not all count")
        try await store.setSetting("word", to: "ten")
        try await expectFailure((any Error).self, expected: "a refusal of an add to a setting holding a word", problem: { _ in nil }) {
            _ = try await store.add(1, toSetting: "word")
        }
        try expect(try await store.setting("word") == "ten", "a refused add changed the setting")
        try await store.setSetting("top", to: String(Int64.max))
        try await expectFailure((any Error).self, expected: "a refusal of an add past the largest whole number", problem: { _ in nil }) {
            _ = try await store.add(1, toSetting: "top")
        }
        try expect(try await store.setting("top") == String(Int64.max), "an add past the largest whole number changed the setting")
    }

    static func chargeLookup(_ store: any SandboxStore) async throws {
        let record = charge("1001", reference: "r-1")
        try await store.insertCharge(record)
        try expect(try await store.charge(id: "1001") == record, "the charge by id differs from the one inserted")
        try expect(try await store.charge(chargeToken: "ct-1001") == record, "the charge by charge token differs")
        let unknownID = try await store.charge(id: "nope"), unknownToken = try await store.charge(chargeToken: "nope")
        try expect(unknownID == nil && unknownToken == nil, "an unknown id or token found a charge")
        try expect(try await store.chargeCount() == 1, "chargeCount is not 1")
    }

    static func referencesOnce(_ store: any SandboxStore) async throws {
        try await store.insertCharge(charge("2001", reference: "shared"))
        try await expectAPIError(.duplicateReference) { try await store.insertCharge(charge("2002", reference: "shared")) }
        try await expectAPIError(.duplicateReference) { _ = try await store.updateCharge(id: "2001", reference: "shared", now: 1) { _ in } }
        _ = try await store.updateCharge(id: "2001", reference: "op-1", now: 1) { _ in }
        try await expectAPIError(.duplicateReference) { _ = try await store.updateCharge(id: "2001", reference: "op-1", now: 1) { _ in } }
        try await expectAPIError(.duplicateReference) { try await store.insertCharge(charge("2003", reference: "op-1")) }
        try await expectAPIError(.notFound) { _ = try await store.updateCharge(id: "none", reference: nil, now: 1) { _ in } }
        try expect(try await store.chargeCount() == 1, "a refused charge was stored")
    }

    static func racingReferences(_ store: any SandboxStore) async throws {
        try await store.insertCharge(charge("3001", reference: "base"))
        let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<16 {
                group.addTask {
                    do {
                        if index % 2 == 0 {
                            try await store.insertCharge(charge("31\(index)", reference: "contested"))
                        } else {
                            _ = try await store.updateCharge(id: "3001", reference: "contested", now: 1) { _ in }
                        }
                        return true
                    } catch let error as APIError where error.code == .duplicateReference {
                        return false
                    }
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        try expect(wins == 1, "\(wins) of 16 racing writers claimed one reference")
    }

    static func concurrentCharges(_ store: any SandboxStore) async throws {
        // 96 writers at once: 64 distinct references, and 32 that repeat one of them.
        let refused = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<96 {
                group.addTask {
                    do {
                        try await store.insertCharge(charge("5\(index)", reference: "batch-\(index % 64)"))
                        return false
                    } catch let error as APIError where error.code == .duplicateReference {
                        return true
                    }
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        try expect(refused == 32, "\(refused) of 32 repeated references were refused")
        let count = try await store.chargeCount()
        try expect(count == 64, "\(count) charges kept, expected 64")
        var kept = 0
        for index in 0..<96 {
            guard let found = try await store.charge(id: "5\(index)") else { continue }
            kept += 1
            try expect(found == charge("5\(index)", reference: "batch-\(index % 64)"), "charge 5\(index) differs from the one inserted")
            try expect(try await store.charge(chargeToken: "ct-5\(index)") == found, "charge 5\(index) not found by its token")
        }
        try expect(kept == 64, "\(kept) charges found by id, expected 64")
    }

    /// Runs `body`, which must fail with ``ChargeIdentifiersTaken`` naming `id`.
    static func expectIdentifiersTaken(_ id: String, _ body: () async throws -> Void) async throws {
        try await expectFailure(ChargeIdentifiersTaken.self, expected: "the charge \(id) to be refused (identifiers taken)",
                                problem: { $0.id == id ? nil : "refused the charge '\($0.id)', expected '\(id)'" }, body)
    }

    static func takenIdentifiers(_ store: any SandboxStore) async throws {
        let first = charge("7001", reference: "first")
        try await store.insertCharge(first)
        // The same id, a new reference and token.
        var sameID = charge("7001", reference: "second")
        sameID.chargeToken = "ct-other"
        try await expectIdentifiersTaken("7001") { try await store.insertCharge(sameID) }
        // A new id with the first charge's token.
        var sameToken = charge("7002", reference: "second")
        sameToken.chargeToken = first.chargeToken
        try await expectIdentifiersTaken("7002") { try await store.insertCharge(sameToken) }
        // Nothing of either was written: the first is whole, the reference free.
        try expect(try await store.charge(id: "7001") == first, "the first charge changed")
        try expect(try await store.charge(id: "7002") == nil, "a refused charge was stored")
        try expect(try await store.charge(chargeToken: "ct-other") == nil, "a refused charge's token was stored")
        try await store.insertCharge(charge("7003", reference: "second"))
        let count = try await store.chargeCount()
        try expect(count == 2, "\(count) charges kept, expected 2")
        // A taken reference is still told as such when the id is free.
        try await expectAPIError(.duplicateReference) { try await store.insertCharge(charge("7004", reference: "first")) }
    }

    static func concurrentTakenIdentifiers(_ store: any SandboxStore) async throws {
        for index in 0..<16 { try await store.insertCharge(charge("80\(index)", reference: "held-\(index)")) }
        // 48 writers at once: 16 with an id stored before, 16 that share an id among
        // themselves in pairs (one of each pair wins), 16 whose reference is taken.
        enum Outcome { case stored, identifiersTaken, referenceTaken }
        let outcomes = try await withThrowingTaskGroup(of: (Int, Outcome).self) { group in
            for index in 0..<48 {
                group.addTask {
                    let record: ChargeRecord
                    switch index / 16 {
                    case 0: record = charge("80\(index)", reference: "fresh-\(index)")
                    case 1:
                        var shared = charge("81\(index / 2)", reference: "fresh-\(index)")
                        shared.chargeToken = "ct-81-\(index)"
                        record = shared
                    default: record = charge("82\(index)", reference: "held-\(index % 16)")
                    }
                    do {
                        try await store.insertCharge(record)
                        return (index, .stored)
                    } catch is ChargeIdentifiersTaken {
                        return (index, .identifiersTaken)
                    } catch let error as APIError where error.code == .duplicateReference {
                        return (index, .referenceTaken)
                    }
                }
            }
            return try await group.reduce(into: [Int: Outcome]()) { $0[$1.0] = $1.1 }
        }
        try expect((0..<16).allSatisfy { outcomes[$0] == .identifiersTaken }, "a charge with a stored id was not refused")
        for pair in stride(from: 16, to: 32, by: 2) {
            let both = [outcomes[pair], outcomes[pair + 1]]
            try expect(both.contains(.stored) && both.contains(.identifiersTaken),
                       "two charges with one id: \(both), expected one stored and one refused")
        }
        try expect((32..<48).allSatisfy { outcomes[$0] == .referenceTaken }, "a charge with a taken reference was not refused")
        let count = try await store.chargeCount()
        try expect(count == 24, "\(count) charges kept, expected 24")
        // The references of refused charges are free.
        for index in 0..<32 where outcomes[index] == .identifiersTaken {
            try await store.insertCharge(charge("83\(index)", reference: "fresh-\(index)"))
        }
        let after = try await store.chargeCount()
        try expect(after == 48, "\(after) charges kept, expected 48")
    }

    struct Refusal: Error {}

    static func failedUpdate(_ store: any SandboxStore) async throws {
        try await store.insertCharge(charge("4001", reference: "r-4", ipn: "http://127.0.0.1:9/ipn"))
        do {
            _ = try await store.updateCharge(id: "4001", reference: "op-4", now: 5) { charge in
                charge.status = .canceled
                throw Refusal()
            }
            throw SandboxStoreConformanceFailure("the update's error was swallowed")
        } catch is Refusal {}
        try expect(try await store.charge(id: "4001")?.status == .initiated, "a failed update changed the charge")
        try expect(try await store.notifications(transactionID: "4001").isEmpty, "a failed update wrote an IPN")
        _ = try await store.updateCharge(id: "4001", reference: "op-4", now: 5) { _ in }  // the reference is still free
    }

    static func outboxPerChange(_ store: any SandboxStore) async throws {
        try await store.insertCharge(charge("5001", reference: "r-5", ipn: "http://127.0.0.1:9/ipn"))
        _ = try await store.updateCharge(id: "5001", reference: nil, now: 7) { $0.note = "no status change" }
        try expect(try await store.notifications(transactionID: "5001").isEmpty, "an update without a status change wrote an IPN")
        _ = try await store.updateCharge(id: "5001", reference: nil, now: 7) { $0.status = .pending }
        let entries = try await store.notifications(transactionID: "5001")
        try expect(entries.count == 1 && entries[0].status == .charge(.pending) && entries[0].state == .pending
                   && entries[0].url == "http://127.0.0.1:9/ipn" && entries[0].nextAttemptAt == 7 && !entries[0].payload.isEmpty,
                   "the IPN entry is not as written: \(entries)")
        try await store.insertCharge(charge("5002", reference: "r-5b"))
        _ = try await store.updateCharge(id: "5002", reference: nil, now: 7) { $0.status = .pending }
        let kept = try await store.notifications(transactionID: "5002")
        try expect(kept.count == 1 && kept[0].state == .listeners && kept[0].url.isEmpty, "a charge without an IPN URL did not keep its IPN for listeners: \(kept)")
        try expect(try await store.dueNotifications(now: 100, limit: 10, leaseUntil: 150).allSatisfy { $0.transactionID != "5002" },
                   "an IPN without a URL is due for posting")
        // Sent again, it is written again for the listeners: a new IPN after the newest, same body, still posted nowhere.
        try expect(try await store.resendNotification(id: kept[0].id, now: 8), "an IPN kept for the listeners could not be sent again")
        let again = try await store.notifications(transactionID: "5002")
        let latest = try await store.latestNotificationID()
        try expect(again.count == 2 && again[1].id > kept[0].id && again[1].payload == kept[0].payload && again[1].state == .listeners
                   && again[1].url.isEmpty && latest == again[1].id,
                   "a listener-only IPN sent again is not a new IPN for the listeners: \(again)")
        try expect(try await store.dueNotifications(now: 100, limit: 10, leaseUntil: 150).allSatisfy { $0.transactionID != "5002" },
                   "an IPN sent again to the listeners is due for posting")
    }

    static func listenersRead(_ store: any SandboxStore) async throws {
        let start = try await store.latestNotificationID()
        try await store.insertCharge(charge("7001", reference: "r-7", ipn: "http://127.0.0.1:9/ipn"))
        try await store.insertCharge(charge("7002", reference: "r-7b"))
        _ = try await store.updateCharge(id: "7001", reference: nil, now: 7) { $0.status = .pending }
        _ = try await store.updateCharge(id: "7002", reference: nil, now: 8) { $0.status = .pending }
        _ = try await store.updateCharge(id: "7001", reference: nil, now: 9) { $0.status = .succeeded }
        let read = try await store.notifications(after: start, limit: 10)
        try expect(read.map(\.transactionID) == ["7001", "7002", "7001"] && read.map(\.id) == read.map(\.id).sorted(),
                   "the IPNs after \(start) are not all, in order: \(read.map(\.transactionID))")
        try expect(try await store.latestNotificationID() == read.last?.id, "the latest id is not the last IPN's")
        try expect(try await store.notifications(after: read[0].id, limit: 1).map(\.id) == [read[1].id], "after and limit are not kept")
        // A listener's forwards: attempts -1, -2, listed in the order reported even in
        // one millisecond (two listeners answering at once), the IPN's own delivery untouched.
        try expect(try await store.recordForward(notificationID: read[1].id, time: 10, answer: "HTTP 200", delivered: true), "a forward was not recorded")
        try expect(try await store.recordForward(notificationID: read[1].id, time: 10, answer: "HTTP 500", delivered: false), "a second forward was not recorded")
        try expect(try await store.recordForward(notificationID: 999_999, time: 12, answer: "HTTP 200", delivered: true) == false,
                   "a forward of an unknown IPN was recorded")
        let forwards = try await store.notificationLog(transactionIDs: ["7002"]).attempts.filter { $0.notificationID == read[1].id }
        try expect(forwards.map(\.number) == [-1, -2] && forwards.contains { $0.number == -1 && $0.delivered },
                   "the forwards are not numbered -1, -2 and listed in the order reported: \(forwards)")
        try expect(try await store.notifications(transactionID: "7002").first?.state == .listeners, "a forward changed the IPN's state")
    }

    static func dueInOrder(_ store: any SandboxStore) async throws {
        try await store.insertCharge(charge("6001", reference: "r-6", ipn: "http://127.0.0.1:9/ipn"))
        _ = try await store.updateCharge(id: "6001", reference: nil, now: 10) { $0.status = .pending }
        _ = try await store.updateCharge(id: "6001", reference: nil, now: 20) { $0.status = .succeeded }
        var due = try await store.dueNotifications(now: 100, limit: 10, leaseUntil: 150)
        try expect(due.count == 1 && due[0].status == .charge(.pending), "not only the oldest pending IPN is due: \(due.map(\.status))")
        try await store.recordAttempt(failed(due[0].id, 1, at: 100), state: .pending, nextAttemptAt: 500)
        try expect(try await store.dueNotifications(now: 100, limit: 10, leaseUntil: 150).isEmpty, "a retry was due before its time (and its successor overtook it)")
        due = try await store.dueNotifications(now: 500, limit: 10, leaseUntil: 550)
        try expect(due.count == 1 && due[0].attempts == 1 && due[0].lastError == "HTTP 500", "the attempt was not recorded")
        try await store.recordAttempt(IPNAttempt(notificationID: due[0].id, number: 2, time: 500, answer: "HTTP 200", delivered: true),
                                      state: .delivered, nextAttemptAt: 500)
        due = try await store.dueNotifications(now: 500, limit: 10, leaseUntil: 550)
        try expect(due.count == 1 && due[0].status == .charge(.succeeded), "the next IPN is not due once the first was delivered")
    }

    static func fairClaims(_ store: any SandboxStore) async throws {
        // A receiver that never answers, with a backlog of 1 100 IPNs spread over 64
        // paths and their queries (more than any window of oldest IPNs a claim might
        // read first), then one IPN to each of two other origins.
        let hanging = 1_100
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<16 {
                group.addTask {
                    for index in stride(from: worker, to: hanging, by: 16) {
                        let id = String(90_000 + index)
                        try await store.insertCharge(charge(id, reference: "fair-\(index)", ipn: "http://127.0.0.1:9/p\(index % 64)?n=\(index)"))
                        _ = try await store.updateCharge(id: id, reference: nil, now: 10) { $0.status = .pending }
                    }
                }
            }
            try await group.waitForAll()
        }
        for (id, ipn) in [("99001", "HTTP://LOCALHOST:9/ipn"), ("99002", "https://127.0.0.1/ipn")] {
            try await store.insertCharge(charge(id, reference: "fair-\(id)", ipn: ipn))
            _ = try await store.updateCharge(id: id, reference: nil, now: 11) { $0.status = .pending }
        }
        let perOrigin = OutboxEntry.maximumInFlightPerOrigin
        let first = try await store.dueNotifications(now: 100, limit: 6, leaseUntil: 1_000)
        let others = Set(first.map(\.transactionID)).intersection(["99001", "99002"])
        try expect(others.count == 2, "another origin's IPN waited behind a hanging receiver's backlog: claimed \(first.map(\.transactionID))")
        try expect(first.count == 6 && first.count - others.count == perOrigin,
                   "the hanging origin got \(first.count - others.count) of \(first.count) claims, not \(perOrigin) (its paths and queries are one origin)")
        try expect(try await store.dueNotifications(now: 200, limit: 32, leaseUntil: 1_000).isEmpty,
                   "an origin got more than \(perOrigin) IPNs in flight")
        // One attempt recorded frees one slot: that origin gets exactly one more.
        try await store.recordAttempt(failed(first[0].id, 1, at: 300), state: .pending, nextAttemptAt: 5_000)
        let next = try await store.dueNotifications(now: 300, limit: 32, leaseUntil: 1_000)
        try expect(next.count == 1 && OutboxEntry.origin(of: next[0].url) == OutboxEntry.origin(of: first[0].url),
                   "a freed slot was not refilled by its own origin alone: \(next.map(\.url))")
        // Turns: with every slot free, each origin's first IPN comes before any origin's second.
        let turns = try await store.dueNotifications(now: 2_000, limit: 2, leaseUntil: 3_000)
        try expect(Set(turns.map { OutboxEntry.origin(of: $0.url) }).count == 2, "a claim of two did not take two origins' turns: \(turns.map(\.url))")
    }

    static func latestNotifications(_ store: any SandboxStore) async throws {
        let empty = try await store.latestNotifications(transactionID: nil, limit: 10)
        try expect(empty.notifications.isEmpty && empty.attempts.isEmpty, "a new store lists IPNs: \(empty)")
        for id in ["9101", "9102"] {
            try await store.insertCharge(charge(id, reference: "latest-\(id)", ipn: "http://127.0.0.1:9/ipn"))
            _ = try await store.updateCharge(id: id, reference: nil, now: 10) { $0.status = .pending }
            _ = try await store.updateCharge(id: id, reference: nil, now: 20) { $0.status = .succeeded }
        }
        let all = try await store.notifications(transactionID: nil)
        try await store.recordAttempt(failed(all[0].id, 1, at: 30), state: .pending, nextAttemptAt: 40)
        try await store.recordAttempt(failed(all[3].id, 1, at: 31), state: .pending, nextAttemptAt: 40)
        try await store.recordAttempt(IPNAttempt(notificationID: all[3].id, number: 2, time: 50, answer: "HTTP 200", delivered: true),
                                      state: .delivered, nextAttemptAt: 50)
        let latest = try await store.latestNotifications(transactionID: nil, limit: 3)
        try expect(latest.notifications.map(\.id) == all.suffix(3).map(\.id), "not the newest three, oldest first: \(latest.notifications.map(\.id))")
        try expect(latest.attempts.map(\.notificationID) == [all[3].id, all[3].id] && latest.attempts.map(\.number) == [1, 2],
                   "not the shown IPNs' attempts alone, in order: \(latest.attempts)")
        let one = try await store.latestNotifications(transactionID: "9101", limit: 10)
        try expect(one.notifications.map(\.transactionID) == ["9101", "9101"] && one.attempts.map(\.notificationID) == [all[0].id],
                   "one transaction's IPNs read as \(one.notifications.map(\.transactionID)), \(one.attempts)")
        try expect(try await store.latestNotifications(transactionID: "nothing", limit: 10).notifications.isEmpty, "an unknown transaction has IPNs")
    }

    static func authenticationFailures(_ store: any SandboxStore) async throws {
        let none = try await store.authenticationFailures(since: 0)
        try expect(none.count == 0 && none.oldest == nil, "a new store has failures: \(none)")
        for time in [100, 200, 300] as [Int64] { try await store.recordAuthenticationFailure(at: time, forgettingBefore: 0) }
        let all = try await store.authenticationFailures(since: 0)
        try expect(all.count == 3 && all.oldest == 100, "three failures read as \(all)")
        let recent = try await store.authenticationFailures(since: 200)
        try expect(recent.count == 2 && recent.oldest == 200, "the failures since 200 read as \(recent)")
        // Recording at 400 forgets those before 250, and only those.
        try await store.recordAuthenticationFailure(at: 400, forgettingBefore: 250)
        let kept = try await store.authenticationFailures(since: 0)
        try expect(kept.count == 2 && kept.oldest == 300, "forgetting before 250 left \(kept)")
    }

    static func leases(_ store: any SandboxStore) async throws {
        try await store.insertCharge(charge("8001", reference: "r-8", ipn: "http://127.0.0.1:9/ipn"))
        _ = try await store.updateCharge(id: "8001", reference: nil, now: 10) { $0.status = .pending }
        let claimed = try await store.dueNotifications(now: 100, limit: 10, leaseUntil: 200)
        try expect(claimed.count == 1, "the due IPN was not claimed")
        try expect(try await store.dueNotifications(now: 150, limit: 10, leaseUntil: 250).isEmpty,
                   "an IPN was claimed twice within its lease")
        let takenOver = try await store.dueNotifications(now: 201, limit: 10, leaseUntil: 300)
        try expect(takenOver.map(\.id) == claimed.map(\.id), "a lapsed lease was not taken over")
        try await store.recordAttempt(failed(claimed[0].id, 1, at: 201), state: .pending, nextAttemptAt: 210)
        try expect(try await store.dueNotifications(now: 220, limit: 10, leaseUntil: 320).count == 1,
                   "recording the attempt did not end the claim")
        // Racing claimers: each IPN goes to one of them.
        try await store.insertCharge(charge("8002", reference: "r-8b", ipn: "http://127.0.0.1:9/ipn"))
        _ = try await store.updateCharge(id: "8002", reference: nil, now: 10) { $0.status = .pending }
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 { group.addTask { try await store.dueNotifications(now: 400, limit: 10, leaseUntil: 900).count } }
            return try await group.reduce(0, +)
        }
        try expect(counts == 2, "racing claimers got \(counts) claims of 2 due IPNs")
    }

    static func overdue(_ store: any SandboxStore) async throws {
        try await store.insertCharge(charge("7001", reference: "r-7a", expiresAt: 100))
        try await store.insertCharge(charge("7002", reference: "r-7b", expiresAt: 1000))
        try await store.insertCharge(charge("7003", reference: "r-7c", expiresAt: 50))
        _ = try await store.updateCharge(id: "7003", reference: nil, now: 1) { $0.status = .succeeded }
        let ids = try await store.overdueCharges(now: 200, limit: 10)
        try expect(ids == ["7001"], "overdue at 200: \(ids), expected [7001]")
    }

    static func attemptLog(_ store: any SandboxStore) async throws {
        try await store.insertCharge(charge("9001", reference: "r-9", ipn: "http://127.0.0.1:9/ipn"))
        try await store.insertCharge(charge("9002", reference: "r-9b", ipn: "http://127.0.0.1:9/ipn"))
        _ = try await store.updateCharge(id: "9001", reference: nil, now: 10) { $0.status = .pending }
        _ = try await store.updateCharge(id: "9002", reference: nil, now: 10) { $0.status = .pending }
        let id = try await store.notifications(transactionID: "9001")[0].id
        try await store.recordAttempt(failed(id, 1, at: 100), state: .pending, nextAttemptAt: 200)
        try await store.recordAttempt(failed(id, 2, at: 200), state: .pending, nextAttemptAt: 400)
        try await store.recordAttempt(IPNAttempt(notificationID: id, number: 3, time: 400, answer: "HTTP 204", delivered: true),
                                      state: .delivered, nextAttemptAt: 400)
        let log = try await store.notificationLog(transactionIDs: ["9001"]).attempts
        try expect(log.map(\.number) == [1, 2, 3] && log.map(\.answer) == ["HTTP 500", "HTTP 500", "HTTP 204"]
                   && log.map(\.delivered) == [false, false, true] && log.map(\.time) == [100, 200, 400],
                   "the attempt log is not as recorded: \(log)")
        try expect(try await store.notificationLog(transactionIDs: ["9002"]).attempts.isEmpty, "another transaction's log holds attempts")
        // Several transactions in one read: each one's IPNs, oldest first, and every attempt once.
        let both = try await store.notificationLog(transactionIDs: ["9002", "9001", "9001", "none"])
        try expect(both.notifications.map(\.transactionID) == ["9001", "9002"] && both.attempts.map(\.number) == [1, 2, 3],
                   "the log of two transactions is not theirs: \(both)")
        let none = try await store.notificationLog(transactionIDs: [])
        try expect(none.notifications.isEmpty && none.attempts.isEmpty, "no transaction asked, yet IPNs came")
        var entry = try await store.notifications(transactionID: "9001")[0]
        try expect(entry.state == .delivered && entry.attempts == 3 && entry.lastError == nil, "the delivered IPN is \(entry)")
        try expect(try await store.dueNotifications(now: 1000, limit: 10, leaseUntil: 1100).map(\.transactionID) == ["9002"],
                   "a delivered IPN is still due")
        try expect(try await store.resendNotification(id: id, now: 2000), "an existing IPN could not be sent again")
        try expect(try await store.resendNotification(id: id + 1_000_000, now: 2000) == false, "an unknown IPN was 'sent again'")
        entry = try await store.notifications(transactionID: "9001")[0]
        try expect(entry.state == .pending && entry.nextAttemptAt == 2000 && entry.attempts == 3,
                   "the IPN sent again is \(entry), expected pending at 2000 with its 3 attempts")
        try expect(!(try await store.dueNotifications(now: 1999, limit: 10, leaseUntil: 2100).map(\.id).contains(id)),
                   "the IPN sent again was due early")
        try expect(try await store.dueNotifications(now: 2000, limit: 10, leaseUntil: 2100).map(\.id).contains(id),
                   "the IPN sent again is not due")
    }

    static func recentAndHistory(_ store: any SandboxStore) async throws {
        for index in 1...5 { try await store.insertCharge(charge("1000\(index)", reference: "r-10-\(index)")) }
        let recent = try await store.recentCharges(limit: 3)
        try expect(recent.map(\.id) == ["10005", "10004", "10003"], "recent charges: \(recent.map(\.id))")
        try expect(try await store.recentCharges(limit: 0).isEmpty, "a limit of 0 returned charges")
        _ = try await store.updateCharge(id: "10002", reference: nil, now: 2000) { $0.status = .pending }
        _ = try await store.updateCharge(id: "10002", reference: nil, now: 2500) { $0.note = "no status change" }
        _ = try await store.updateCharge(id: "10002", reference: nil, now: 3000) { $0.status = .succeeded }
        let history = try await store.charge(id: "10002")?.statusHistory ?? []
        try expect(history == [.init(status: .initiated, time: 1000), .init(status: .pending, time: 2000),
                               .init(status: .succeeded, time: 3000)], "the status history is \(history)")
    }
}

/// What a ``SandboxStoreConformance`` check found wrong.
public typealias SandboxStoreConformanceFailure = ConformanceFailure
