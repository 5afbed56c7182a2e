#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AtomicFiles
import Foundation

/// The media cache's folder: files named by the SHA-256 of their bytes (with the URL's
/// extension, a hint for FFmpeg's demuxers), and `index.json` from each URL to its file, its
/// validators and when it was last used. Every change happens under an exclusive `flock` on
/// `index.lock`, so several Reel processes share one folder; a file is renamed into place and
/// indexed under that lock, so the folder never holds a half-written or unindexed file for long.
struct CacheIndex {
    struct Entry: Codable, Equatable {
        /// A file name in the folder: `<sha256>.<ext>`.
        var file: String
        var size: Int64
        var validators: Validators
        /// Seconds since 1970: the least recently used entries are evicted first.
        var lastUsed: Double
    }

    let folder: String
    private(set) var entries: [String: Entry]

    func path(of entry: Entry) -> String { folder + "/" + entry.file }

    /// The entry for `url` whose file is still there.
    func entry(for url: String) -> Entry? {
        entries[url].flatMap { FileManager.default.fileExists(atPath: path(of: $0)) ? $0 : nil }
    }

    mutating func touch(_ url: String) { entries[url]?.lastUsed = Date().timeIntervalSince1970 }

    mutating func set(_ entry: Entry, for url: String) { entries[url] = entry }

    /// Drops the least recently used entries (not those in `keep`) until the files take at most
    /// `maxBytes`, and removes files no entry names (left by a process killed mid-download).
    mutating func evict(toFit maxBytes: Int64, keep: Set<String>) {
        var sizes: [String: Int64] = [:]
        for entry in entries.values { sizes[entry.file] = entry.size }
        var total = sizes.values.reduce(0, +)
        for (url, entry) in entries.sorted(by: { ($0.value.lastUsed, $0.key) < ($1.value.lastUsed, $1.key) }) where total > maxBytes {
            guard !keep.contains(url) else { continue }
            entries[url] = nil
            if !entries.values.contains(where: { $0.file == entry.file }) {
                total -= entry.size
                try? FileManager.default.removeItem(atPath: path(of: entry))
            }
        }
        let named = Set(entries.values.map(\.file))
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where Self.isMediaFile(name) && !named.contains(name) {
            try? FileManager.default.removeItem(atPath: folder + "/" + name)
        }
    }

    /// `<64 hex digits>` with an optional extension.
    static func isMediaFile(_ name: String) -> Bool {
        let stem = name.split(separator: ".", maxSplits: 1).first ?? ""
        return stem.count == 64 && stem.allSatisfy(\.isHexDigit)
    }

    /// Runs `body` with the folder's index locked, and saves what it leaves in the index.
    static func withLocked<T>(folder: String, _ body: (inout CacheIndex) throws(CacheFailure) -> T) throws(CacheFailure) -> T {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw CacheFailure("cannot make the media cache folder \(folder): \(error.localizedDescription)")
        }
        let lockPath = folder + "/index.lock"
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CacheFailure("cannot open \(lockPath): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard flock(fd, LOCK_EX) == 0 else { throw CacheFailure("cannot lock \(lockPath): \(String(cString: strerror(errno)))") }
        let indexPath = folder + "/index.json"
        let saved = FileManager.default.contents(atPath: indexPath).flatMap { try? JSONDecoder().decode(Saved.self, from: $0) }
        var index = CacheIndex(folder: folder, entries: saved?.entries ?? [:])
        let result = try body(&index)
        if index.entries != saved?.entries {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            do {
                try PartialFile.write(try encoder.encode(Saved(entries: index.entries)), to: indexPath, sync: false)
            } catch {
                throw CacheFailure("cannot write the media cache index \(indexPath)")
            }
        }
        return result
    }

    /// `index.json`: a version, so a later format can tell an old index from its own.
    private struct Saved: Codable {
        var version = 1
        var entries: [String: Entry]
    }
}

/// The cache folder cannot be used.
struct CacheFailure: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
