import AtomicFiles
import FileSafety
import Foundation
import MediaIO
import MediaTime
import ProjectDiff
import RenderEngine

extension ProjectComparison {
    /// The stills the page shows of a changed video range: its first, middle and last frame.
    static let stillLabels = ["start", "middle", "end"]

    /// Writes the review page of every rendition compared (one after another) to `path`,
    /// rendering only the stills it shows, at most `stillWidth` pixels wide, and measuring the
    /// loudness of only the changed audio ranges. Refuses a path either side reads.
    public func writePage(to path: String, stillWidth: Int = 960) throws {
        for r in renditions {
            try refuseUnsafeOutputs([path], reading: r.old.session.graph.readFiles(reader: "the old side's")
                                    + r.new.session.graph.readFiles(reader: "the new side's"), exampleName: "review.html")
        }
        let shown = try renditions.map { r in
            let old = try FrameGenerator(graph: r.old.session.graph), new = try FrameGenerator(graph: r.new.session.graph)
            return DiffPage.Rendition(name: r.rendition, difference: r.difference, media: try r.difference.changed.map { range in
                DiffPage.RangeMedia(stills: range.video ? try stills(of: range.range, old: old, new: new, width: stillWidth) : [],
                                    loudness: range.audio ? (try loudness(r.old, range.range), try loudness(r.new, range.range)) : nil)
            })
        }
        let html = DiffPage.html(old: renditions[0].old.input, new: renditions[0].new.input, renditions: shown)
        do {
            try PartialFile.write(Array(html.utf8), to: path, sync: false)
        } catch {
            throw MediaError(.writingFailed, path: path, "cannot write the page: \(error)")
        }
    }

    /// The first, middle and last frame of `range` on each side (a side whose timeline ends
    /// before that time has none), as PNGs.
    private func stills(of range: TimeRange, old: FrameGenerator, new: FrameGenerator, width: Int) throws -> [DiffPage.Still] {
        let d = new.frameDuration
        let first = range.start.frameIndex(frameDuration: d), last = max(first, range.end.frameCount(frameDuration: d) - 1)
        let frames = [first, (first + last) / 2, last]
        return try zip(Self.stillLabels, frames).map { label, n in
            let t = MediaTime.frame(n, duration: d)
            return DiffPage.Still(time: t, label: label, old: try png(old, at: t, width: width), new: try png(new, at: t, width: width))
        }
    }

    private func png(_ generator: FrameGenerator, at t: MediaTime, width: Int) throws -> [UInt8]? {
        guard t < generator.graph.duration else { return nil }
        let n = try generator.frameIndex(at: t)
        let size = StillSize(width: min(width, generator.graph.videoComposition.renderSize.width), height: nil).fitting(generator.graph.videoComposition.renderSize)
        return try PNGEncoder.encode(try generator.image(n, size: size))
    }

    /// The loudness of a side's mix over the part of `range` its timeline has.
    private func loudness(_ side: ComparedSide, _ range: TimeRange) throws -> Double? {
        guard side.session.graph.hasAudio, let heard = range.intersection(TimeRange(start: .zero, end: side.session.graph.duration)) else { return nil }
        return try side.session.loudness(of: heard)
    }
}
