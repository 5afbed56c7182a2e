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
/// - A live writer holds it: a second writer of the same output fails at once with
///   `MediaError.writingFailed`, naming the output and, where the system says, the process
///   holding it. It never touches the file, so the first writer finishes undisturbed.
///
/// Two writers of one output therefore never mix their bytes: the output is always a whole file
/// from one of them, renamed into place atomically.
public final class PartialFile {
    /// The file being written for.
    public let output: String
    /// The temporary file: `.NAME.partial` beside `output`.
    public let path: String
    private var descriptor: Int32

    /// `.NAME.partial` in the folder of `output`.
    public static func path(for output: String) -> String {
        let url = URL(fileURLWithPath: output)
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).partial").path
    }

    /// Creates (or takes over a stale) temporary file for `output` and locks it, making the
    /// output's folder first if it is missing. Throws `MediaError(.writingFailed)` when it
    /// cannot, or when another live writer holds it.
    public init(output: String) throws(MediaError) {
        self.output = output
        path = Self.path(for: output)
        try? FileManager.default.createDirectory(at: URL(fileURLWithPath: path).deletingLastPathComponent(),
                                                 withIntermediateDirectories: true)
        // A writer that just finished may rename its file onto the output between our open and
        // our lock; then the name holds no file or another one, and we try again.
        for _ in 0..<100 {
            let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
            guard fd >= 0 else {
                throw MediaError(.writingFailed, path: output,
                                 "cannot create the temporary file \(path): \(Self.reason()) (is the folder there and writable?)")
            }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
                let failure = errno
                let holder = failure == EWOULDBLOCK ? Self.lockHolder(fd) : nil
                close(fd)
                guard failure == EWOULDBLOCK else {
                    throw MediaError(.writingFailed, path: output, "cannot lock the temporary file \(path): \(String(cString: strerror(failure)))")
                }
                let who = holder.map { "another process (pid \($0))" } ?? "another process"
                throw MediaError(.writingFailed, path: output,
                                 "\(who) is writing this file now (its temporary file \(path) is locked); "
                                 + "wait for it to finish, or write to another file")
            }
            if Self.isStill(fd, at: path) {
                guard ftruncate(fd, 0) == 0 else {
                    let message = "cannot empty the temporary file \(path): \(Self.reason())"
                    unlink(path)
                    close(fd)
                    throw MediaError(.writingFailed, path: output, message)
                }
                descriptor = fd
                return
            }
            close(fd)
        }
        throw MediaError(.writingFailed, path: output, "cannot claim the temporary file \(path): it keeps changing under another writer")
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

    deinit { discard() }

    /// Writes `bytes` at the end of the file. Throws `MediaError(.writingFailed)`.
    public func write(_ bytes: [UInt8]) throws(MediaError) {
        guard descriptor >= 0 else { throw MediaError(.invalidArgument, path: output, "the temporary file is already closed") }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw MediaError(.writingFailed, path: output, "cannot write the file: \(Self.reason())") }
            offset += written
        }
    }

    /// With `sync`, makes the contents durable first (fsync: after a power cut the output is the
    /// old file or the new one, never an empty one); then renames the file onto `output` and lets
    /// go of the lock. Throws `MediaError(.writingFailed)`, having removed the temporary file.
    public func commit(sync: Bool = true) throws(MediaError) {
        guard descriptor >= 0 else { throw MediaError(.invalidArgument, path: output, "the temporary file is already closed") }
        guard !sync || fsync(descriptor) == 0 else {
            let message = "cannot write the file: \(Self.reason())"
            discard()
            throw MediaError(.writingFailed, path: output, message)
        }
        guard rename(path, output) == 0 else {
            let message = "cannot move the finished file into place: \(Self.reason())"
            discard()
            throw MediaError(.writingFailed, path: output, message)
        }
        close(descriptor)
        descriptor = -1
    }

    /// Removes the temporary file and lets go of the lock (nothing when already done).
    public func discard() {
        guard descriptor >= 0 else { return }
        unlink(path) // still ours: nobody else removes or renames a locked file
        close(descriptor)
        descriptor = -1
    }

    /// True when `path` still names the file open as `fd` (and is not a symlink).
    private static func isStill(_ fd: Int32, at path: String) -> Bool {
        var open = stat(), named = stat()
        guard fstat(fd, &open) == 0, lstat(path, &named) == 0 else { return false }
        return open.st_dev == named.st_dev && open.st_ino == named.st_ino && open.st_nlink > 0
    }

    private static func reason() -> String { String(cString: strerror(errno)) }

    /// The process holding the flock on `fd`'s file, from /proc/locks (Linux; nil elsewhere or
    /// when not listed). Lines read `1: FLOCK  ADVISORY  WRITE 4242 08:01:131090 0 EOF`.
    private static func lockHolder(_ fd: Int32) -> Int32? {
        var info = stat()
        guard fstat(fd, &info) == 0, let text = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return nil }
        let device = UInt64(info.st_dev)
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~UInt64(0xfff))
        let minor = (device & 0xff) | ((device >> 12) & ~UInt64(0xff))
        for line in text.split(separator: "\n") where !line.contains("->") {
            let fields = line.split(separator: " ")
            guard let kind = fields.firstIndex(of: "FLOCK"), fields.count > kind + 4 else { continue }
            let place = fields[kind + 4].split(separator: ":")
            guard place.count == 3, UInt64(place[0], radix: 16) == major, UInt64(place[1], radix: 16) == minor,
                  UInt64(place[2]) == UInt64(info.st_ino) else { continue }
            return Int32(fields[kind + 3])
        }
        return nil
    }
}
