#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open file this process writes and holds an exclusive `flock` on until it renames it into
/// place or removes it: what `PartialFile` and `TemporaryFile` share. Failures give the
/// system's reason; the owners word the errors. Removed when released unfinished.
final class LockedFile {
    let path: String
    private var descriptor: Int32

    /// Takes over `descriptor`, open and locked, as the file at `path`.
    init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { remove() }

    /// False once renamed into place or removed.
    var isOpen: Bool { descriptor >= 0 }

    /// Writes all of `bytes` at the end; the system's reason when it cannot.
    func write(_ bytes: UnsafeRawBufferPointer) -> String? { Self.write(descriptor, bytes) }

    /// Writes all of `bytes` to the open file `fd`; the system's reason when it cannot.
    static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> String? {
        var offset = 0
        while offset < bytes.count {
            let written = systemWrite(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return systemReason() }
            offset += written
        }
        return nil
    }

    /// The step of `move` that failed.
    enum Step { case sync, rename }

    /// With `sync`, makes the contents durable (fsync); then renames the file onto `destination`
    /// and closes it, which lets go of the lock. On a failure the file is removed: the failing
    /// step and the system's reason.
    func move(to destination: String, sync: Bool) -> (step: Step, reason: String)? {
        if sync && fsync(descriptor) != 0 {
            let reason = systemReason()
            remove()
            return (.sync, reason)
        }
        guard rename(path, destination) == 0 else {
            let reason = systemReason()
            remove()
            return (.rename, reason)
        }
        close(descriptor)
        descriptor = -1
        return nil
    }

    /// Removes the file and lets go of the lock (nothing when already done). It is still
    /// ours: nobody else removes or renames a locked file.
    func remove() {
        guard descriptor >= 0 else { return }
        unlink(path)
        close(descriptor)
        descriptor = -1
    }
}

/// The system's words for `errno`.
func systemReason(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }

#if canImport(Glibc)
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
private let systemWrite = Darwin.write
#endif
