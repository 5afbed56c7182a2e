/// Runs a transition kernel over every pixel of a frame.
public enum TransitionRenderer {
    /// Writes rows `rows` (from the top) of `output`: each pixel the kernel's colour at its
    /// centre, clamped to 0…1 and to premultiplied form (no channel above alpha).
    public static func render(_ kernel: any TransitionKernel, progress: Double, from: TransitionPicture, to: TransitionPicture,
                              into output: TransitionPicture, rows: Range<Int>? = nil) {
        precondition(from.width == output.width && from.height == output.height && to.width == output.width && to.height == output.height,
                     "a transition's pictures have the frame's size")
        kernel.renderRows(progress: Float(min(max(progress, 0), 1)), from: from, to: to, into: output, rows: rows ?? 0..<output.height)
    }

    @inline(__always) public static func clampChannel(_ value: Float, _ alpha: Float) -> Float {
        value.isNaN ? 0 : min(max(value, 0), alpha)
    }
}

extension TransitionKernel {
    public func renderRows(progress: Float, from: TransitionPicture, to: TransitionPicture, into output: TransitionPicture, rows: Range<Int>) {
        let width = output.width, height = output.height
        let ratio = Float(width) / Float(height)
        let du = 1 / Float(width), dv = 1 / Float(height)
        for y in rows {
            let v = 1 - (Float(y) + 0.5) * dv
            let row = output.pixels + y * width
            for x in 0..<width {
                let c = color(at: SIMD2((Float(x) + 0.5) * du, v), progress: progress, ratio: ratio, from: from, to: to)
                let a = c.w.isNaN ? 0 : min(max(c.w, 0), 1)
                row[x] = SIMD4(TransitionRenderer.clampChannel(c.x, a), TransitionRenderer.clampChannel(c.y, a),
                               TransitionRenderer.clampChannel(c.z, a), a)
            }
        }
    }
}

/// Every transition kernel, in docs/format.md's order: a new one is its file in Kernels/ and
/// a line here.
public enum TransitionCatalogue {
    public static let all: [any TransitionKernel.Type] = [
        Circle.self,
        Directional.self,
        DirectionalWipe.self,
        DirectionalWarp.self,
        Wind.self,
        CircleOpen.self,
        CircleCrop.self,
        Radial.self,
        Angular.self,
        Pinwheel.self,
        Heart.self,
        PolkaDotsCurtain.self,
        RandomSquares.self,
        SquaresWire.self,
        WindowBlinds.self,
        WindowSlice.self,
        BowTieHorizontal.self,
        BowTieVertical.self,
        CrossZoom.self,
        SimpleZoom.self,
        ZoomInCircles.self,
        Dreamy.self,
        DreamyZoom.self,
        Cube.self,
        Doorway.self,
        Swap.self,
        Flyeye.self,
        GridFlip.self,
        InvertedPageCurl.self,
        Swirl.self,
        Ripple.self,
        WaterDrop.self,
        Morph.self,
        Mosaic.self,
        Pixelize.self,
        Hexagonalize.self,
        Kaleidoscope.self,
        Burn.self,
        ColorPhase.self,
        FadeColor.self,
        FadeGrayscale.self,
        LinearBlur.self,
        GlitchDisplace.self,
        GlitchMemories.self,
        CrossWarp.self,
        Crosshatch.self,
        LuminanceMelt.self,
        Perlin.self,
        RotateScaleFade.self,
        Squeeze.self,
        StereoViewer.self,
        UndulatingBurnOut.self,
        Bounce.self,
        ButterflyWaveScrawler.self,
        ColourDistance.self,
        CrazyParametricFun.self,
        DoomScreenTransition.self,
        MultiplyBlend.self,
        PolarFunction.self,
        Displacement.self,
        Luma.self,
    ]

    /// The kernel type whose name is `name`.
    public static func named(_ name: String) -> (any TransitionKernel.Type)? { all.first { $0.declaration.name == name } }

    /// The kernel `name` with `values` (missing ones at their defaults).
    public static func kernel(_ name: String, _ values: [String: TransitionValue]) -> (any TransitionKernel)? {
        named(name).map { $0.init(TransitionValues(values, filling: $0.declaration)) }
    }
}
