import CompositionGraph
import MediaTime
import Synchronization

/// Media facts for exporting a project whose media are not on this machine (an EDL or an
/// OpenTimelineIO file only names them): a file that is missing is taken as a long video with
/// sound and no start timecode, and noted so that the export can say so. Files that exist are
/// read by `base`.
public final class AbsentMediaFacts: MediaFactsProvider {
    private let base: any MediaFactsProvider
    private let taken = Mutex<[String]>([])

    /// Paths taken as placeholders, in the order asked.
    public var missing: [String] { taken.withLock { $0 } }

    public init(base: any MediaFactsProvider) { self.base = base }

    public func facts(forFileAt path: String, sequenceRate: Rational?) throws(MediaFactsError) -> MediaFacts {
        do {
            return try base.facts(forFileAt: path, sequenceRate: sequenceRate)
        } catch {
            guard case .missing = error else { throw error }
            taken.withLock { $0.append(path) }
            return MediaFacts(kind: .video, naturalSize: PixelSize(width: 1920, height: 1080), duration: MediaTime(seconds: 24 * 3600),
                              audio: AudioFacts(sampleRate: 48000, channels: 2, layout: "stereo"), stamp: FileStamp(size: 0, modified: 0))
        }
    }
}
