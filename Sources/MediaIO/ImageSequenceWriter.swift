import AtomicFiles
import Foundation
import MediaFormat

/// Writes an image sequence: frame n (from 0) as the file the pattern numbers n + 1 (FFmpeg's
/// image2 starts at 1: `shot%04d.png` → `shot0001.png`, …). The files are staged in a hidden
/// folder beside them (`StagedFiles`: `.shot%04d.png.partial-frames`, locked against a second
/// writer of the same pattern) and moved into place by `finish()`, which also removes the files
/// of the pattern numbered past the last frame (left by a longer render), so the folder holds
/// exactly this sequence. On a failure or `discard()` the hidden folder goes and an existing
/// sequence is left as it was.
public final class ImageSequenceWriter {
    public let pattern: String
    private let staged: StagedFiles

    /// The first frame's number.
    public static let firstNumber = 1

    /// Starts writing the sequence `pattern` names. Throws `MediaError`.
    public init(pattern: String) throws {
        guard ImageSequencePattern.has(pattern) else {
            throw MediaError(.invalidArgument, path: pattern, "an image sequence's name needs a frame number pattern (%04d)")
        }
        self.pattern = pattern
        do { staged = try StagedFiles(output: pattern) } catch { throw MediaError(error) }
    }

    /// Writes frame `index` (0, 1, … in order) as its file.
    public func write(_ bytes: [UInt8], frame index: Int) throws {
        precondition(index == staged.names.count, "frame \(index) given where frame \(staged.names.count) is next")
        do {
            try staged.write(bytes, as: ImageSequencePattern.fileName(pattern, number: index + Self.firstNumber))
        } catch {
            throw MediaError(error)
        }
    }

    /// Moves every frame into place and removes the pattern's files numbered past the last.
    public func finish() throws {
        let numbers = Self.firstNumber..<Self.firstNumber + staged.names.count
        let leftovers = (ImageSequencePattern.numberedFiles(of: pattern) ?? []).filter { !numbers.contains($0.number) }.map(\.path)
        do { try staged.commit(removing: leftovers) } catch { throw MediaError(error) }
    }

    /// Removes the hidden folder (and what is left in it). Safe to call more than once.
    public func discard() { staged.discard() }
}
