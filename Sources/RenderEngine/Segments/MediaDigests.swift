import AtomicFiles
import Digest
import Foundation
import MediaFormat
import MediaIO
import Synchronization

/// The SHA-256 of files' bytes, remembered by path, device, inode, size and modification time
/// in a small JSON file, so a re-render hashes only what changed. Safe to delete; shared by
/// concurrent renders (each writes the whole file atomically; a lost update costs a re-hash).
public final class MediaDigests: Sendable {
    private let file: String?
    private let known: Mutex<[String: String]>

    /// `file`: where digests are remembered; nil keeps them in memory only.
    public init(file: String?) {
        self.file = file
        known = Mutex(file.flatMap { FileManager.default.contents(atPath: $0) }
            .flatMap { try? JSONDecoder().decode([String: String].self, from: $0) } ?? [:])
    }

    /// The digest of the file at `path` (of an image sequence: of its files' digests, in
    /// order). Throws when it cannot be read.
    public func digest(of path: String) throws -> String {
        if let files = ImageSequencePattern.files(of: path) {
            var hash = SHA256()
            for file in files { hash.update(try digest(of: file) + "\n") }
            return hash.hexDigest()
        }
        let key = try Self.stamp(of: path)
        if let d = known.withLock({ $0[key] }) { return d }
        let d = try SHA256.hexDigest(ofFileAt: path)
        known.withLock { $0[key] = d }
        return d
    }

    /// The file's path, device, inode, size and modification time: what tells, without reading
    /// it, that a file is the same as before (of an image sequence: of all its files). An
    /// identity for parts that live only as long as one render.
    public static func stamp(of path: String) throws -> String {
        if let files = ImageSequencePattern.files(of: path) { return try files.map(stamp(of:)).joined(separator: "\n") }
        var s = stat()
        guard stat(path, &s) == 0 else { throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path]) }
        return "\(path)\u{0}\(s.st_dev):\(s.st_ino):\(s.st_size):\(s.st_mtim.tv_sec).\(s.st_mtim.tv_nsec)"
    }

    /// Writes what is known to the file (atomically).
    public func save() {
        guard let file, let data = try? JSONEncoder().encode(known.withLock({ $0 })) else { return }
        try? PartialFile.write(data, to: file, sync: false)
    }
}
