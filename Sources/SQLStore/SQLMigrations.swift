import Foundation

/// Brings a database's tables up to date: each migration, named once and never edited, runs in
/// the same transaction that records it in `reel_migrations`. On PostgreSQL an advisory lock
/// makes processes starting together take turns.
public struct SQLMigration: Sendable {
    public let name: String
    public let statements: [String]

    public init(_ name: String, _ statements: [String]) {
        self.name = name
        self.statements = statements
    }
}

extension SQLDatabase {
    public func migrate(_ migrations: [SQLMigration]) async throws {
        try await write { connection in
            if dialect == .postgres { try connection.execute("SELECT pg_advisory_xact_lock(8650)") }
            try connection.execute("CREATE TABLE IF NOT EXISTS reel_migrations (name TEXT PRIMARY KEY, appliedAt DOUBLE PRECISION NOT NULL)")
            let applied = Set(try connection.rows("SELECT name FROM reel_migrations", []).map { row throws(SQLError) in try row["name"] as String })
            for migration in migrations where !applied.contains(migration.name) {
                for statement in migration.statements { try connection.execute(statement) }
                try connection.execute("INSERT INTO reel_migrations (name, appliedAt) VALUES (?, ?)",
                                       [.text(migration.name), .real(Date().timeIntervalSince1970)])
            }
        }
    }
}
