#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Why a folder could not be made: the folder (the first one missing that could not be made,
/// which may be above the one asked for) and the system's reason, e.g. `cannot make the folder
/// /mnt/ro/out: Read-only file system`.
public struct FolderFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public let folder: String
    public let reason: String

    public var description: String { "cannot make the folder \(folder): \(reason)" }
}

public enum Folders {
    /// Makes `folder` and the folders missing above it, as `mkdir -p` does. A failure names the
    /// folder that could not be made and says why in the system's words (a read-only file
    /// system, no permission, a file where a folder should be), not as a missing file.
    public static func make(_ folder: String) throws(FolderFailure) {
        if mkdir(folder, 0o777) == 0 { return }
        let failure = errno
        switch failure {
        case EEXIST:
            // A folder, or a link to one; a file there cannot hold anything.
            var info = stat()
            guard stat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                throw FolderFailure(folder: folder, reason: systemReason(ENOTDIR))
            }
        case ENOENT, ENOTDIR:
            // Something above is missing, or is a file: the first such folder is the one to name.
            let parent = (folder as NSString).deletingLastPathComponent
            guard !parent.isEmpty, parent != folder else { throw FolderFailure(folder: folder, reason: systemReason(failure)) }
            try make(parent)
            guard mkdir(folder, 0o777) == 0 || errno == EEXIST else { throw FolderFailure(folder: folder, reason: systemReason()) }
        default:
            throw FolderFailure(folder: folder, reason: systemReason(failure))
        }
    }
}
