import CompositionGraph
import LookKernels
import MediaIO
import MediaTime
import OverlayRendering
@testable import RenderEngine
import Testing
import TestSupport

/// Masks through the whole frame path (planning, coverage, general compositing, 4:2:0):
/// pixel values checked against references worked out here.
@Suite struct MaskTests {
    static let size = PixelSize(width: 128, height: 64)
    static let white = Color(red: 1, green: 1, blue: 1, alpha: 1)

    /// A graph of one colour clip (2 s at 25 fps, filling the frame) over black, masked.
    static func graph(_ color: Color = white, mask: LayerMask) -> CompositionGraph {
        let range = TimeRange(start: .zero, duration: MediaTime(seconds: 2))
        let track = CompositionTrack(id: 1, kind: .video, name: "video 1", segments: [Segment(target: range, content: .color(color))])
        var masked = layer(1, size: size, fit: .fill)
        masked.mask = mask.sliced(to: range)
        return CompositionGraph(
            composition: Composition(duration: range.duration, tracks: [track]),
            videoComposition: VideoComposition(renderSize: size, frameDuration: MediaTime(1, 25), background: .black,
                                               instructions: [VideoInstruction(timeRange: range, background: .black, layers: [masked])]),
            audioMix: AudioMix(tracks: []), overlays: [], fonts: [], output: EndToEnd.output(size: size))
    }

    static func box(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> MaskBox {
        MaskBox(x: .constant(x), y: .constant(y), width: .constant(w), height: .constant(h))
    }

    /// Luma, Cb and Cr planes of frame `n`, packed.
    static func planes(_ graph: CompositionGraph, frame n: Int64) throws -> [[UInt8]] {
        let frame = try FrameGenerator(graph: graph).frame(n)
        return (0..<3).map { frame.packedBytes(plane: $0) }
    }

    /// A white clip under a feathered rectangle, over black: outside is the background
    /// (Y′ 16), the middle is the clip (Y′ 235), and between them every luma is what
    /// premultiplied "over" gives for the mask's coverage there (16 + 219 × c / 255, ±1);
    /// the ramp rises monotonically, is symmetric about the centre, and chroma stays
    /// neutral all along it (premultiplied offsets handled right at the soft edge).
    @Test func featheredRectangleRampsPremultipliedAndSymmetric() throws {
        let mask = LayerMask(source: .rect(Self.box(32, 16, 64, 32), cornerRadius: .constant(0)), feather: .constant(8))
        let (luma, cb, cr) = try { let p = try Self.planes(Self.graph(mask: mask), frame: 0); return (p[0], p[1], p[2]) }()
        let coverage = MaskOutline.rect(x: 32, y: 16, width: 64, height: 32, cornerRadius: 0).coverage(width: 128, height: 64, feather: 8)
        let w = Self.size.width, row = 32
        #expect(luma[row * w + 64] == 235, "the middle shows the clip")
        #expect(luma[row * w + 0] == 16 && luma[0] == 16, "far outside is the background")
        var softPixels = 0
        for x in 0..<w {
            let c = Int(coverage[row * w + x]), y = Int(luma[row * w + x])
            let expected = 16 + (219 * c + 127) / 255
            #expect(abs(y - expected) <= 1, "x \(x): luma \(y), coverage \(c) gives \(expected)")
            if c > 0 && c < 255 { softPixels += 1 }
            if x > 0 && x <= 64 { #expect(y >= Int(luma[row * w + x - 1]), "the ramp falls at x \(x)") }
            #expect(luma[row * w + x] == luma[row * w + (w - 1 - x)], "not symmetric at x \(x)")
        }
        // About feather pixels on each side of each of the two edges, a few more for the Gaussian's tails.
        #expect(softPixels >= 24 && softPixels <= 44, "\(softPixels) soft pixels in the row")
        // At the outline the coverage is about half.
        #expect((110...145).contains(Int(luma[row * w + 32])), "luma at the left outline: \(luma[row * w + 32])")
        #expect(cb.allSatisfy { abs(Int($0) - 128) <= 1 } && cr.allSatisfy { abs(Int($0) - 128) <= 1 }, "chroma off neutral")
    }

    /// Without feather the edge is the anti-aliased outline: on pixel boundaries, sharp.
    @Test func sharpRectangleCutsOnItsEdges() throws {
        let mask = LayerMask(source: .rect(Self.box(32, 16, 64, 32), cornerRadius: .constant(0)))
        let luma = try Self.planes(Self.graph(mask: mask), frame: 0)[0], w = Self.size.width
        #expect(luma[32 * w + 31] == 16 && luma[32 * w + 32] == 235 && luma[32 * w + 95] == 235 && luma[32 * w + 96] == 16)
        #expect(luma[15 * w + 64] == 16 && luma[16 * w + 64] == 235 && luma[47 * w + 64] == 235 && luma[48 * w + 64] == 16)
    }

    /// An inverted ellipse over the whole frame: its centre shows the background, the
    /// corners the clip (a red clip: its own Y′CbCr there).
    @Test func invertedEllipseShowsTheCorners() throws {
        let red = Color(red: 1, green: 0, blue: 0, alpha: 1)
        let mask = LayerMask(source: .ellipse(Self.box(0, 0, 128, 64)), invert: true)
        let p = try Self.planes(Self.graph(red, mask: mask), frame: 0), w = Self.size.width
        let redYUV = YCbCrMatrix.bt709.yuv(of: red)
        #expect(p[0][32 * w + 64] == 16, "centre: \(p[0][32 * w + 64])")
        #expect(p[0][0] == redYUV.y && p[0][63 * w + 127] == redYUV.y, "corners: \(p[0][0]), \(p[0][63 * w + 127])")
        #expect(p[1][0] == redYUV.cb && p[2][0] == redYUV.cr)
    }

    /// A rectangle's x animates like any property: 0 at 0 s, 64 at 1 s.
    @Test func animatedRectangleMoves() throws {
        let x = Animation.ramp(from: 0, to: 64, over: TimeRange(start: .zero, duration: MediaTime(seconds: 1)))
        let box = MaskBox(x: x, y: .constant(0), width: .constant(32), height: .constant(64))
        let graph = Self.graph(mask: LayerMask(source: .rect(box, cornerRadius: .constant(0))))
        let w = Self.size.width
        let first = try Self.planes(graph, frame: 0)[0], half = try Self.planes(graph, frame: 12)[0], last = try Self.planes(graph, frame: 25)[0]
        #expect(first[10 * w + 0] == 235 && first[10 * w + 31] == 235 && first[10 * w + 32] == 16)
        // 0.48 s: x = 30.72, so pixel 30 is partly covered, 31…61 wholly.
        #expect(half[10 * w + 29] == 16 && half[10 * w + 31] == 235 && half[10 * w + 62] > 16 && half[10 * w + 63] == 16)
        #expect(last[10 * w + 63] == 16 && last[10 * w + 64] == 235 && last[10 * w + 95] == 235 && last[10 * w + 96] == 16)
    }

    /// A luma matte video (lossless): its left half white for the first second, its right
    /// half after. The clip shows where the matte is white, at the same timeline time.
    @Test func lumaMatteFollowsTheMatteVideo() throws {
        let path = try MediaFactory.file("mask-matte-halves.mkv", [
            "-f", "lavfi", "-i",
            "color=black:s=128x64:r=25:d=2,format=yuv420p,drawbox=x=0:y=0:w=64:h=64:color=white:t=fill:enable='lt(t,1)',drawbox=x=64:y=0:w=64:h=64:color=white:t=fill:enable='gte(t,1)'",
            "-c:v", "ffv1"])
        let matte = MaskMatte(media: try .probed("matte", path), sourceStart: .zero, timelineStart: .zero, channel: .luma)
        let graph = Self.graph(mask: LayerMask(source: .matte(matte)))
        let w = Self.size.width
        // The matte's white arrives as Y′ 233 (the decoder's conversion of the untagged file),
        // coverage 253 of 255: the clip's white shows as 233 there.
        let early = try Self.planes(graph, frame: 5)[0], late = try Self.planes(graph, frame: 30)[0]
        #expect(early[20 * w + 10] == 233 && early[20 * w + 100] == 16, "0.2 s: \(early[20 * w + 10]), \(early[20 * w + 100])")
        #expect(late[20 * w + 10] == 16 && late[20 * w + 100] == 233, "1.2 s: \(late[20 * w + 10]), \(late[20 * w + 100])")
        // From 1 s into the matte: the later picture from the start.
        let shifted = MaskMatte(media: matte.media, sourceStart: MediaTime(seconds: 1), timelineStart: .zero, channel: .luma)
        let fromOne = try Self.planes(Self.graph(mask: LayerMask(source: .matte(shifted))), frame: 5)[0]
        #expect(fromOne[20 * w + 10] == 16 && fromOne[20 * w + 100] == 233)
    }

    /// Luma between black and white gives partial coverage: a grey matte of R′G′B′ 126
    /// (Y′ 124 in limited range) shows the white clip at 126/255, Y′ 16 + 219 × 126 / 255 ≈ 124.
    @Test func greyLumaIsPartialCoverage() throws {
        let path = try MediaFactory.file("mask-matte-grey.png", ["-f", "lavfi", "-i", "color=0x7e7e7e:s=128x64,format=rgb24", "-frames:v", "1"])
        let matte = MaskMatte(media: try .probed("grey", path), sourceStart: nil, timelineStart: .zero, channel: .luma)
        let luma = try Self.planes(Self.graph(mask: LayerMask(source: .matte(matte))), frame: 0)[0]
        #expect(luma.allSatisfy { abs(Int($0) - 124) <= 1 }, "luma \(Set(luma).sorted())")
    }

    /// An alpha matte (a PNG opaque on its left quarter only): the clip shows there alone.
    @Test func alphaMatteUsesTransparency() throws {
        let path = try MediaFactory.file("mask-matte-alpha.png", [
            "-f", "lavfi", "-i", "color=white:s=128x64,format=rgba,geq=r=255:g=255:b=255:a='if(lt(X,32),255,0)'", "-frames:v", "1"])
        let matte = MaskMatte(media: try .probed("alpha", path), sourceStart: nil, timelineStart: .zero, channel: .alpha)
        let luma = try Self.planes(Self.graph(mask: LayerMask(source: .matte(matte))), frame: 0)[0], w = Self.size.width
        #expect(luma[10 * w + 5] == 235 && luma[10 * w + 30] == 235 && luma[10 * w + 34] == 16 && luma[10 * w + 120] == 16)
    }

    /// A preset's smaller frame scales the mask with it: the half-size frame of a masked
    /// graph cuts at half the pixels.
    @Test func presetSizeScalesTheMask() throws {
        let mask = LayerMask(source: .rect(Self.box(32, 16, 64, 32), cornerRadius: .constant(0)))
        let small = Self.graph(mask: mask).resized(to: PixelSize(width: 64, height: 32))
        let luma = try Self.planes(small, frame: 0)[0]
        #expect(luma[16 * 64 + 15] == 16 && luma[16 * 64 + 16] == 235 && luma[16 * 64 + 47] == 235 && luma[16 * 64 + 48] == 16)
    }
}
