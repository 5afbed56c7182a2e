import GRDB

/// An embedded SQLite file (write-ahead log) for one process: GRDB's pool, one writer at a time,
/// readers beside it.
public final class SQLiteDatabase: SQLDatabase {
    private let pool: DatabasePool
    public let dialect = SQLDialect.sqlite

    public init(path: String) throws(SQLError) {
        var configuration = Configuration()
        // Another connection's write (a request while a worker records progress) is waited for.
        configuration.busyMode = .timeout(10)
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
        } catch {
            throw SQLError(.connection, "cannot open the SQLite database \(path): \(Self.words(error))")
        }
    }

    /// On GRDB's own reader threads.
    public func read<T: Sendable>(_ work: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        try await translatingErrors { try await pool.read { try work(Connection(database: $0)) } }
    }

    /// On GRDB's writer thread.
    public func write<T: Sendable>(_ work: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        try await translatingErrors { try await pool.write { try work(Connection(database: $0)) } }
    }

    private func translatingErrors<T>(_ work: () async throws -> T) async throws -> T {
        do {
            return try await work()
        } catch let error as DatabaseError {
            throw Self.sqlError(error)
        }
    }

    fileprivate static func sqlError(_ error: DatabaseError) -> SQLError {
        switch error.extendedResultCode {
        case .SQLITE_CONSTRAINT_UNIQUE, .SQLITE_CONSTRAINT_PRIMARYKEY: SQLError(.uniqueViolation, words(error))
        case .SQLITE_BUSY, .SQLITE_LOCKED: SQLError(.conflict, words(error))
        default: SQLError(.other, words(error))
        }
    }

    private static func words(_ error: any Error) -> String {
        (error as? DatabaseError)?.message ?? "\(error)"
    }

    private struct Connection: SQLConnection {
        let database: GRDB.Database

        func execute(_ sql: String, _ arguments: [SQLValue]) throws(SQLError) -> Int {
            do {
                try database.execute(sql: sql, arguments: Self.arguments(arguments))
                return database.changesCount
            } catch let error as DatabaseError {
                throw SQLiteDatabase.sqlError(error)
            } catch {
                throw SQLError(.other, "\(error)")
            }
        }

        func rows(_ sql: String, _ arguments: [SQLValue]) throws(SQLError) -> [SQLRow] {
            do {
                return try Row.fetchAll(database, sql: sql, arguments: Self.arguments(arguments)).map { row in
                    SQLRow(row.map { column, value in (column, Self.value(value)) })
                }
            } catch let error as DatabaseError {
                throw SQLiteDatabase.sqlError(error)
            } catch {
                throw SQLError(.other, "\(error)")
            }
        }

        private static func arguments(_ values: [SQLValue]) -> StatementArguments {
            StatementArguments(values.map { value -> (any DatabaseValueConvertible)? in
                switch value {
                case .null: nil
                case .integer(let n): n
                case .real(let x): x
                case .text(let text): text
                case .bool(let flag): flag
                }
            })
        }

        private static func value(_ value: DatabaseValue) -> SQLValue {
            switch value.storage {
            case .null: .null
            case .int64(let n): .integer(n)
            case .double(let x): .real(x)
            case .string(let text): .text(text)
            case .blob(let data): .text(String(decoding: data, as: UTF8.self))
            }
        }
    }
}
