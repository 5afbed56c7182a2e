import CompositionGraph
import Dispatch
import Foundation
import ShaderRendering
import TransitionKernels

/// A mixing transition in one frame: its kernel (with the transition's parameters) or a user's
/// shader (with its uniforms), and its progress at the frame's time.
struct PlannedMix: Sendable {
    enum Mixing: Sendable {
        case kernel(any TransitionKernel)
        case shader(ShaderTransition, uniforms: [String: [Double]])
    }

    let mixing: Mixing
    let progress: Double

    /// The graph's mix at time `t` on a frame of `size`; nil when the render does not know the
    /// kernel (the compiler only writes kernels it knows), the shader no longer compiles or a
    /// picture parameter cannot be drawn (`ShaderShelf.prepare` and `TransitionMaps.prepare`
    /// stop the render before that).
    init?(_ mix: TransitionMix, progress: Double, size: PixelSize) {
        if let call = mix.shader {
            guard let shader = try? ShaderShelf.shared.transition(for: call) else { return nil }
            mixing = .shader(shader, uniforms: call.uniforms)
        } else {
            var values: [String: TransitionValue] = [:]
            for (name, value) in mix.parameters {
                guard let known = Self.kernelValue(value, size: size) else { return nil }
                values[name] = known
            }
            guard let kernel = TransitionCatalogue.kernel(mix.kernel, values) else { return nil }
            mixing = .kernel(kernel)
        }
        self.progress = progress
    }

    private static func kernelValue(_ value: TransitionParameterValue, size: PixelSize) -> TransitionValue? {
        switch value {
        case .picture(let ref): (try? TransitionMaps.shared.picture(of: ref, size: size)).map { .picture($0) }
        case .number(let v): .number(v)
        case .integer(let v): .integer(v)
        case .boolean(let v): .boolean(v)
        case .color(let c): .color(SIMD4(c.red, c.green, c.blue, c.alpha))
        case .vector(let x, let y): .vector(SIMD2(x, y))
        }
    }
}

/// Where a mixing transition reads one of its two pictures: the canvas the layer was drawn on
/// (over what lies beneath it), or the layer's opaque Y′CbCr frame when it fills the canvas
/// exactly, read straight from the frame to the values a copy onto the canvas would hold
/// (`UnscaledCopy`), with no canvas between.
enum MixSource {
    case canvas(PremultipliedImage)
    case frame(YUVFrame)
}

/// Runs a mixing transition for the compositor's premultiplied Y′CbCrA canvas: both pictures
/// are read into R′G′B′A floats (the kernels' maths is gl-transitions', in R′G′B′), mixed, and
/// the result written to the canvas as premultiplied Y′CbCrA. Its three float pictures are
/// made at the first mixing frame and reused. Each step runs on bands of rows on every core.
/// Not thread-safe: one per compositor.
final class TransitionMixer {
    private let width: Int, height: Int
    private lazy var from = TransitionPicture(width: width, height: height)
    private lazy var to = TransitionPicture(width: width, height: height)
    private lazy var mixed = TransitionPicture(width: width, height: height)
    /// The kernels' scratch pictures, kept for the next frames.
    private let workspace = TransitionWorkspace()

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Writes to `canvas` the kernel's mix of `outgoing` and `incoming` (each the layer over
    /// what lies beneath it); `canvas` may be `outgoing`'s.
    func mix(_ mix: PlannedMix, outgoing: MixSource, incoming: MixSource, into canvas: PremultipliedImage) {
        let from = from, to = to, mixed = mixed
        Self.inBands(height) { rows in
            Self.read(outgoing, rows, into: from)
            Self.read(incoming, rows, into: to)
        }
        switch mix.mixing {
        case .kernel(let kernel):
            // A kernel may read both pictures anywhere: they are whole before it starts.
            let height = height
            TransitionRenderer.render(kernel, progress: mix.progress, from: from, to: to, into: mixed, workspace: workspace,
                                      bands: { body in Self.inBands(height, body) })
        case .shader(let shader, let uniforms):
            // It compiled and drew at `ShaderShelf.prepare`; OpenGL failing afterwards is no project's doing.
            do {
                try shader.render(progress: mix.progress, values: uniforms, from: from, to: to, into: mixed)
            } catch {
                preconditionFailure("a GLSL transition that compiled could not draw: \(error)")
            }
        }
        Self.inBands(height) { rows in Self.write(mixed, rows, into: canvas) }
    }

    /// Runs `body` on bands of rows 0..<height on every core, returning when all are done.
    /// Each pixel is computed alone, so the bands change nothing of the result.
    private static func inBands(_ height: Int, _ body: @Sendable (Range<Int>) -> Void) {
        let bands = min(height, 4 * ProcessInfo.processInfo.activeProcessorCount)
        DispatchQueue.concurrentPerform(iterations: bands) { band in
            body(height * band / bands..<height * (band + 1) / bands)
        }
    }

    // BT.709, as the canvas is (YCbCrMatrix.bt709): kg = 1 − kr − kb.
    private static let kr: Float = 0.2126, kb: Float = 0.0722, kg: Float = 1 - kr - kb

    /// Rows `rows` of `source` into `picture`.
    private static func read(_ source: MixSource, _ rows: Range<Int>, into picture: TransitionPicture) {
        switch source {
        case .canvas(let image):
            for y in rows {
                let row = image.pixels + y * image.stride, out = picture.pixels + y * picture.width
                for x in 0..<image.width {
                    let p = row + 4 * x
                    out[x] = color(p[0], p[1], p[2], p[3])
                }
            }
        case .frame(let frame):
            for y in rows {
                let out = picture.pixels + y * picture.width
                UnscaledCopy.forEachPixel(ofRow: y, of: frame, columns: 0..<frame.width) { x, luma, cb, cr in
                    out[x] = color(luma, cb, cr, 255)
                }
            }
        }
    }

    /// Premultiplied limited-range Y′CbCrA bytes (offsets premultiplied too) → premultiplied
    /// R′G′B′A, each colour clamped to 0…alpha: what gl-transitions reads from its 8-bit
    /// textures, so that a kernel or shader that is not linear in colour (a threshold, a square
    /// root) sees what it would there, not the out-of-gamut values 4:2:0 chroma leaves at edges.
    @inline(__always) private static func color(_ y: UInt8, _ cb: UInt8, _ cr: UInt8, _ alpha: UInt8) -> SIMD4<Float> {
        let a = Float(alpha) / 255
        let luma = (Float(y) - 16 * a) / 219, cb = (Float(cb) - 128 * a) / 224, cr = (Float(cr) - 128 * a) / 224
        let r = luma + 2 * (1 - kr) * cr, b = luma + 2 * (1 - kb) * cb
        return pointwiseMin(pointwiseMax(SIMD4(r, (luma - kr * r - kb * b) / kg, b, a), .zero), SIMD4(a, a, a, 1))
    }

    /// The inverse of `read`, rounded to the nearest byte.
    private static func write(_ picture: TransitionPicture, _ rows: Range<Int>, into image: PremultipliedImage) {
        @inline(__always) func byte(_ value: Float) -> UInt8 { UInt8(min(max(value + 0.5, 0), 255)) }
        for y in rows {
            let row = image.pixels + y * image.stride, source = picture.pixels + y * picture.width
            for x in 0..<image.width {
                let c = source[x], a = c.w
                let luma = kr * c.x + kg * c.y + kb * c.z
                let p = row + 4 * x
                p[0] = byte(16 * a + 219 * luma)
                p[1] = byte(128 * a + 224 * (c.z - luma) / (2 * (1 - kb)))
                p[2] = byte(128 * a + 224 * (c.x - luma) / (2 * (1 - kr)))
                p[3] = byte(255 * a)
            }
        }
    }
}
