import Digest
import Foundation
import SQLStore

/// The service's durable state: API tokens (only their SHA-256 is kept), renders, each with its
/// request as posted, so a render accepted before a crash is rendered after the restart, webhook
/// deliveries, templates and batches. In an embedded SQLite file (`DIR/reel.sqlite`) for one
/// process, or in PostgreSQL for several nodes on one queue: the same SQL for both.
///
/// A render is queued, then leased by a node's worker (`claimNext`), which renews the lease while
/// it renders (`heartbeat`). A lease that runs out (its node died or lost the database) puts the
/// render back in the queue for any node, and its rendered segments are reused from the segment
/// cache; the old holder's heartbeat then fails and it stops, and its result is not recorded.
final class RenderStore: Sendable {
    private let database: any SQLDatabase

    init(_ database: any SQLDatabase) async throws {
        self.database = database
        try await database.migrate(Self.migrations)
    }

    /// The job store: in the PostgreSQL database `url` names, else in SQLite in the data folder.
    static func open(_ url: String?, folders: ServiceFolders) async throws -> RenderStore {
        guard let url else { return try await RenderStore(SQLiteDatabase(path: folders.database)) }
        guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") else {
            throw RenderService.StartFailure.database("the database URL is not a PostgreSQL URL (postgres://USER@HOST:PORT/DATABASE)")
        }
        do {
            return try await RenderStore(PostgresDatabase(url: url))
        } catch let error as SQLError where error.kind == .connection {
            throw RenderService.StartFailure.database(error.message)
        }
    }

    /// The tables, in SQL both databases read (their names fold to lower case in PostgreSQL).
    static let migrations = [
        SQLMigration("v1: tokens, renders, deliveries, templates, batches", [
            """
            CREATE TABLE tokens (name TEXT PRIMARY KEY, digest TEXT NOT NULL UNIQUE, createdAt DOUBLE PRECISION NOT NULL,
                                 revokedAt DOUBLE PRECISION)
            """,
            """
            CREATE TABLE renders (
                id TEXT PRIMARY KEY, token TEXT NOT NULL, status TEXT NOT NULL, progress DOUBLE PRECISION NOT NULL,
                segmentsTotal BIGINT NOT NULL, segmentsRendered BIGINT NOT NULL, segmentsReused BIGINT NOT NULL,
                createdAt DOUBLE PRECISION NOT NULL, startedAt DOUBLE PRECISION, finishedAt DOUBLE PRECISION, error TEXT,
                request TEXT NOT NULL, requestDigest TEXT NOT NULL, idempotencyKey TEXT,
                outputPath TEXT, outputBytes BIGINT, outputSHA256 TEXT, contentType TEXT,
                leaseUntil DOUBLE PRECISION, leaseOwner TEXT, cancelRequested BOOLEAN NOT NULL, interruptions BIGINT NOT NULL,
                UNIQUE (token, idempotencyKey))
            """,
            "CREATE INDEX renders_by_status ON renders (status, createdAt)",
            "CREATE INDEX renders_by_token ON renders (token, createdAt, id)",
            """
            CREATE TABLE deliveries (id TEXT PRIMARY KEY, renderId TEXT NOT NULL, url TEXT NOT NULL, secret TEXT NOT NULL, body TEXT NOT NULL,
                                     attempts BIGINT NOT NULL, nextAt DOUBLE PRECISION, status TEXT NOT NULL, lastResult TEXT)
            """,
            "CREATE INDEX deliveries_due ON deliveries (status, nextAt)",
            """
            CREATE TABLE templates (token TEXT NOT NULL, name TEXT NOT NULL, body TEXT NOT NULL, createdAt DOUBLE PRECISION NOT NULL,
                                    updatedAt DOUBLE PRECISION NOT NULL, PRIMARY KEY (token, name))
            """,
            "CREATE TABLE batches (id TEXT PRIMARY KEY, token TEXT NOT NULL, template TEXT NOT NULL, createdAt DOUBLE PRECISION NOT NULL, rows TEXT NOT NULL)",
        ]),
        // A revoked token's name can be used again: tokens are keyed by their digest, and a
        // name is unique among live tokens only (a partial index, in both databases).
        SQLMigration("v2: tokens keyed by digest, one live token per name", [
            """
            CREATE TABLE tokens_v2 (digest TEXT PRIMARY KEY, name TEXT NOT NULL, createdAt DOUBLE PRECISION NOT NULL,
                                    revokedAt DOUBLE PRECISION)
            """,
            "INSERT INTO tokens_v2 (digest, name, createdAt, revokedAt) SELECT digest, name, createdAt, revokedAt FROM tokens",
            "DROP TABLE tokens",
            "ALTER TABLE tokens_v2 RENAME TO tokens",
            "CREATE UNIQUE INDEX tokens_live_name ON tokens (name) WHERE revokedAt IS NULL",
        ]),
        SQLMigration("v3: a template's render keeps the template it renders", [
            "ALTER TABLE renders ADD COLUMN templateName TEXT",
            "ALTER TABLE renders ADD COLUMN templateBody TEXT",
        ]),
    ]

    // MARK: Tokens

    /// A new token for `name`, returned once; the store keeps its SHA-256 only. Throws
    /// `TokenRefusal` for a name that is not one (`TokenName`) or is a live token's.
    func createToken(name: String, now: Date = Date()) async throws -> String {
        try TokenName.check(name)
        let secret = "reel_" + randomHex(bytes: 32)
        do {
            _ = try await database.write { db in
                try db.execute("INSERT INTO tokens (digest, name, createdAt) VALUES (?, ?, ?)",
                               [.text(Self.digest(secret)), .text(name), .real(now.timeIntervalSince1970)])
            }
        } catch let error as SQLError where error.kind == .uniqueViolation {
            throw TokenRefusal.inUse(name)
        }
        return secret
    }

    struct TokenInfo: Equatable {
        var name: String
        /// The first 12 hex digits of the token's SHA-256: tells two tokens of one name apart,
        /// and a holder can compute it from the secret.
        var fingerprint: String
        var createdAt: Date
        var revokedAt: Date?
    }

    /// Every token, live and revoked, by name, then oldest first.
    func tokens() async throws -> [TokenInfo] {
        try await database.read { db in
            try db.rows("SELECT name, digest, createdAt, revokedAt FROM tokens ORDER BY name, createdAt", []).map { row throws(SQLError) in
                TokenInfo(name: try row["name"], fingerprint: String((try row["digest"] as String).prefix(12)),
                          createdAt: Date(timeIntervalSince1970: try row["createdAt"]),
                          revokedAt: (try row["revokedAt"] as Double?).map(Date.init(timeIntervalSince1970:)))
            }
        }
    }

    /// Whether a live token of that name was revoked now.
    func revokeToken(name: String, now: Date = Date()) async throws -> Bool {
        try await database.write { db in
            try db.execute("UPDATE tokens SET revokedAt = ? WHERE name = ? AND revokedAt IS NULL", [.real(now.timeIntervalSince1970), .text(name)]) > 0
        }
    }

    /// The name of the live token whose secret this is.
    func tokenName(secret: String) async throws -> String? {
        try await database.read { db in
            try db.rows("SELECT name FROM tokens WHERE digest = ? AND revokedAt IS NULL", [.text(Self.digest(secret))]).first?["name"]
        }
    }

    static func digest(_ text: String) -> String {
        var hash = SHA256()
        hash.update(text)
        return hash.hexDigest()
    }

    // MARK: Renders

    /// Adds a queued render, or, when `render` has an idempotency key its token used before,
    /// returns the render made then (`isNew` false); a key used with another body is a conflict.
    func add(_ render: RenderRecord) async throws -> (render: RenderRecord, isNew: Bool) {
        try await database.write { db in
            if let key = render.idempotencyKey,
               let earlier = try db.fetch(RenderRecord.self, "WHERE token = ? AND idempotencyKey = ?", [.text(render.token), .text(key)]).first {
                guard earlier.requestDigest == render.requestDigest else {
                    throw ServiceError.conflict("the Idempotency-Key \(key) was used with another request body; use a new key for a new render")
                }
                return (earlier, false)
            }
            try db.insert(render)
            return (render, true)
        }
    }

    /// The render `id`, when it belongs to `token` (nil: any token's).
    func render(_ id: String, token: String?) async throws -> RenderRecord? {
        try await database.read { db in
            let found = try db.fetch(RenderRecord.self, "WHERE id = ?", [.text(id)]).first
            return token == nil || found?.token == token ? found : nil
        }
    }

    /// A page of `token`'s renders, newest first, after `cursor` (the last id of the page before).
    func renders(token: String, status: RenderStatus?, limit: Int, after cursor: String?) async throws -> [RenderRecord] {
        try await database.read { db in
            var conditions = ["token = ?"], arguments: [SQLValue] = [.text(token)]
            if let status {
                conditions.append("status = ?")
                arguments.append(status.sqlValue)
            }
            if let cursor, let last = try db.fetch(RenderRecord.self, "WHERE id = ? AND token = ?", [.text(cursor), .text(token)]).first {
                conditions.append("(createdAt < ? OR (createdAt = ? AND id < ?))")
                arguments += [.real(last.createdAt), .real(last.createdAt), .text(last.id)]
            }
            return try db.fetch(RenderRecord.self, "WHERE \(conditions.joined(separator: " AND ")) ORDER BY createdAt DESC, id DESC LIMIT ?",
                                arguments + [.integer(Int64(limit))])
        }
    }

    /// How many renders wait or run for `token`.
    func pendingCount(token: String) async throws -> Int {
        try await database.read { db in
            try db.rows("SELECT COUNT(*) AS n FROM renders WHERE token = ? AND status IN ('queued', 'rendering')", [.text(token)]).first?["n"] ?? 0
        }
    }

    /// A render whose node died while rendering it this many times is failed, not tried again.
    static let interruptionLimit = 3

    /// The SQL that puts renders cut off by their node's death back in the queue.
    private static let requeueCutOff = "UPDATE renders SET status = 'queued', leaseUntil = NULL, leaseOwner = NULL, interruptions = interruptions + 1 WHERE status = 'rendering'"

    /// The render to take next: the oldest of the token with the fewest renders rendering, so one
    /// token's hundred queued renders do not keep another token's one waiting behind them all.
    private static let nextInLine = """
        SELECT renders.* FROM renders
        LEFT JOIN (SELECT token, COUNT(*) AS running FROM renders WHERE status = 'rendering' GROUP BY token) busy ON busy.token = renders.token
        WHERE renders.status = 'queued' ORDER BY COALESCE(busy.running, 0), renders.createdAt, renders.id LIMIT 1
        """

    /// The next render in line (`nextInLine`), now leased to `owner` until `lease` from now; renders whose
    /// lease ran out go back to the queue first. Two nodes never take the same render: the row is
    /// locked as it is read, and a row another node holds is passed over. A render cut off
    /// `interruptionLimit` times is failed on the way, with its webhook delivery.
    func claimNext(owner: String, lease: TimeInterval, now: Date = Date()) async throws -> RenderRecord? {
        try await database.write { db in
            let t = now.timeIntervalSince1970
            try db.execute(Self.requeueCutOff + " AND leaseUntil < ?", [.real(t)])
            var next: RenderRecord
            repeat {
                guard let row = try db.rows(Self.nextInLine + self.database.dialect.lockingSkipLocked(of: "renders"), []).first else { return nil }
                next = try RenderRecord(row)
                guard next.interruptions >= Self.interruptionLimit else { break }
                (next.status, next.finishedAt) = (.failed, t)
                next.error = "its node died while rendering it \(next.interruptions) times (a crash or the machine's memory running out?); "
                    + "it is not tried again: look at the nodes' logs, then post it anew"
                try db.update(next)
                if let delivery = Delivery(telling: next, now: now) { try db.insert(delivery) }
            } while true
            next.status = .rendering
            next.startedAt = next.startedAt ?? t
            next.leaseUntil = t + lease
            next.leaseOwner = owner
            try db.update(next)
            return next
        }
    }

    /// Puts the renders `owner` was rendering back in the queue: at the start of a node of that
    /// name, a render it still holds was cut off by its last stop.
    func requeueInterrupted(owner: String) async throws -> Int {
        try await database.write { db in
            try db.execute(Self.requeueCutOff + " AND leaseOwner = ?", [.text(owner)])
        }
    }

    /// What a heartbeat learns: whether the render is still the caller's, and whether a cancel
    /// was asked for.
    struct Lease: Equatable {
        var held: Bool
        var cancelRequested: Bool
    }

    /// Renews `owner`'s lease of a render being rendered and records its progress.
    func heartbeat(_ id: String, owner: String, progress: Double, segmentsTotal: Int, lease: TimeInterval, now: Date = Date()) async throws -> Lease {
        try await database.write { db in
            let held = try db.execute("UPDATE renders SET progress = ?, segmentsTotal = ?, leaseUntil = ? WHERE id = ? AND status = 'rendering' AND leaseOwner = ?",
                                      [.real(progress), .integer(Int64(segmentsTotal)), .real(now.timeIntervalSince1970 + lease), .text(id), .text(owner)]) > 0
            let cancel: Bool = try db.rows("SELECT cancelRequested FROM renders WHERE id = ?", [.text(id)]).first?["cancelRequested"] ?? false
            return Lease(held: held, cancelRequested: cancel)
        }
    }

    /// Records how a render `owner` held ended, with the webhook delivery that tells of it, in one
    /// transaction: a render never ends without its delivery. False (nothing recorded) when the
    /// lease was lost meanwhile: another node has the render now.
    func finish(_ render: RenderRecord, owner: String, delivery: Delivery?) async throws -> Bool {
        try await database.write { db in
            guard try db.update(render, where: "leaseOwner = ? AND status = 'rendering'", [.text(owner)]) else { return false }
            if let delivery { try db.insert(delivery) }
            return true
        }
    }

    // MARK: Templates and batches

    /// Stores `template` under its name, replacing one of the same name (whose creation time it keeps).
    func put(_ template: TemplateRecord) async throws -> TemplateRecord {
        try await database.write { db in
            var stored = template
            if let earlier = try db.fetch(TemplateRecord.self, "WHERE token = ? AND name = ?", [.text(template.token), .text(template.name)]).first {
                stored.createdAt = earlier.createdAt
                try db.update(stored)
            } else {
                try db.insert(stored)
            }
            return stored
        }
    }

    func template(_ name: String, token: String) async throws -> TemplateRecord? {
        try await database.read { db in try db.fetch(TemplateRecord.self, "WHERE token = ? AND name = ?", [.text(token), .text(name)]).first }
    }

    /// A batch and its renders, in one transaction.
    func add(_ batch: BatchRecord, renders: [RenderRecord]) async throws {
        try await database.write { db in
            try db.insert(batch)
            for render in renders { try db.insert(render) }
        }
    }

    func batch(_ id: String, token: String) async throws -> BatchRecord? {
        try await database.read { db in try db.fetch(BatchRecord.self, "WHERE id = ? AND token = ?", [.text(id), .text(token)]).first }
    }

    /// The renders `ids` names, by id.
    func renders(_ ids: [String]) async throws -> [String: RenderRecord] {
        guard !ids.isEmpty else { return [:] }
        return try await database.read { db in
            let found = try db.fetch(RenderRecord.self, "WHERE id IN (\(Array(repeating: "?", count: ids.count).joined(separator: ", ")))", ids.map(\.sqlValue))
            return Dictionary(uniqueKeysWithValues: found.map { ($0.id, $0) })
        }
    }

    // MARK: Webhook deliveries

    /// The deliveries due by `now`, oldest first, held for the caller for `hold` seconds: no
    /// other node attempts them meanwhile, and if the caller dies they fall due again.
    func claimDueDeliveries(now: Date = Date(), hold: TimeInterval, limit: Int = 20) async throws -> [Delivery] {
        try await database.write { db in
            let t = now.timeIntervalSince1970
            let due = try db.fetch(Delivery.self, "WHERE status = 'pending' AND nextAt <= ? ORDER BY nextAt LIMIT ?" + self.database.dialect.lockingSkipLocked(),
                                   [.real(t), .integer(Int64(limit))])
            for delivery in due { try db.execute("UPDATE deliveries SET nextAt = ? WHERE id = ?", [.real(t + hold), .text(delivery.id)]) }
            return due
        }
    }

    func update(_ delivery: Delivery) async throws {
        try await database.write { db in try db.update(delivery) }
    }

    /// Webhook attempts made, by how the delivery stands (`pending`, `delivered`, `failed`).
    func deliveryAttempts() async throws -> [String: Int] {
        try await database.read { db in
            var attempts = ["pending": 0, "delivered": 0, "failed": 0]
            for row in try db.rows("SELECT status, SUM(attempts) AS n FROM deliveries GROUP BY status", []) {
                attempts[try row["status"]] = try row["n"] as Int
            }
            return attempts
        }
    }

    func deliveries(of renderID: String) async throws -> [Delivery] {
        try await database.read { db in try db.fetch(Delivery.self, "WHERE renderId = ?", [.text(renderID)]) }
    }

    /// How many renders are in each status (every status listed).
    func statusCounts() async throws -> [RenderStatus: Int] {
        try await database.read { db in
            var counts = Dictionary(uniqueKeysWithValues: RenderStatus.allCases.map { ($0, 0) })
            for row in try db.rows("SELECT status, COUNT(*) AS n FROM renders GROUP BY status", []) {
                if let status = try row["status"] as RenderStatus? { counts[status] = try row["n"] }
            }
            return counts
        }
    }

    /// Seconds from start to finish of every finished render, summed.
    func renderSeconds() async throws -> Double {
        try await database.read { db in
            try db.rows("SELECT COALESCE(SUM(finishedAt - startedAt), 0) AS s FROM renders WHERE finishedAt IS NOT NULL AND startedAt IS NOT NULL", []).first?["s"] ?? 0
        }
    }

    /// Outputs of renders that finished before `time` (Unix seconds) and are still on disk.
    func outputs(finishedBefore time: Double) async throws -> [String] {
        try await database.read { db in
            try db.rows("SELECT outputPath FROM renders WHERE status = 'done' AND finishedAt < ? AND outputPath IS NOT NULL", [.real(time)])
                .map { row throws(SQLError) in try row["outputPath"] }
        }
    }

    /// Cancels a queued render at once, asks a running one to stop; a finished one stays as it is.
    func cancel(_ id: String, token: String, now: Date = Date()) async throws -> RenderRecord? {
        try await database.write { db in
            guard var render = try db.fetch(RenderRecord.self, "WHERE id = ? AND token = ?" + self.database.dialect.locking, [.text(id), .text(token)]).first else {
                return nil
            }
            switch render.status {
            case .queued:
                render.status = .cancelled
                render.finishedAt = now.timeIntervalSince1970
                if let delivery = Delivery(telling: render, now: now) { try db.insert(delivery) }
            case .rendering:
                render.cancelRequested = true
            case .done, .failed, .cancelled:
                return render
            }
            try db.update(render)
            return render
        }
    }
}
