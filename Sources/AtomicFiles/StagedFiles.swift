#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The files of one output that is many files (an image sequence's frames), written into a
/// hidden folder beside them (`.NAME.partial-frames`) and moved into their folder together by
/// `commit`. A locked `PartialFile` for the output's name keeps a second writer out; on a
/// failure or `discard()` the hidden folder goes and files already in place stay as they were.
public final class StagedFiles {
    /// The name the files are written for (an image sequence's pattern).
    public let output: String
    private let lock: PartialFile
    private let staging: String
    /// The files written so far, in order.
    public private(set) var names: [String] = []

    /// Claims `output`'s temporary file and makes the hidden folder (removing one a killed
    /// writer left).
    public init(output: String) throws(FileWriteError) {
        self.output = output
        lock = try PartialFile(output: output)
        staging = lock.path + "-frames"
        do {
            try? FileManager.default.removeItem(atPath: staging)
            try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: false)
        } catch {
            lock.discard()
            throw FileWriteError(.cannotCreate, path: output, "cannot make the folder \(staging): \(error.localizedDescription)",
                                 reason: error.localizedDescription)
        }
    }

    deinit { discard() }

    /// Writes `bytes` as the file `name` (no folder in it); a failure discards everything.
    public func write(_ bytes: [UInt8], as name: String) throws(FileWriteError) {
        let path = staging + "/" + name
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        let failure: String? = fd < 0 ? systemReason() : bytes.withUnsafeBytes { LockedFile.write(fd, $0) }
        if fd >= 0 { close(fd) }
        if let failure {
            discard()
            throw FileWriteError(.cannotWrite, path: output, "cannot write \(path) (disk full?)", reason: failure)
        }
        names.append(name)
    }

    /// Moves every file written into the folder of `output`, in the order written, then
    /// removes `leftovers` (files of an earlier, longer set), all before letting go of the
    /// lock. A failure discards what is not moved yet.
    public func commit(removing leftovers: [String] = []) throws(FileWriteError) {
        let folder = URL(fileURLWithPath: output).deletingLastPathComponent().path
        for name in names where rename(staging + "/" + name, folder + "/" + name) != 0 {
            let reason = systemReason()
            discard()
            throw FileWriteError(.cannotMove, path: output, "cannot move \(name) into \(folder): \(reason)", reason: reason)
        }
        for leftover in leftovers { try? FileManager.default.removeItem(atPath: leftover) }
        discard()
    }

    /// Removes the hidden folder (and what is left in it) and lets go of the lock. Safe to
    /// call more than once.
    public func discard() {
        try? FileManager.default.removeItem(atPath: staging)
        lock.discard()
    }
}
