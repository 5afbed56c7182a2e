import Digest
import Foundation
import GRDB

/// The service's durable state in one SQLite file (`DIR/reel.sqlite`, write-ahead log): API
/// tokens (only their SHA-256 is kept) and renders, each with its request as posted, so a
/// render accepted before a crash is rendered after the restart.
///
/// A render is queued, then leased by a worker (`claimNext`), which renews the lease while it
/// renders (`heartbeat`); a lease that runs out (its process died) puts the render back in the
/// queue, and its rendered segments are reused from the segment cache.
final class RenderStore: Sendable {
    private let database: DatabasePool

    init(path: String) throws {
        var configuration = Configuration()
        // Another connection's write (a request while a worker records progress) is waited for.
        configuration.busyMode = .timeout(10)
        database = try DatabasePool(path: path, configuration: configuration)
        try Self.migrator.migrate(database)
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "tokens") { t in
                t.primaryKey("name", .text)
                t.column("digest", .text).notNull().unique()
                t.column("createdAt", .double).notNull()
                t.column("revokedAt", .double)
            }
            try db.create(table: "renders") { t in
                t.primaryKey("id", .text)
                t.column("token", .text).notNull()
                t.column("status", .text).notNull()
                t.column("progress", .double).notNull()
                t.column("segmentsTotal", .integer).notNull()
                t.column("segmentsRendered", .integer).notNull()
                t.column("segmentsReused", .integer).notNull()
                t.column("createdAt", .double).notNull()
                t.column("startedAt", .double)
                t.column("finishedAt", .double)
                t.column("error", .text)
                t.column("request", .text).notNull()
                t.column("requestDigest", .text).notNull()
                t.column("idempotencyKey", .text)
                t.column("outputPath", .text)
                t.column("outputBytes", .integer)
                t.column("outputSHA256", .text)
                t.column("contentType", .text)
                t.column("leaseUntil", .double)
                t.column("cancelRequested", .boolean).notNull()
                t.uniqueKey(["token", "idempotencyKey"])
            }
            try db.create(index: "renders_by_status", on: "renders", columns: ["status", "createdAt"])
            try db.create(index: "renders_by_token", on: "renders", columns: ["token", "createdAt", "id"])
        }
        migrator.registerMigration("v2: webhook deliveries") { db in
            try db.create(table: "deliveries") { t in
                t.primaryKey("id", .text)
                t.column("renderId", .text).notNull()
                t.column("url", .text).notNull()
                t.column("secret", .text).notNull()
                t.column("body", .text).notNull()
                t.column("attempts", .integer).notNull()
                t.column("nextAt", .double)
                t.column("status", .text).notNull()
                t.column("lastResult", .text)
            }
            try db.create(index: "deliveries_due", on: "deliveries", columns: ["status", "nextAt"])
        }
        migrator.registerMigration("v3: templates and batches") { db in
            try db.create(table: "templates") { t in
                t.column("token", .text).notNull()
                t.column("name", .text).notNull()
                t.column("project", .text).notNull()
                t.column("createdAt", .double).notNull()
                t.column("updatedAt", .double).notNull()
                t.primaryKey(["token", "name"])
            }
            try db.create(table: "batches") { t in
                t.primaryKey("id", .text)
                t.column("token", .text).notNull()
                t.column("template", .text).notNull()
                t.column("createdAt", .double).notNull()
                t.column("rows", .text).notNull()
            }
        }
        return migrator
    }

    // MARK: Tokens

    /// A new token for `name`, returned once; the store keeps its SHA-256 only.
    func createToken(name: String, now: Date = Date()) throws -> String {
        let secret = "reel_" + randomHex(bytes: 32)
        try database.write { db in
            guard try Row.fetchOne(db, sql: "SELECT 1 FROM tokens WHERE name = ?", arguments: [name]) == nil else {
                throw ServiceError.conflict("a token named \(name) exists; revoke it first or choose another name")
            }
            try db.execute(sql: "INSERT INTO tokens (name, digest, createdAt) VALUES (?, ?, ?)",
                           arguments: [name, Self.digest(secret), now.timeIntervalSince1970])
        }
        return secret
    }

    struct TokenInfo: Equatable {
        var name: String
        var createdAt: Date
        var revoked: Bool
    }

    func tokens() throws -> [TokenInfo] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT name, createdAt, revokedAt FROM tokens ORDER BY name").map {
                TokenInfo(name: $0["name"], createdAt: Date(timeIntervalSince1970: $0["createdAt"]), revoked: $0["revokedAt"] as Double? != nil)
            }
        }
    }

    /// Whether a live token of that name was revoked now.
    func revokeToken(name: String, now: Date = Date()) throws -> Bool {
        try database.write { db in
            try db.execute(sql: "UPDATE tokens SET revokedAt = ? WHERE name = ? AND revokedAt IS NULL", arguments: [now.timeIntervalSince1970, name])
            return db.changesCount > 0
        }
    }

    /// The name of the live token whose secret this is.
    func tokenName(secret: String) throws -> String? {
        try database.read { db in
            try String.fetchOne(db, sql: "SELECT name FROM tokens WHERE digest = ? AND revokedAt IS NULL", arguments: [Self.digest(secret)])
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
    func add(_ render: RenderRecord) throws -> (render: RenderRecord, isNew: Bool) {
        try database.write { db in
            if let key = render.idempotencyKey,
               let earlier = try RenderRecord.filter(Column("token") == render.token && Column("idempotencyKey") == key).fetchOne(db) {
                guard earlier.requestDigest == render.requestDigest else {
                    throw ServiceError.conflict("the Idempotency-Key \(key) was used with another request body; use a new key for a new render")
                }
                return (earlier, false)
            }
            try render.insert(db)
            return (render, true)
        }
    }

    /// The render `id`, when it belongs to `token` (nil: any token's).
    func render(_ id: String, token: String?) throws -> RenderRecord? {
        try database.read { db in
            let found = try RenderRecord.fetchOne(db, key: id)
            return token == nil || found?.token == token ? found : nil
        }
    }

    /// A page of `token`'s renders, newest first, after `cursor` (the last id of the page before).
    func renders(token: String, status: RenderStatus?, limit: Int, after cursor: String?) throws -> [RenderRecord] {
        try database.read { db in
            var request = RenderRecord.filter(Column("token") == token)
            if let status { request = request.filter(Column("status") == status.rawValue) }
            if let cursor, let last = try RenderRecord.fetchOne(db, key: cursor), last.token == token {
                request = request.filter(Column("createdAt") < last.createdAt || (Column("createdAt") == last.createdAt && Column("id") < last.id))
            }
            return try request.order(Column("createdAt").desc, Column("id").desc).limit(limit).fetchAll(db)
        }
    }

    /// How many renders wait or run for `token`.
    func pendingCount(token: String) throws -> Int {
        try database.read { db in
            try RenderRecord.filter(Column("token") == token && [RenderStatus.queued.rawValue, RenderStatus.rendering.rawValue].contains(Column("status")))
                .fetchCount(db)
        }
    }

    /// The oldest queued render, now leased to the caller until `lease` from now; renders whose
    /// lease ran out go back to the queue first.
    func claimNext(lease: TimeInterval, now: Date = Date()) throws -> RenderRecord? {
        try database.write { db in
            let t = now.timeIntervalSince1970
            try db.execute(sql: "UPDATE renders SET status = 'queued', leaseUntil = NULL WHERE status = 'rendering' AND leaseUntil < ?", arguments: [t])
            guard var next = try RenderRecord.filter(Column("status") == RenderStatus.queued.rawValue).order(Column("createdAt"), Column("id")).fetchOne(db) else {
                return nil
            }
            next.status = .rendering
            next.startedAt = next.startedAt ?? t
            next.leaseUntil = t + lease
            try next.update(db)
            return next
        }
    }

    /// Puts every render left `rendering` back in the queue: at the start of the only process that
    /// uses this database (the service holds `DIR`'s lock), a render still rendering was cut off.
    func requeueInterrupted() throws -> Int {
        try database.write { db in
            try db.execute(sql: "UPDATE renders SET status = 'queued', leaseUntil = NULL WHERE status = 'rendering'")
            return db.changesCount
        }
    }

    /// Renews the lease of a render being rendered and records its progress; returns whether a
    /// cancel was asked for.
    func heartbeat(_ id: String, progress: Double, segmentsTotal: Int, lease: TimeInterval, now: Date = Date()) throws -> Bool {
        try database.write { db in
            try db.execute(sql: "UPDATE renders SET progress = ?, segmentsTotal = ?, leaseUntil = ? WHERE id = ? AND status = 'rendering'",
                           arguments: [progress, segmentsTotal, now.timeIntervalSince1970 + lease, id])
            return try Bool.fetchOne(db, sql: "SELECT cancelRequested FROM renders WHERE id = ?", arguments: [id]) ?? false
        }
    }

    /// Records how a render ended, with the webhook delivery that tells of it, in one
    /// transaction: a render never ends without its delivery.
    func finish(_ render: RenderRecord, delivery: Delivery?) throws {
        try database.write { db in
            try render.update(db)
            try delivery?.insert(db)
        }
    }

    // MARK: Templates and batches

    /// Stores `template` under its name, replacing one of the same name; whether it is new.
    func put(_ template: TemplateRecord) throws -> TemplateRecord {
        try database.write { db in
            var stored = template
            if let earlier = try TemplateRecord.fetchOne(db, key: ["token": template.token, "name": template.name]) {
                stored.createdAt = earlier.createdAt
            }
            try stored.save(db)
            return stored
        }
    }

    func template(_ name: String, token: String) throws -> TemplateRecord? {
        try database.read { db in try TemplateRecord.fetchOne(db, key: ["token": token, "name": name]) }
    }

    /// A batch and its renders, in one transaction.
    func add(_ batch: BatchRecord, renders: [RenderRecord]) throws {
        try database.write { db in
            try batch.insert(db)
            for render in renders { try render.insert(db) }
        }
    }

    func batch(_ id: String, token: String) throws -> BatchRecord? {
        try database.read { db in
            let found = try BatchRecord.fetchOne(db, key: id)
            return found?.token == token ? found : nil
        }
    }

    /// The renders `ids` names, by id.
    func renders(_ ids: [String]) throws -> [String: RenderRecord] {
        try database.read { db in
            Dictionary(uniqueKeysWithValues: try RenderRecord.filter(ids.contains(Column("id"))).fetchAll(db).map { ($0.id, $0) })
        }
    }

    // MARK: Webhook deliveries

    /// The deliveries due by `now`, oldest first.
    func dueDeliveries(now: Date = Date(), limit: Int = 20) throws -> [Delivery] {
        try database.read { db in
            try Delivery.filter(Column("status") == "pending" && Column("nextAt") <= now.timeIntervalSince1970)
                .order(Column("nextAt")).limit(limit).fetchAll(db)
        }
    }

    func update(_ delivery: Delivery) throws {
        try database.write { db in try delivery.update(db) }
    }

    /// Webhook attempts made, by how the delivery stands (`pending`, `delivered`, `failed`).
    func deliveryAttempts() throws -> [String: Int] {
        try database.read { db in
            var attempts = ["pending": 0, "delivered": 0, "failed": 0]
            for row in try Row.fetchAll(db, sql: "SELECT status, TOTAL(attempts) AS n FROM deliveries GROUP BY status") {
                attempts[row["status"]] = Int(row["n"] as Double)
            }
            return attempts
        }
    }

    func deliveries(of renderID: String) throws -> [Delivery] {
        try database.read { db in try Delivery.filter(Column("renderId") == renderID).fetchAll(db) }
    }

    /// How many renders are in each status (every status listed).
    func statusCounts() throws -> [RenderStatus: Int] {
        try database.read { db in
            var counts = Dictionary(uniqueKeysWithValues: RenderStatus.allCases.map { ($0, 0) })
            for row in try Row.fetchAll(db, sql: "SELECT status, COUNT(*) AS n FROM renders GROUP BY status") {
                if let status = RenderStatus(rawValue: row["status"]) { counts[status] = row["n"] }
            }
            return counts
        }
    }

    /// Seconds from start to finish of every finished render, summed.
    func renderSeconds() throws -> Double {
        try database.read { db in
            try Double.fetchOne(db, sql: "SELECT TOTAL(finishedAt - startedAt) FROM renders WHERE finishedAt IS NOT NULL AND startedAt IS NOT NULL") ?? 0
        }
    }

    /// Outputs of renders that finished before `time` (Unix seconds) and are still on disk.
    func outputs(finishedBefore time: Double) throws -> [String] {
        try database.read { db in
            try String.fetchAll(db, sql: "SELECT outputPath FROM renders WHERE status = 'done' AND finishedAt < ? AND outputPath IS NOT NULL", arguments: [time])
        }
    }

    /// Cancels a queued render at once, asks a running one to stop; a finished one stays as it is.
    func cancel(_ id: String, token: String, now: Date = Date()) throws -> RenderRecord? {
        try database.write { db in
            guard var render = try RenderRecord.fetchOne(db, key: id), render.token == token else { return nil }
            switch render.status {
            case .queued:
                render.status = .cancelled
                render.finishedAt = now.timeIntervalSince1970
                try Delivery(telling: render, now: now)?.insert(db)
            case .rendering:
                render.cancelRequested = true
            case .done, .failed, .cancelled:
                return render
            }
            try render.update(db)
            return render
        }
    }
}
