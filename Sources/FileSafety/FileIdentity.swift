#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Which file a path names now: its device and inode, following symlinks. A symlink, a hard
/// link and a path through `..` or through a linked folder all give the identity of the file
/// they reach, so two paths name the same file exactly when their identities are equal.
public struct FileIdentity: Hashable, Sendable {
    public let device: UInt64
    public let inode: UInt64

    /// nil when nothing exists at `path` (or it cannot be looked at).
    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    /// Where `path` leads, as an absolute path with every symlink, `.` and `..` resolved: the
    /// whole path when it exists, else the resolved path of its folder followed by its own
    /// name (a file not written yet lands there). Relative paths start at the current folder.
    public static func resolvedPath(_ path: String) -> String {
        // Not `absolutePath`: `..` must follow the symlinks before it, as the system does.
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        if let real = realPath(absolute) { return real }
        var components = absolute.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard let last = components.popLast() else { return "/" }
        let parent = resolvedPath("/" + components.joined(separator: "/"))
        switch last {
        case ".": return parent
        case "..": return parent == "/" ? "/" : String(parent[..<(parent.lastIndex(of: "/") ?? parent.startIndex)]).ifEmpty("/")
        default: return parent == "/" ? "/" + last : parent + "/" + last
        }
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// What decides whether two paths are one file: the identity of the file when it exists,
/// else the resolved path where it would be written.
public enum FileKey: Hashable, Sendable {
    case file(FileIdentity)
    case location(String)

    public init(path: String) {
        if let identity = FileIdentity(path: path) {
            self = .file(identity)
        } else {
            self = .location(FileIdentity.resolvedPath(path))
        }
    }
}

private extension String {
    func ifEmpty(_ replacement: String) -> String { isEmpty ? replacement : self }
}
