import Foundation

/// A folder of parts (and kept join audio, and preview pieces) kept between renders, bounded in size: files are
/// touched when reused, and when the folder holds more than `limit` bytes the ones used
/// longest ago are removed. A file being written is a hidden temporary file, never counted
/// or removed here.
struct PartCache {
    let folder: String
    let limit: Int64

    /// The ending of a preview piece's name (`ExportSession.piece`).
    static let pieceSuffix = ".piece.mp4"

    /// Marks `paths` as just used.
    func touch(_ paths: [String]) -> PartCache {
        for path in paths { try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: path) }
        return self
    }

    /// Removes the parts used longest ago until the folder is within its limit.
    func evict() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var parts: [(path: String, size: Int64, used: Date)] = names.filter { [PartFile.suffix, PartFile.audioSuffix, Self.pieceSuffix].contains(where: $0.hasSuffix) }.compactMap { name in
            let path = URL(fileURLWithPath: folder).appendingPathComponent(name).path
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                  let size = (attributes[.size] as? NSNumber)?.int64Value, let used = attributes[.modificationDate] as? Date else { return nil }
            return (path, size, used)
        }
        var total = parts.reduce(0) { $0 + $1.size }
        parts.sort { ($0.used, $0.path) < ($1.used, $1.path) }
        for part in parts where total > limit {
            try? FileManager.default.removeItem(atPath: part.path)
            total -= part.size
        }
    }
}
