/// Runs a transition kernel over every pixel of a frame.
public enum TransitionRenderer {
    /// Writes `output`: each pixel the kernel's colour at its centre, clamped to 0…1 and to
    /// premultiplied form (no channel above alpha). `bands` runs the kernel's passes over rows
    /// (by default all of them at once on this thread); `workspace` holds its scratch pictures
    /// (pass the same one for every frame of a render).
    public static func render(_ kernel: any TransitionKernel, progress: Double, from: TransitionPicture, to: TransitionPicture,
                              into output: TransitionPicture, workspace: TransitionWorkspace = TransitionWorkspace(),
                              bands: TransitionBands? = nil) {
        precondition(from.width == output.width && from.height == output.height && to.width == output.width && to.height == output.height,
                     "a transition's pictures have the frame's size")
        let height = output.height
        kernel.render(progress: Float(min(max(progress, 0), 1)), from: from, to: to, into: output, workspace: workspace,
                      bands: bands ?? { body in body(0..<height) })
    }

    /// A kernel's colour as the renderer writes it: alpha clamped to 0…1 (NaN to 0), each
    /// colour channel to 0…alpha (NaN to 0).
    @inline(__always) public static func stored(_ c: SIMD4<Float>) -> SIMD4<Float> {
        let a = c.w.isNaN ? 0 : min(max(c.w, 0), 1)
        return SIMD4(clampChannel(c.x, a), clampChannel(c.y, a), clampChannel(c.z, a), a)
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
                row[x] = TransitionRenderer.stored(color(at: SIMD2((Float(x) + 0.5) * du, v), progress: progress, ratio: ratio, from: from, to: to))
            }
        }
    }

    public func render(progress: Float, from: TransitionPicture, to: TransitionPicture, into output: TransitionPicture,
                       workspace: TransitionWorkspace, bands: TransitionBands) {
        bands { rows in renderRows(progress: progress, from: from, to: to, into: output, rows: rows) }
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

/// A kernel whose pixels share what only the progress fixes (eases, the trigonometry of the
/// progress, tables by column): `frame` works it out once per frame and `color(at:_:…)` reads
/// it, with the same arithmetic as the one-pixel `color(at:progress:…)` it stands for.
protocol FrameKernel: TransitionKernel {
    associatedtype Frame
    /// What every pixel of the frame at `progress` shares, for a frame `width` pixels wide.
    func frame(progress: Float, ratio: Float, width: Int) -> Frame
    /// The colour at `uv` of pixel column `column` (of a frame `width` wide as `frame` had it).
    func color(at uv: SIMD2<Float>, column: Int, _ frame: Frame, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float>
}

extension FrameKernel {
    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        // One pixel alone (the column whose entries of a table it would read).
        let width = from.width, column = uv.x.isFinite ? Int(min(max(uv.x * Float(width), 0), Float(width - 1))) : 0
        return color(at: uv, column: column, frame(progress: progress, ratio: ratio, width: width), from: from, to: to)
    }

    func renderRows(progress: Float, from: TransitionPicture, to: TransitionPicture, into output: TransitionPicture, rows: Range<Int>) {
        let width = output.width, height = output.height
        let ratio = Float(width) / Float(height)
        let du = 1 / Float(width), dv = 1 / Float(height)
        let frame = frame(progress: progress, ratio: ratio, width: width)
        for y in rows {
            let v = 1 - (Float(y) + 0.5) * dv
            let row = output.pixels + y * width
            for x in 0..<width {
                row[x] = TransitionRenderer.stored(color(at: SIMD2((Float(x) + 0.5) * du, v), column: x, frame, from: from, to: to))
            }
        }
    }
}
