import CompositionGraph
import MediaIO
import MediaTime
import OverlayRendering

/// Which frames a series of thumbnails shows.
public enum ThumbnailSpacing: Equatable, Sendable {
    /// The frames at 0, step, 2 × step, … before the end.
    case every(MediaTime)
    /// `n` frames, one in the middle of each of `n` equal parts of the timeline.
    case count(Int)
}

extension FrameGenerator {
    /// The output frames of `spacing`, in order, without repeats.
    public func frames(_ spacing: ThumbnailSpacing) -> [Int64] {
        var times: [MediaTime] = []
        switch spacing {
        case .every(let step):
            precondition(step.isPositive, "thumbnail step \(step)")
            var t = MediaTime.zero
            while t < graph.duration {
                times.append(t)
                t += step
            }
        case .count(let n):
            precondition(n > 0, "thumbnail count \(n)")
            times = (0..<Int64(n)).map { graph.duration * Rational(2 * $0 + 1, 2 * Int64(n)) }
        }
        var frames: [Int64] = []
        for t in times {
            let n = t.frameIndex(frameDuration: frameDuration)
            if frames.last != n { frames.append(n) }
        }
        return frames
    }

    /// The caption under a thumbnail: its time as a clock and its frame number.
    public func caption(ofFrame n: Int64) -> String { "\(TimeNotation.clock(time(ofFrame: n)))  #\(n)" }

    /// A contact sheet of `frames`, each scaled to `size` with its caption under it, as 8-bit
    /// RGB. Throws `RenderError`.
    public func contactSheet(of frames: [Int64], size: PixelSize, columns: Int, title: String?) throws -> VideoFrame {
        let tiles = try frames.map { n in
            let image = try self.image(n, size: size, format: .bgra)
            return ContactSheet.Tile(width: size.width, height: size.height, bgra: image.packedBytes(plane: 0), caption: caption(ofFrame: n))
        }
        var style = ContactSheet.Style()
        style.columns = columns
        do {
            let sheet = try ContactSheet.draw(tiles, title: title, style: style, fonts: FontCatalog(fontFiles: []))
            let bgra = try VideoFrame(width: sheet.width, height: sheet.height, pixelFormat: .bgra)
            let target = bgra.plane(0)
            sheet.withUnsafeBytes { source in
                for row in 0..<sheet.height {
                    (target.baseAddress + row * target.bytesPerRow).copyMemory(from: source.baseAddress! + row * sheet.stride, byteCount: 4 * sheet.width)
                }
            }
            let rgb = try VideoFrame(width: sheet.width, height: sheet.height, pixelFormat: .rgb24)
            try VideoFrameConverter().convert(bgra, into: rgb)
            return rgb
        } catch {
            throw RenderError.invalidSettings("contact sheet: \(error)")
        }
    }
}
