#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

extension PartialFile {
    /// Opens and locks the temporary file `path` for `output` (its folder made if missing),
    /// emptying a stale one; refuses a symlink, and a file a live writer holds.
    static func claim(_ path: String, for output: String) throws(FileWriteError) -> LockedFile {
        let fd = try lock(path, for: output, as: "temporary file") { open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644) }
        guard ftruncate(fd, 0) == 0 else {
            let reason = systemReason()
            unlink(path)
            close(fd)
            throw FileWriteError(.cannotCreate, path: output, "cannot empty the temporary file \(path): \(reason)", reason: reason)
        }
        return LockedFile(path: path, descriptor: fd)
    }

    /// Makes the folder of `path` if missing, opens `path` with `opening` (a descriptor, or -1
    /// with `errno` set) and takes its exclusive `flock`, without waiting: the descriptor, locked.
    /// Throws `busy` when a live writer holds it (touching nothing), `cannotCreate` when it
    /// cannot be made or opened. `noun` names it in messages ("temporary file").
    static func lock(_ path: String, for output: String, as noun: String, opening: () -> Int32) throws(FileWriteError) -> Int32 {
        do {
            try Folders.make((path as NSString).deletingLastPathComponent)
        } catch {
            throw FileWriteError(.cannotCreate, path: output, error.description, reason: error.reason)
        }
        // A writer that just finished may rename or remove its file between our open and our
        // lock; then the name holds no file or another one, and we try again.
        for _ in 0..<100 {
            let fd = opening()
            guard fd >= 0 else {
                let reason = systemReason()
                throw FileWriteError(.cannotCreate, path: output,
                                     "cannot create the \(noun) \(path): \(reason) (is the folder there and writable?)", reason: reason)
            }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
                let failure = errno
                let holder = failure == EWOULDBLOCK ? lockHolder(fd) : nil
                close(fd)
                guard failure == EWOULDBLOCK else {
                    let reason = systemReason(failure)
                    throw FileWriteError(.cannotCreate, path: output, "cannot lock the \(noun) \(path): \(reason)", reason: reason)
                }
                let who = holder.map { "another process (pid \($0))" } ?? "another process"
                throw FileWriteError(.busy(holder: holder), path: output,
                                     "\(who) is writing this file now (its \(noun) \(path) is locked); "
                                     + "wait for it to finish, or write to another file", reason: "\(who) holds it")
            }
            if isStill(fd, at: path) { return fd }
            close(fd)
        }
        let reason = "it keeps changing under another writer"
        throw FileWriteError(.cannotCreate, path: output, "cannot claim the \(noun) \(path): \(reason)", reason: reason)
    }

    /// True when `path` still names the file or folder open as `fd` (and is not a symlink).
    private static func isStill(_ fd: Int32, at path: String) -> Bool {
        var open = stat(), named = stat()
        guard fstat(fd, &open) == 0, lstat(path, &named) == 0 else { return false }
        return open.st_dev == named.st_dev && open.st_ino == named.st_ino && open.st_nlink > 0
    }

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
