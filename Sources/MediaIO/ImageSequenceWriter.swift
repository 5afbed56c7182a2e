import Foundation
import MediaFormat

/// Writes an image sequence: frame n (from 0) as the file the pattern numbers n + 1 (FFmpeg's
/// image2 starts at 1: `shot%04d.png` → `shot0001.png`, …). The files are written into a hidden
/// folder beside them (`.shot%04d.png.partial-frames`) and moved into place one by one by
/// `finish()`, which then removes the files of the pattern numbered past the last frame (left
/// by a longer render), so the folder holds exactly this sequence. On a failure or `discard()`
/// the hidden folder goes and an existing sequence is left as it was. A locked `PartialFile`
/// keeps a second writer of the same pattern out.
public final class ImageSequenceWriter {
    public let pattern: String
    private let lock: PartialFile
    private let staging: String
    private var written: [String] = []
    private var finished = false

    /// The first frame's number.
    public static let firstNumber = 1

    /// Starts writing the sequence `pattern` names. Throws `MediaError`.
    public init(pattern: String) throws {
        guard ImageSequencePattern.has(pattern) else {
            throw MediaError(.invalidArgument, path: pattern, "an image sequence's name needs a frame number pattern (%04d)")
        }
        self.pattern = pattern
        lock = try PartialFile(output: pattern)
        staging = lock.path + "-frames"
        do {
            try? FileManager.default.removeItem(atPath: staging) // a killed writer's
            try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: false)
        } catch {
            lock.discard()
            throw MediaError(.writingFailed, path: pattern, "cannot make the folder \(staging): \(error.localizedDescription)")
        }
    }

    deinit { if !finished { discard() } }

    /// Writes frame `index` (0, 1, … in order) as its file.
    public func write(_ bytes: [UInt8], frame index: Int) throws {
        precondition(index == written.count, "frame \(index) given where frame \(written.count) is next")
        let name = ImageSequencePattern.fileName(pattern, number: index + Self.firstNumber)
        let path = URL(fileURLWithPath: staging).appendingPathComponent(name).path
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            discard()
            throw MediaError(.writingFailed, path: pattern, "cannot write \(path) (disk full?)")
        }
        written.append(name)
    }

    /// Moves every frame into place and removes the pattern's files numbered past the last.
    public func finish() throws {
        let folder = URL(fileURLWithPath: pattern).deletingLastPathComponent()
        for name in written where rename(URL(fileURLWithPath: staging).appendingPathComponent(name).path,
                                         folder.appendingPathComponent(name).path) != 0 {
            let reason = String(cString: strerror(errno))
            discard()
            throw MediaError(.writingFailed, path: pattern, "cannot move \(name) into \(folder.path): \(reason)")
        }
        let kept = Set(written.map { folder.appendingPathComponent($0).path })
        for stale in ImageSequencePattern.files(of: pattern) ?? [] where !kept.contains(stale) { try? FileManager.default.removeItem(atPath: stale) }
        finished = true
        discard()
    }

    /// Removes the hidden folder (and what is left in it). Safe to call more than once.
    public func discard() {
        try? FileManager.default.removeItem(atPath: staging)
        lock.discard()
    }
}
