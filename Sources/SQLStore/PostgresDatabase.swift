import CLibPQ
import Foundation
import NIOPosix
import Synchronization

/// A PostgreSQL server several `reel serve` processes share, through libpq: a pool of blocking
/// connections, used by the database's own threads (`threads`, so at most that many connections
/// per process), one connection per thread at a time. A write is one transaction, run again (up
/// to three times) when it collides with another process's.
public final class PostgresDatabase: SQLDatabase {
    public let dialect = SQLDialect.postgres
    private let url: String
    private let idle = Mutex<[PostgresConnection]>([])
    /// libpq's calls block: they run here, never on the caller's thread.
    private let threads: NIOThreadPool

    /// `url`: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?…]`, as libpq reads it (the
    /// `PG…` environment variables fill in what it leaves out). Connects once to check it.
    public init(url: String) throws(SQLError) {
        // A server that does not answer is an error after 10 s, not a hang.
        self.url = url.contains("connect_timeout=") ? url : url + (url.contains("?") ? "&" : "?") + "connect_timeout=10"
        threads = NIOThreadPool(numberOfThreads: Self.threadCount)
        threads.start()
        release(try PostgresConnection(url: self.url, shown: Self.withoutPassword(url)))
    }

    /// How many statements of this process may run at once.
    public static let threadCount = 8

    deinit { threads.shutdownGracefully { _ in } }

    /// A pooled connection the server has closed since (a restart, an idle timeout) fails at
    /// its next use: a read runs once more on a new connection, as reading twice changes nothing.
    public func read<T: Sendable>(_ work: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        try await threads.runIfActive { [self] in
            do {
                return try withConnection { try work($0) }
            } catch let error as SQLError where error.kind == .connection {
                return try withConnection { try work($0) }
            }
        }
    }

    public func write<T: Sendable>(_ work: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        try await threads.runIfActive { [self] in try writeNow(work) }
    }

    /// A write runs again when its transaction collided with another process's, or when its
    /// connection was found closed before the transaction began.
    private func writeNow<T>(_ work: (any SQLConnection) throws -> T) throws -> T {
        var attempt = 1
        while true {
            var began = false
            do {
                return try withConnection { connection in
                    try connection.execute("BEGIN")
                    began = true
                    do {
                        let result = try work(connection)
                        try connection.execute("COMMIT")
                        return result
                    } catch {
                        _ = try? connection.execute("ROLLBACK")
                        throw error
                    }
                }
            } catch let error as SQLError where attempt < 3 && (error.kind == .conflict || error.kind == .uniqueViolation || (error.kind == .connection && !began)) {
                // Another process's transaction got there first (what this one read has changed),
                // or the connection had been closed: nothing of this transaction was done.
                attempt += 1
            }
        }
    }

    private func withConnection<T>(_ work: (PostgresConnection) throws -> T) throws -> T {
        let connection = try idle.withLock { $0.popLast() } ?? PostgresConnection(url: url, shown: Self.withoutPassword(url))
        defer { release(connection) }
        return try work(connection)
    }

    /// Back to the pool, unless the connection broke (the next use opens a new one).
    private func release(_ connection: PostgresConnection) {
        guard connection.isHealthy else { return }
        idle.withLock { $0.append(connection) }
    }

    /// The URL as it may be shown in an error: without its password.
    public static func withoutPassword(_ url: String) -> String {
        guard var parts = URLComponents(string: url), parts.password != nil else { return url }
        parts.password = "***"
        return parts.string ?? url
    }
}

/// One libpq connection. Used by one thread at a time (the pool hands it from one to the next),
/// which is what libpq asks.
private final class PostgresConnection: SQLConnection, @unchecked Sendable {
    private let connection: OpaquePointer

    init(url: String, shown: String) throws(SQLError) {
        guard let connection = PQconnectdb(url) else { throw SQLError(.connection, "cannot connect to \(shown): out of memory") }
        guard PQstatus(connection) == CONNECTION_OK else {
            let reason = String(cString: PQerrorMessage(connection)).trimmingCharacters(in: .whitespacesAndNewlines)
            PQfinish(connection)
            throw SQLError(.connection, "cannot connect to the PostgreSQL database \(shown): \(reason)")
        }
        self.connection = connection
    }

    deinit { PQfinish(connection) }

    var isHealthy: Bool { PQstatus(connection) == CONNECTION_OK && PQtransactionStatus(connection) == PQTRANS_IDLE }

    func execute(_ sql: String, _ arguments: [SQLValue]) throws(SQLError) -> Int {
        try run(sql, arguments) { result in Int(String(cString: PQcmdTuples(result))) ?? 0 }
    }

    func rows(_ sql: String, _ arguments: [SQLValue]) throws(SQLError) -> [SQLRow] {
        try run(sql, arguments) { result in
            let columns = (0..<PQnfields(result)).map { (name: String(cString: PQfname(result, $0)), type: PQftype(result, $0)) }
            return (0..<PQntuples(result)).map { row in
                SQLRow(columns.enumerated().map { index, column in
                    let field = Int32(index)
                    guard PQgetisnull(result, row, field) == 0 else { return (column.name, .null) }
                    return (column.name, Self.value(String(cString: PQgetvalue(result, row, field)), type: column.type))
                })
            }
        }
    }

    /// Runs one statement with its arguments as text (the server gives them their columns' types).
    private func run<T>(_ sql: String, _ arguments: [SQLValue], _ read: (OpaquePointer) -> T) throws(SQLError) -> T {
        let texts: [UnsafeMutablePointer<CChar>?] = arguments.map { Self.text($0).map { strdup($0) } ?? nil }
        defer { texts.forEach { free($0) } }
        let result = texts.map { $0.map { UnsafePointer($0) } }.withUnsafeBufferPointer { values in
            PQexecParams(connection, Self.numberedPlaceholders(sql), Int32(texts.count), nil, values.baseAddress, nil, nil, 0)
        }
        guard let result else { throw SQLError(.connection, String(cString: PQerrorMessage(connection))) }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
            return read(result)
        default:
            let message = String(cString: PQresultErrorMessage(result)).trimmingCharacters(in: .whitespacesAndNewlines)
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
            throw SQLError(Self.kind(state: state, connected: PQstatus(connection) == CONNECTION_OK), message)
        }
    }

    private static func kind(state: String, connected: Bool) -> SQLError.Kind {
        switch state {
        case "23505": .uniqueViolation
        case "40001", "40P01": .conflict
        case _ where state.hasPrefix("08") || !connected: .connection
        default: .other
        }
    }

    private static func text(_ value: SQLValue) -> String? {
        switch value {
        case .null: nil
        case .integer(let n): String(n)
        // Swift's shortest form reads back as the same double.
        case .real(let x): "\(x)"
        case .text(let text): text
        case .bool(let flag): flag ? "true" : "false"
        }
    }

    /// A text result as the value its column type (an OID of the `pg_type` catalogue) says.
    private static func value(_ text: String, type: Oid) -> SQLValue {
        switch type {
        case 16: .bool(text == "t")
        case 20, 21, 23: Int64(text).map(SQLValue.integer) ?? .text(text)
        case 700, 701, 1700: Double(text).map(SQLValue.real) ?? .text(text)
        default: .text(text)
        }
    }

    /// `?` placeholders as PostgreSQL's `$1`, `$2`…, leaving quoted text alone.
    static func numberedPlaceholders(_ sql: String) -> String {
        var output = "", number = 0, quoted = false
        for character in sql {
            if character == "'" { quoted.toggle() }
            if character == "?" && !quoted {
                number += 1
                output += "$\(number)"
            } else {
                output.append(character)
            }
        }
        return output
    }
}
