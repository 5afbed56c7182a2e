/// One connection's SQL. The text is the same for both databases: `?` placeholders, portable
/// types (TEXT, BIGINT, DOUBLE PRECISION, BOOLEAN), and `SQLDialect` for the few words that differ.
public protocol SQLConnection {
    /// Runs a statement; returns how many rows it changed.
    @discardableResult
    func execute(_ sql: String, _ arguments: [SQLValue]) throws(SQLError) -> Int
    func rows(_ sql: String, _ arguments: [SQLValue]) throws(SQLError) -> [SQLRow]
}

extension SQLConnection {
    @discardableResult
    public func execute(_ sql: String) throws(SQLError) -> Int { try execute(sql, []) }
}

/// A database the service keeps its state in: an embedded SQLite file, or a PostgreSQL server
/// several processes share. Its work runs on the database's own threads, never on the caller's:
/// a server's request threads only wait for it (the statements themselves block).
public protocol SQLDatabase: Sendable {
    var dialect: SQLDialect { get }
    /// Reads, without a transaction of its own.
    func read<T: Sendable>(_ work: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T
    /// Runs `work` in one transaction: all of it is kept, or, when it throws, none.
    func write<T: Sendable>(_ work: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T
}

/// The words SQLite and PostgreSQL spell differently.
public enum SQLDialect: Sendable {
    case sqlite, postgres

    /// Ends a `SELECT` of rows the transaction will update: locks them, waiting for another
    /// transaction that holds one, and reads them as it left them.
    public var locking: String {
        switch self {
        case .sqlite: ""
        case .postgres: " FOR UPDATE"
        }
    }

    /// Ends a `SELECT` of rows the transaction will update: locks them and passes over rows
    /// another transaction holds, so two processes never take the same row. SQLite needs nothing:
    /// it has one writer at a time. `table`: the table whose rows are taken, when the `SELECT`
    /// joins others.
    public func lockingSkipLocked(of table: String? = nil) -> String {
        switch self {
        case .sqlite: ""
        case .postgres: " FOR UPDATE\(table.map { " OF \($0)" } ?? "") SKIP LOCKED"
        }
    }
}
