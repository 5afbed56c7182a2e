/// One value of a JSON-like tree, as the validator reads schemas and instances: its value
/// and where it is. `Location` is the caller's (a file, line and column, say); the validator
/// only carries it into `SchemaFailure`s, so every failure points at its value.
///
/// A tree type conforms by storing a `JSONValue<Self>`:
///
///     struct Tree: JSONInstance {
///         struct Member: JSONMember { var key: String; var keyLocation: Int; var value: Tree }
///         var value: JSONValue<Tree>
///         var location: Int
///         init(_ value: JSONValue<Tree>, at location: Int) { … }
///     }
public protocol JSONInstance: Sendable {
    associatedtype Location: Hashable, Sendable
    associatedtype Member: JSONMember where Member.Instance == Self

    var value: JSONValue<Self> { get }
    var location: Location { get }

    /// A value at `location` (the validator makes string values of keys for `propertyNames`).
    init(_ value: JSONValue<Self>, at location: Location)
}

/// One key and value of an object, each with its location.
public protocol JSONMember: Sendable {
    associatedtype Instance: JSONInstance

    var key: String { get }
    var keyLocation: Instance.Location { get }
    var value: Instance { get }
}

/// The value of a `JSONInstance`.
public enum JSONValue<Instance: JSONInstance>: Sendable {
    case null
    case bool(Bool)
    /// A number as written (`30`, `29.97`, `1e3`): kept as text so nothing is lost to floating
    /// point (`DecimalNumber` compares such texts exactly).
    case number(String)
    case string(String)
    case array([Instance])
    /// Keys in document order.
    case object([Instance.Member])
}
