import CompositionGraph
import Foundation
import MediaFormat
import MediaIO
import MediaTime
import OverlayRendering
import RegularFiles
import Synchronization

/// Reads the facts of a media file once, for the front end to check the project against and
/// for the graph to carry to the render. FFmpeg's probe says which streams the file holds
/// (its kind comes from them, never from its name); a still picture is then read exactly as
/// it will be shown (`StillPicture`), so a still that checks out also draws.
public struct MediaFactsReader: MediaFactsProvider {
    /// Facts already read, by path and stamp (facts follow from a file's bytes, so an unchanged
    /// stamp means unchanged facts): a batch compiling its rows, or a project naming one file
    /// twice, probes each file once. Shared by the copies of one reader.
    private let known = KnownFacts()

    public init() {}

    public func facts(forFileAt path: String, sequenceRate: Rational?) throws(MediaFactsError) -> MediaFacts {
        let stamp = try Self.stamp(of: path)
        let key = KnownFacts.Key(path: path, sequenceRate: sequenceRate)
        if let facts = known.facts(key, stamp: stamp) { return facts }
        let facts = try Self.read(path, sequenceRate: sequenceRate, stamp: stamp)
        known.remember(facts, key)
        return facts
    }

    private static func read(_ path: String, sequenceRate: Rational?, stamp: FileStamp) throws(MediaFactsError) -> MediaFacts {
        let info: MediaInfo
        do {
            info = try MediaProbe.probe(path: path, sequenceRate: sequenceRate)
        } catch {
            // A picture format FFmpeg does not open may still be one gdk-pixbuf or librsvg reads.
            if let still = try? StillPicture(path: path) { return Self.facts(of: still, stamp: stamp) }
            throw .unreadable(path: path, reason: (error as? MediaError)?.message ?? "\(error)")
        }
        if let problem = info.undecodableProblem { throw .unreadable(path: path, reason: problem) }
        if info.isStillImage {
            do {
                return Self.facts(of: try StillPicture(path: path), stamp: stamp)
            } catch {
                throw .unreadable(path: path, reason: error.description)
            }
        }
        let video = info.video?.video, audio = info.audio?.audio
        guard video != nil || audio != nil else {
            let kinds = info.streams.map(\.kind.rawValue).joined(separator: ", ")
            throw .unreadable(path: path, reason: "it holds no video or audio stream (only: \(kinds.isEmpty ? "nothing" : kinds))")
        }
        // What validates must render: decode the start of each stream a clip can use. A
        // picture that does not decode makes the file unusable; sound that does not is a fact
        // the clips that play it are checked against.
        if video != nil, let problem = trialDecodeProblem({ _ = try VideoReader(path: path, options: .init(sequenceRate: sequenceRate)).frame(at: .zero) }) {
            throw .unreadable(path: path, reason: "its video cannot be decoded: \(problem)")
        }
        return MediaFacts(kind: video == nil ? .audio : .video,
                          naturalSize: video.map { PixelSize(width: $0.displayWidth, height: $0.displayHeight) },
                          hasAlpha: video?.hasAlpha ?? false, duration: info.duration,
                          frameRate: video.flatMap { $0.averageFrameRate ?? $0.realFrameRate },
                          audio: audio.map { a in
                              AudioFacts(sampleRate: a.sampleRate, channels: a.channels, layout: a.channelLayout, undecodable: trialDecodeProblem {
                                  _ = try AudioReader(path: path, sampleRate: a.sampleRate, channels: a.channels)
                                      .read(range: TimeRange(start: .zero, duration: MediaTime(1, 10)))
                              })
                          },
                          startTimecode: info.startTimecode, stamp: stamp)
    }

    /// What went wrong decoding, in FFmpeg's words, or nil when `decode` succeeds.
    private static func trialDecodeProblem(_ decode: () throws -> Void) -> String? {
        do {
            try decode()
            return nil
        } catch let error as MediaError {
            let stream = error.stream.map { "stream \($0): " } ?? ""
            return stream + (error.ffmpegMessage.map { "\(error.message) (\($0))" } ?? error.message)
        } catch {
            return "\(error)"
        }
    }

    private static func facts(of still: StillPicture, stamp: FileStamp) -> MediaFacts {
        MediaFacts(kind: still.format == .svg ? .svg : .image, naturalSize: still.naturalSize, hasAlpha: still.hasAlpha,
                   duration: nil, audio: nil, stamp: stamp)
    }

    /// The file's size and modification time (for an image sequence, the total size and the
    /// latest time of its files); a missing path or a folder is an error.
    static func stamp(of path: String) throws(MediaFactsError) -> FileStamp {
        guard let files = ImageSequencePattern.files(of: path) else { return try fileStamp(path) }
        guard !files.isEmpty else { throw .missing(path: path) }
        var total = FileStamp(size: 0, modified: 0)
        for file in files {
            let stamp = try fileStamp(file)
            total = FileStamp(size: total.size + stamp.size, modified: max(total.modified, stamp.modified))
        }
        return total
    }

    /// The stamp of the regular file at `path`; a missing path, a folder or a FIFO is an error.
    private static func fileStamp(_ path: String) throws(MediaFactsError) -> FileStamp {
        do {
            let stamp = try RegularFile.stamp(at: path)
            return FileStamp(size: stamp.size, modified: stamp.modified)
        } catch .missing {
            throw .missing(path: path)
        } catch {
            throw .unreadable(path: path, reason: error.description)
        }
    }
}

private final class KnownFacts: Sendable {
    /// A file, and for an image sequence the rate it is read at (its duration follows from it).
    struct Key: Hashable {
        var path: String
        var sequenceRate: Rational?
    }

    private let known = Mutex<[Key: MediaFacts]>([:])

    func facts(_ key: Key, stamp: FileStamp) -> MediaFacts? {
        known.withLock { $0[key].flatMap { $0.stamp == stamp ? $0 : nil } }
    }

    func remember(_ facts: MediaFacts, _ key: Key) { known.withLock { $0[key] = facts } }
}
