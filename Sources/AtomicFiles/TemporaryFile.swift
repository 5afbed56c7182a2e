#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A new file of its own name (`PREFIX` and a UUID) in a folder, for an output whose name is
/// known only once it is written (a content-addressed file, named by the digest of its bytes):
/// written, then renamed to that name. Its writer holds an exclusive `flock` on it until then,
/// so a sweep tells it from one a killed process left (`removeAbandoned`). Releasing it
/// unfinished removes it.
public final class TemporaryFile {
    private let file: LockedFile

    /// The file: `folder/PREFIX<UUID>`.
    public var path: String { file.path }

    /// Creates the file in `folder` (which must exist) and locks it. Throws `cannotCreate`.
    public init(in folder: String, prefix: String) throws(FileWriteError) {
        let path = folder + "/" + prefix + UUID().uuidString
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let reason = systemReason()
            throw FileWriteError(.cannotCreate, path: path, "cannot create \(path): \(reason)", reason: reason)
        }
        _ = flock(fd, LOCK_EX | LOCK_NB) // a new name: nobody else has it open
        file = LockedFile(path: path, descriptor: fd)
    }

    /// Writes `bytes` at the end of the file.
    public func write(_ bytes: some ContiguousBytes) throws(FileWriteError) {
        guard file.isOpen else { throw FileWriteError(.closed, path: path, "\(path) is already closed", reason: "already closed") }
        if let reason = bytes.withUnsafeBytes(file.write) {
            throw FileWriteError(.cannotWrite, path: path, "cannot write \(path): \(reason)", reason: reason)
        }
    }

    /// Renames the file onto `destination` (with `sync`, made durable first) and lets go of
    /// the lock. A failure removes the file.
    public func commit(to destination: String, sync: Bool) throws(FileWriteError) {
        guard file.isOpen else { throw FileWriteError(.closed, path: path, "\(path) is already closed", reason: "already closed") }
        switch file.move(to: destination, sync: sync) {
        case nil: return
        case (.sync, let reason)?:
            throw FileWriteError(.cannotWrite, path: path, "cannot write \(path): \(reason)", reason: reason)
        case (.rename, let reason)?:
            throw FileWriteError(.cannotMove, path: path, "cannot move \(path) to \(destination): \(reason)", reason: reason)
        }
    }

    /// Removes the file and lets go of the lock (nothing when already done).
    public func discard() { file.remove() }

    /// Removes the files named `PREFIX…` in `folder` that processes killed while writing them
    /// left: those nobody holds locked and nobody has written for `age` seconds (a file just
    /// created and not locked yet is newer).
    public static func removeAbandoned(in folder: String, prefix: String, olderThan age: TimeInterval) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in names where name.hasPrefix(prefix) {
            let path = folder + "/" + name
            guard let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date,
                  Date().timeIntervalSince(modified) > age else { continue }
            let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            guard fd >= 0 else { continue }
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { unlink(path) }
            close(fd)
        }
    }
}
