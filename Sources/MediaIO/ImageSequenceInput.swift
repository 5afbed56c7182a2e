import Foundation
import MediaFormat
import MediaTime

/// How an image sequence (`shot%04d.png`) is opened with FFmpeg's image2 demuxer: from its
/// lowest-numbered file, whatever that number is (image2 alone looks for a first file only
/// among 0–4, so a sequence from 1001 would not open), at the rate the project gives it, so
/// that the k-th file has the presentation time k / rate exactly (image2's time base is
/// 1 / rate and its timestamps count the files).
struct ImageSequenceInput {
    /// The sequence's files, in order: numbered without a gap.
    let files: [(number: Int, path: String)]
    /// The rate it is read at; nil: image2's default, 25.
    let rate: Rational?

    /// The sequence `path` names; nil when its file name has no frame number pattern. Throws
    /// when no file matches the pattern or the numbers skip one: image2 plays the files one a
    /// frame and would end early at a missing one, and every later file would show at the
    /// wrong time.
    init?(path: String, rate: Rational?) throws {
        guard let files = ImageSequencePattern.numberedFiles(of: path) else { return nil }
        guard let first = files.first, let last = files.last else {
            throw MediaError(.fileNotFound, path: path, "no file matches this image sequence pattern")
        }
        if let gap = zip(files, files.dropFirst()).first(where: { $1.number != $0.number + 1 }) {
            let missing = gap.0.number + 1
            let name = ImageSequencePattern.fileName(path, number: missing)
            let more = gap.1.number - missing > 1 ? " (and \(gap.1.number - missing - 1) more up to \(gap.1.number - 1))" : ""
            throw MediaError(.fileNotFound, path: path,
                             "the image sequence's numbers run from \(first.number) to \(last.number) but \(name) is missing\(more): a sequence shows one file a frame, so its numbers may not skip one")
        }
        self.files = files
        self.rate = rate
    }

    /// The first file: it stands for the sequence in the checks made before FFmpeg opens it.
    var firstFile: String { files[0].path }

    /// The image2 options (`avformat_open_input`'s dictionary).
    var demuxerOptions: [(key: String, value: String)] {
        var options = [(key: "start_number", value: String(files[0].number))]
        if let rate { options.append((key: "framerate", value: "\(rate.numerator)/\(rate.denominator)")) }
        return options
    }
}
