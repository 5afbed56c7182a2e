import SQLStore

/// A record kept as one row of a table: its columns written once, read back by name.
protocol StoredRow {
    static var table: String { get }
    /// The primary key's columns.
    static var key: [String] { get }
    init(_ row: SQLRow) throws
    var columns: [(name: String, value: SQLValue)] { get }
}

extension SQLConnection {
    func insert<Record: StoredRow>(_ record: Record) throws {
        let columns = record.columns
        try execute("INSERT INTO \(Record.table) (\(columns.map(\.name).joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))",
                    columns.map(\.value))
    }

    /// Writes every column but the key; returns whether the row was there.
    @discardableResult
    func update<Record: StoredRow>(_ record: Record, where condition: String = "", _ arguments: [SQLValue] = []) throws -> Bool {
        let columns = record.columns
        let values = columns.filter { !Record.key.contains($0.name) }, key = columns.filter { Record.key.contains($0.name) }
        let sql = "UPDATE \(Record.table) SET \(values.map { "\($0.name) = ?" }.joined(separator: ", ")) WHERE "
            + (key.map { "\($0.name) = ?" } + (condition.isEmpty ? [] : [condition])).joined(separator: " AND ")
        return try execute(sql, values.map(\.value) + key.map(\.value) + arguments) > 0
    }

    /// The rows `clause` selects (`WHERE …`, `ORDER BY …`, `LIMIT …`, as SQL after the table's name).
    func fetch<Record: StoredRow>(_ type: Record.Type, _ clause: String = "", _ arguments: [SQLValue] = []) throws -> [Record] {
        try rows("SELECT * FROM \(Record.table) \(clause)", arguments).map { try Record($0) }
    }
}
