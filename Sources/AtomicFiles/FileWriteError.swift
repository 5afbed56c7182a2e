import Foundation

/// Why a file could not be written whole: what went wrong, with which file, and what to do.
public struct FileWriteError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    public enum Kind: Sendable, Equatable {
        /// The temporary file cannot be made (its folder cannot be made or written), locked or
        /// claimed.
        case cannotCreate
        /// Another live writer holds the output's temporary file; `holder` is its process id
        /// where the system says.
        case busy(holder: Int32?)
        /// The bytes cannot be written or made durable (a full disk, an I/O error).
        case cannotWrite
        /// The finished file cannot be renamed into place.
        case cannotMove
        /// Written or committed after it was committed or discarded: a mistake of the caller.
        case closed
    }

    public var kind: Kind
    /// The file being written: the output (a `TemporaryFile` not named yet: the file itself).
    public var path: String
    /// What went wrong, with what to do where there is something to say, e.g. `another process
    /// (pid 4242) is writing this file now (its temporary file /out/.a.mp4.partial is locked);
    /// wait for it to finish, or write to another file`.
    public var message: String
    /// Why, in a few words: the system's reason (`strerror`) where it gave one. For callers
    /// that word their own message.
    public var reason: String

    public init(_ kind: Kind, path: String, _ message: String, reason: String) {
        self.kind = kind
        self.path = path
        self.message = message
        self.reason = reason
    }

    public var description: String { "\(path): \(message)" }

    public var errorDescription: String? { description }
}
