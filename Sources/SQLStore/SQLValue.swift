/// A value going into or coming out of SQL, the same for SQLite and PostgreSQL.
public enum SQLValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case bool(Bool)
}

/// A Swift type stored in one column.
public protocol SQLColumn {
    var sqlValue: SQLValue { get }
    /// The value read back; nil when the column holds something else.
    init?(sqlValue: SQLValue)
}

extension String: SQLColumn {
    public var sqlValue: SQLValue { .text(self) }
    public init?(sqlValue: SQLValue) {
        guard case .text(let text) = sqlValue else { return nil }
        self = text
    }
}

extension Int64: SQLColumn {
    public var sqlValue: SQLValue { .integer(self) }
    public init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .integer(let n): self = n
        case .real(let x) where x.rounded() == x: self.init(exactly: x)
        default: return nil
        }
    }
}

extension Int: SQLColumn {
    public var sqlValue: SQLValue { .integer(Int64(self)) }
    public init?(sqlValue: SQLValue) {
        guard let n = Int64(sqlValue: sqlValue) else { return nil }
        self.init(n)
    }
}

extension Double: SQLColumn {
    public var sqlValue: SQLValue { .real(self) }
    public init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .real(let x): self = x
        case .integer(let n): self.init(n)
        default: return nil
        }
    }
}

extension Bool: SQLColumn {
    public var sqlValue: SQLValue { .bool(self) }
    /// SQLite keeps booleans as 0 and 1.
    public init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .bool(let flag): self = flag
        case .integer(let n): self = n != 0
        default: return nil
        }
    }
}

extension Optional: SQLColumn where Wrapped: SQLColumn {
    public var sqlValue: SQLValue { self?.sqlValue ?? .null }
    public init?(sqlValue: SQLValue) {
        if sqlValue == .null {
            self = .none
        } else {
            guard let value = Wrapped(sqlValue: sqlValue) else { return nil }
            self = .some(value)
        }
    }
}

/// A column stored as its raw text (an enum such as a status).
extension SQLColumn where Self: RawRepresentable, RawValue == String {
    public var sqlValue: SQLValue { .text(rawValue) }
    public init?(sqlValue: SQLValue) {
        guard let text = String(sqlValue: sqlValue) else { return nil }
        self.init(rawValue: text)
    }
}

/// One result row, its columns by name. Names are compared without case: PostgreSQL folds
/// unquoted names to lower case, SQLite keeps them as declared.
public struct SQLRow: Sendable {
    private var values: [String: SQLValue]

    public init(_ columns: [(name: String, value: SQLValue)]) {
        values = Dictionary(columns.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// The column `name` as `T`; throws when the row has no such column or it holds another type.
    public subscript<T: SQLColumn>(_ name: String) -> T {
        get throws(SQLError) {
            guard let value = values[name.lowercased()] else { throw SQLError(.other, "the result has no column \(name)") }
            guard let typed = T(sqlValue: value) else { throw SQLError(.other, "column \(name) holds \(value), not a \(T.self)") }
            return typed
        }
    }
}
