#if canImport(Glibc)
import Glibc
#endif

/// What stands at a path that is to be read as a file. Reading a FIFO (named pipe) waits for a
/// writer that may never come, and a folder or a device is no file, so every file Reel reads
/// (projects, vars, fonts, rows, cue files, LUTs, EDLs, OTIO files, media) is checked first.
public enum RegularFile {
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        case missing
        /// A folder, a FIFO, a socket or a device, named for the message.
        case notAFile(String)
        /// `stat` failed otherwise (permissions), with the system's reason.
        case unreadable(String)

        public var description: String {
            switch self {
            case .missing: "no such file"
            case .notAFile(let kind): "it is \(kind), not a file"
            case .unreadable(let reason): reason
            }
        }
    }

    /// Nil when `path` is a regular file (after symlinks); else why it cannot be read as one.
    public static func problem(at path: String) -> Problem? {
        var status = stat()
        guard stat(path, &status) == 0 else {
            return errno == ENOENT || errno == ENOTDIR ? .missing : .unreadable(String(cString: strerror(errno)))
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return .notAFile("a folder")
        case S_IFIFO: return .notAFile("a FIFO (named pipe)")
        case S_IFSOCK: return .notAFile("a socket")
        default: return .notAFile("a device")
        }
    }

    /// A file's size and modification time (nanoseconds since 1970): enough to notice that it
    /// was replaced or edited.
    public struct Stamp: Equatable, Sendable {
        public var size: Int64
        public var modified: Int64
    }

    /// The stamp of the regular file at `path`; why it is not one (missing, a folder, a FIFO) otherwise.
    public static func stamp(at path: String) throws(Problem) -> Stamp {
        if let problem = problem(at: path) { throw problem }
        var status = stat()
        guard stat(path, &status) == 0 else { throw .unreadable(String(cString: strerror(errno))) }
        return Stamp(size: Int64(status.st_size), modified: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec))
    }
}
