import CompositionGraph
import MediaFormat
import MediaIO

extension CompositionGraph {
    /// Whether the output keeps an alpha channel: its video's pixel format has one (the project
    /// decoder picks one for a background that is not opaque: docs/format.md). Its frames then
    /// carry an alpha plane and are composited on the premultiplied canvas, overlays included
    /// (docs/render.md, *Alpha*); an opaque output's frames have no alpha plane at all.
    var keepsAlpha: Bool { output.video.flatMap { PixelFormat(name: $0.pixelFormat) }?.hasAlpha ?? false }

    /// The format of the frames the compositor hands the encoder.
    var frameFormat: PixelFormat { keepsAlpha ? .yuva420p : .yuv420p }

    /// The graph with an opaque output (what shows through a transparent background is black):
    /// how a nested project is drawn as a clip.
    var opaque: CompositionGraph {
        guard keepsAlpha, var video = output.video else { return self }
        var g = self
        video.pixelFormat = VideoCodec.h264.defaultPixelFormat
        g.output.video = video
        return g
    }
}
