#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The temporary file a writer fills before renaming it onto its output: `.NAME.partial` in
/// the output's folder, one name per output.
///
/// Its writer holds an exclusive `flock` on it from creating it until it is renamed into place
/// or removed. The kernel drops the lock when the writer's process ends, however it ends
/// (SIGKILL, a crash, a power cut), and a lock belongs to the open file, not to a process id
/// that may be reused, so the lock tells a live writer from a file a killed one left behind:
///
/// - Nobody holds the file: it is stale. The next writer of that output takes it over (empties
///   it, writes, and renames it into place or removes it), so a killed render's leftovers go
///   with the next render of the same output.
/// - A live writer holds it: a second writer of the same output fails at once
///   (`FileWriteError.Kind.busy`), naming the output and, where the system says, the process
///   holding it. It never touches the file, so the first writer finishes undisturbed.
///
/// Two writers of one output therefore never mix their bytes: the output is always a whole file
/// from one of them, renamed into place atomically. Releasing it unfinished removes it.
public final class PartialFile {
    /// The file being written for.
    public let output: String
    /// The temporary file: `.NAME.partial` beside `output`.
    public var path: String { file.path }
    private let file: LockedFile

    /// `.NAME.partial` in the folder of `output`.
    public static func path(for output: String) -> String {
        let url = URL(fileURLWithPath: output)
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).partial").path
    }

    /// Creates (or takes over a stale) temporary file for `output` and locks it, making the
    /// output's folder first if it is missing. Throws when it cannot (`cannotCreate`), or when
    /// another live writer holds it (`busy`).
    public init(output: String) throws(FileWriteError) {
        self.output = output
        file = try Self.claim(Self.path(for: output), for: output)
    }

    /// Writes `bytes` to `path` whole or not at all: through its temporary file, renamed into
    /// place (with `sync`, made durable first). For small files (indexes, records, pictures);
    /// the same lock keeps two writers of `path` apart.
    public static func write(_ bytes: some ContiguousBytes, to path: String, sync: Bool) throws(FileWriteError) {
        let partial = try PartialFile(output: path)
        try partial.write(bytes)
        try partial.commit(sync: sync)
    }

    /// Returns once nobody is writing `output` any more: when a live writer holds its
    /// temporary file, waits until it renames it into place or gives up.
    public static func waitForWriter(of output: String) {
        let fd = open(path(for: output), O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return }
        _ = flock(fd, LOCK_SH)
        close(fd)
    }

    /// Whether a live writer holds `output`'s temporary file now.
    public static func isBeingWritten(_ output: String) -> Bool {
        let fd = open(path(for: output), O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK
    }

    /// Writes `bytes` at the end of the file.
    public func write(_ bytes: some ContiguousBytes) throws(FileWriteError) {
        try checkOpen()
        if let reason = bytes.withUnsafeBytes(file.write) {
            throw FileWriteError(.cannotWrite, path: output, "cannot write the file: \(reason)", reason: reason)
        }
    }

    /// With `sync`, makes the contents durable first (fsync: after a power cut the output is the
    /// old file or the new one, never an empty one); then renames the file onto `output` and lets
    /// go of the lock. A failure removes the temporary file.
    public func commit(sync: Bool = true) throws(FileWriteError) {
        try checkOpen()
        switch file.move(to: output, sync: sync) {
        case nil: return
        case (.sync, let reason)?:
            throw FileWriteError(.cannotWrite, path: output, "cannot write the file: \(reason)", reason: reason)
        case (.rename, let reason)?:
            throw FileWriteError(.cannotMove, path: output, "cannot move the finished file into place: \(reason)", reason: reason)
        }
    }

    /// Removes the temporary file and lets go of the lock (nothing when already done).
    public func discard() { file.remove() }

    private func checkOpen() throws(FileWriteError) {
        guard file.isOpen else { throw FileWriteError(.closed, path: output, "the temporary file is already closed", reason: "already closed") }
    }
}
