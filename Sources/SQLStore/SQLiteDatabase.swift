import CSQLite
import NIOPosix
import Synchronization

/// An embedded SQLite file for one process, through SQLite's C API, in write-ahead-log mode:
/// one writer connection, whose transactions take turns, and reader connections beside it (a
/// read sees the last committed state and never waits for a write). Statements run on the
/// database's own threads, never on the caller's; another process's write is waited for up to
/// 10 s.
public final class SQLiteDatabase: SQLDatabase {
    public let dialect = SQLDialect.sqlite
    private let path: String
    private let writer: Mutex<SQLiteConnection>
    private let idleReaders = Mutex<[SQLiteConnection]>([])
    /// SQLite's calls block: they run here.
    private let threads: NIOThreadPool

    public init(path: String) throws(SQLError) {
        self.path = path
        let writer = try SQLiteConnection(path: path)
        try writer.execute("PRAGMA journal_mode = WAL", [])
        self.writer = Mutex(writer)
        threads = NIOThreadPool(numberOfThreads: 4)
        threads.start()
    }

    deinit { threads.shutdownGracefully { _ in } }

    public func read<T: Sendable>(_ work: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        try await threads.runIfActive { [self] in
            let connection = try idleReaders.withLock { $0.popLast() } ?? SQLiteConnection(path: path)
            defer { idleReaders.withLock { $0.append(connection) } }
            return try work(connection)
        }
    }

    /// One transaction on the writer connection, begun IMMEDIATE (it takes the file's write
    /// lock at once, so it never fails half-way for another process's write).
    public func write<T: Sendable>(_ work: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        try await threads.runIfActive { [self] in
            try writer.withLock { connection in
                try connection.execute("BEGIN IMMEDIATE", [])
                do {
                    let result = try work(connection)
                    try connection.execute("COMMIT", [])
                    return result
                } catch {
                    _ = try? connection.execute("ROLLBACK", [])
                    throw error
                }
            }
        }
    }
}

/// One SQLite connection, used by one thread at a time (the database hands it on).
private final class SQLiteConnection: SQLConnection, @unchecked Sendable {
    private let database: OpaquePointer

    init(path: String) throws(SQLError) {
        var database: OpaquePointer?
        let status = sqlite3_open_v2(path, &database, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let database else {
            let reason = database.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_close(database)
            throw SQLError(.connection, "cannot open the SQLite database \(path): \(reason)")
        }
        self.database = database
        sqlite3_busy_timeout(database, 10_000)
    }

    deinit { sqlite3_close(database) }

    func execute(_ sql: String, _ arguments: [SQLValue]) throws(SQLError) -> Int {
        try run(sql, arguments) { _ in }
        return Int(sqlite3_changes(database))
    }

    func rows(_ sql: String, _ arguments: [SQLValue]) throws(SQLError) -> [SQLRow] {
        var rows: [SQLRow] = []
        try run(sql, arguments) { statement in
            rows.append(SQLRow((0..<sqlite3_column_count(statement)).map { column in
                (String(cString: sqlite3_column_name(statement, column)), Self.value(statement, column))
            }))
        }
        return rows
    }

    /// Prepares one statement, binds `arguments` to its `?`s and steps it to the end, calling
    /// `row` at each row.
    private func run(_ sql: String, _ arguments: [SQLValue], row: (OpaquePointer) -> Void) throws(SQLError) {
        var prepared: OpaquePointer?
        guard sqlite3_prepare_v2(database, sql, -1, &prepared, nil) == SQLITE_OK, let statement = prepared else { throw error() }
        defer { sqlite3_finalize(statement) }
        guard Int(sqlite3_bind_parameter_count(statement)) == arguments.count else {
            throw SQLError(.other, "the statement takes \(sqlite3_bind_parameter_count(statement)) arguments, not \(arguments.count): \(sql)")
        }
        for (index, argument) in arguments.enumerated() {
            let position = Int32(index + 1)
            let status = switch argument {
            case .null: sqlite3_bind_null(statement, position)
            case .integer(let n): sqlite3_bind_int64(statement, position, n)
            case .real(let x): sqlite3_bind_double(statement, position, x)
            case .text(let text): sqlite3_bind_text(statement, position, text, -1, Self.transient)
            case .bool(let flag): sqlite3_bind_int64(statement, position, flag ? 1 : 0)
            }
            guard status == SQLITE_OK else { throw error() }
        }
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW: row(statement)
            case SQLITE_DONE: return
            default: throw error()
            }
        }
    }

    /// SQLite copies a bound text before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private static func value(_ statement: OpaquePointer, _ column: Int32) -> SQLValue {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: .integer(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT: .real(sqlite3_column_double(statement, column))
        case SQLITE_NULL: .null
        // Text, and a blob read as UTF-8 text.
        default: .text(sqlite3_column_text(statement, column).map { String(cString: $0) } ?? "")
        }
    }

    /// SQLITE_CONSTRAINT_UNIQUE and SQLITE_CONSTRAINT_PRIMARYKEY (macros Swift does not import):
    /// SQLITE_CONSTRAINT with its extended code in the second byte.
    private static let uniqueConstraint = SQLITE_CONSTRAINT | 8 << 8, primaryKeyConstraint = SQLITE_CONSTRAINT | 6 << 8

    /// The connection's last error, sorted.
    private func error() -> SQLError {
        let message = String(cString: sqlite3_errmsg(database))
        switch sqlite3_extended_errcode(database) {
        case Self.uniqueConstraint, Self.primaryKeyConstraint: return SQLError(.uniqueViolation, message)
        case let code where code & 0xff == SQLITE_BUSY || code & 0xff == SQLITE_LOCKED: return SQLError(.conflict, message)
        default: return SQLError(.other, message)
        }
    }
}
