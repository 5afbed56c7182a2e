import CompositionGraph
import MediaIO
import MediaTime
import OverlayRendering

/// Pictures of media files themselves rather than of the output: `reel probe --frame` and
/// the timeline page's thumbnails. A video is read upright by `VideoReader` and converted
/// once (libswscale, chroma interpolated at full resolution); a still is drawn by
/// `StillPicture`, as clips and overlays draw it; a nested project is rendered. One reader per file stays open, so
/// pictures asked for in time order decode forward. Use from one thread.
public final class SourcePictures {
    /// Video readers, by `MediaReference.sourceKey`.
    private var readers: [String: VideoReader] = [:]
    /// Nested projects' frames, by `MediaReference.sourceKey`.
    private var nested: [String: NestedFrames] = [:]
    private let converter = VideoFrameConverter(fullChromaInterpolation: true)

    public init() {}

    /// The picture of `reference` on screen at source time `t` (a still's at any time),
    /// scaled to `size` (nil: its natural size) as 8-bit RGB, or RGBA with straight alpha when
    /// it has alpha. The frame's `time` is when the picture shown at `t` starts. Throws
    /// `MediaError` or `OverlayError` naming the file.
    public func picture(of reference: MediaReference, at t: MediaTime, size: PixelSize? = nil) throws -> VideoFrame {
        guard let natural = reference.facts.naturalSize else {
            throw MediaError(.noVideoStream, path: reference.path, "has no picture: it is \(reference.kind.withArticle) file")
        }
        let size = size ?? natural
        let format: PixelFormat = reference.facts.hasAlpha ? .rgba : .rgb24
        switch reference.kind {
        case .image, .svg:
            let canvas = try VideoFrame(width: size.width, height: size.height, pixelFormat: .bgra)
            let plane = canvas.plane(0)
            try StillPicture(path: reference.path).draw(into: plane.baseAddress, width: size.width, height: size.height,
                                                        stride: plane.bytesPerRow)
            if format == .rgba { Self.unpremultiply(plane) }
            let image = try VideoFrame(width: size.width, height: size.height, pixelFormat: format)
            try converter.convert(canvas, into: image)
            return image
        case .video, .audio:
            let upright = try reference.nested.map { try nestedFrames($0, key: reference.sourceKey).frame(at: t) } ?? reader(reference).frame(at: t)
            let image = try VideoFrame(width: size.width, height: size.height, pixelFormat: format, time: upright.time)
            try converter.convert(upright, into: image)
            return image
        }
    }

    private func reader(_ reference: MediaReference) throws -> VideoReader {
        if let known = readers[reference.sourceKey] { return known }
        let reader = try VideoReader(path: reference.path, options: .init(orientation: .display, sequenceRate: reference.sequenceRate))
        readers[reference.sourceKey] = reader
        return reader
    }

    private func nestedFrames(_ project: NestedProject, key: String) throws -> NestedFrames {
        if let known = nested[key] { return known }
        let frames = try NestedFrames(project, decoderThreads: 1)
        nested[key] = frames
        return frames
    }

    /// Premultiplied BGRA → straight BGRA, in place.
    private static func unpremultiply(_ plane: VideoFrame.Plane) {
        for y in 0..<plane.height {
            let row = (plane.baseAddress + y * plane.bytesPerRow).assumingMemoryBound(to: UInt8.self)
            for x in 0..<plane.width {
                let p = row + 4 * x, a = Int(p[3])
                guard a != 0 && a != 255 else { continue }
                for c in 0..<3 { p[c] = UInt8(min(255, (Int(p[c]) * 255 + a / 2) / a)) }
            }
        }
    }
}
