import Dispatch
import Foundation
import Synchronization

/// Tells when any of a set of files changes on disk. It polls each file's identity (device,
/// inode, size, modification time to the nanosecond) every `interval`: portable, cheap for the
/// few dozen files a project reads, and it sees editors that save by renaming a new file into
/// place. A file that appears or disappears counts as a change.
///
/// @unchecked: `timer` is a dispatch source (not marked Sendable on Linux), safe to cancel from any thread.
final class FileWatcher: @unchecked Sendable {
    private struct Stamp: Equatable {
        var device: UInt64, inode: UInt64, size: Int64, seconds: Int, nanoseconds: Int
    }

    private let stamps = Mutex<[String: Stamp?]>([:])
    private let timer: DispatchSourceTimer

    /// Starts polling; `changed` runs on a background queue, once per poll that saw changes.
    init(interval: DispatchTimeInterval = .milliseconds(100), changed: @escaping @Sendable () -> Void) {
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "reel.preview.watch"))
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [weak self] in
            if self?.poll() == true { changed() }
        }
        timer.resume()
    }

    /// Watches `paths` from now on. A path watched before keeps the stamp it had, so a change
    /// made while its reader was busy is still seen at the next poll.
    func watch(_ paths: [String]) {
        stamps.withLock { stamps in
            var next: [String: Stamp?] = [:]
            for path in paths { next[path] = stamps[path] ?? Self.stamp(path) }
            stamps = next
        }
    }

    func stop() { timer.cancel() }

    deinit { timer.cancel() }

    /// Stamps every file again; true when one differs from the last poll.
    private func poll() -> Bool {
        stamps.withLock { stamps in
            var changed = false
            for (path, old) in stamps {
                let now = Self.stamp(path)
                if now != old {
                    stamps[path] = now
                    changed = true
                }
            }
            return changed
        }
    }

    private static func stamp(_ path: String) -> Stamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Stamp(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                     seconds: info.st_mtim.tv_sec, nanoseconds: info.st_mtim.tv_nsec)
    }
}
