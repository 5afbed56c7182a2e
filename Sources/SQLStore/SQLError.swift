/// What went wrong in the database, sorted into what the caller can act on.
public struct SQLError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable {
        /// A row with the same key exists (often another node's transaction got there first).
        case uniqueViolation
        /// The transaction collided with another one (serialization failure, deadlock): run it again.
        case conflict
        /// The server cannot be reached or the connection broke.
        case connection
        case other
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
