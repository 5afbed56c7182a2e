import CompositionGraph
import LookKernels

/// Composites the layers of a frame plan into a Y′CbCr 4:2:0 output frame.
///
/// Three paths, cheapest first: a frame whose top layer is one opaque, unscaled source at
/// the output size is that source's frame (no copy); a frame of upright rectangles is
/// composited directly in Y′CbCr (copies and integer blends of rows); anything rotated,
/// mirrored, moving off the even-pixel grid, masked or with an alpha channel is drawn on a
/// premultiplied Y′CbCrA canvas with bilinear sampling and reduced to 4:2:0 once. An output
/// that keeps alpha takes the canvas for every frame (`drawCanvas`). A crossfade's two layers
/// are each drawn over what is beneath them, one of the two on a copy, and the results mixed
/// (`dissolveWeight`); a mixing transition's two are drawn the same way and mixed by its kernel
/// (`mix`, always on the canvas). Not thread-safe: one compositor per compositing thread.
final class FrameCompositor {
    let renderSize: PixelSize
    let matrix: YCbCrMatrix
    private lazy var canvas = PremultipliedImage(width: renderSize.width, height: renderSize.height)
    /// What lies beneath a dissolving pair, for the incoming layer: made at the first crossfade.
    private lazy var scratchCanvas = PremultipliedImage(width: renderSize.width, height: renderSize.height)
    private lazy var scratchFrame = YUVFrame(width: renderSize.width, height: renderSize.height)
    /// Float pictures for a mixing transition: made at the first one.
    private lazy var mixer = TransitionMixer(width: renderSize.width, height: renderSize.height)

    init(renderSize: PixelSize, matrix: YCbCrMatrix = .bt709) {
        precondition(renderSize.width % 2 == 0 && renderSize.height % 2 == 0, "4:2:0 output needs an even size, not \(renderSize)")
        self.renderSize = renderSize
        self.matrix = matrix
    }

    /// Composites `plan` with `pictures[i]` for `plan.layers[i]` (nil where the layer turned
    /// out invisible). Returns `output`, or a source frame passed through untouched.
    func composite(_ plan: FramePlan, pictures: [LayerPicture?], into output: YUVFrame) -> YUVFrame {
        precondition(pictures.count == plan.layers.count, "one picture per planned layer")
        precondition(output.width == renderSize.width && output.height == renderSize.height, "output frame of the wrong size")
        if plan.isRectangular {
            if let passed = passThrough(plan, pictures) { return passed }
            compositeRectangles(plan, pictures, into: output)
        } else {
            AffineCompositor.convert(drawCanvas(plan, pictures: pictures), into: output)
        }
        return output
    }

    /// Draws `plan` on the premultiplied Y′CbCrA canvas (the general path) and returns the
    /// canvas, valid until the next call: an output that keeps alpha draws its overlays on it
    /// too and converts it itself (`AlphaFrameConverter`).
    func drawCanvas(_ plan: FramePlan, pictures: [LayerPicture?]) -> PremultipliedImage {
        precondition(pictures.count == plan.layers.count, "one picture per planned layer")
        AffineCompositor.composite(plan, pictures: pictures, matrix: matrix, canvas: canvas, scratch: { self.scratchCanvas }, mixer: { self.mixer })
        return canvas
    }

    /// The top layer's own frame when it is opaque and exactly covers the output unscaled.
    private func passThrough(_ plan: FramePlan, _ pictures: [LayerPicture?]) -> YUVFrame? {
        guard let top = plan.layers.last, top.alpha == 256, top.dissolveWeight ?? 256 == 256, top.mix == nil, case .yuv(let frame)? = pictures.last,
              frame.width == renderSize.width, frame.height == renderSize.height,
              let rect = top.placement.rectangle(in: renderSize), rect.originX == 0, rect.originY == 0,
              rect.covers(renderSize) else { return nil }
        return frame
    }

    private func compositeRectangles(_ plan: FramePlan, _ pictures: [LayerPicture?], into out: YUVFrame) {
        // Layers under the topmost opaque full-frame layer do not show: skip them and the
        // background. A crossfade's outgoing layer hides them only when its incoming one fills
        // the frame too; otherwise the incoming one is drawn over what lies beneath the two.
        let layers = plan.layers
        let covering = layers.indices.last { i in
            guard layers[i].placement.rectangle(in: renderSize)?.covers(renderSize) == true, isOpaque(layers[i], pictures[i]) else { return false }
            let dissolving = i + 1 < layers.count && layers[i + 1].dissolveWeight != nil
            return !dissolving || coversOpaquely(i + 1, plan, pictures)
        }
        if covering == nil { out.fill(matrix.yuv(of: plan.background)) }
        var i = covering ?? 0
        while i < layers.count {
            if i + 1 < layers.count, let weight = layers[i + 1].dissolveWeight, coversOpaquely(i, plan, pictures), coversOpaquely(i + 1, plan, pictures) {
                // Both fill the frame: the incoming over the outgoing at w is the same mix.
                drawRectangle(i, plan, pictures, onto: out)
                if let rect = layers[i + 1].placement.rectangle(in: renderSize), let picture = pictures[i + 1] {
                    draw(picture, alpha: layers[i + 1].alpha * weight / 256, in: rect, onto: out)
                }
                i += 2
            } else if i + 1 < layers.count, let weight = layers[i + 1].dissolveWeight {
                // (1 − w)·(outgoing over out) + w·(incoming over out), the incoming drawn on a copy.
                scratchFrame.copy(from: out)
                drawRectangle(i, plan, pictures, onto: out)
                drawRectangle(i + 1, plan, pictures, onto: scratchFrame)
                for plane in 0..<3 {
                    let from = scratchFrame.plane(plane), to = out.plane(plane), shift = plane == 0 ? 0 : 1
                    PlaneKernels.blend(from: from.base, srcStride: from.stride, to: to.base, dstStride: to.stride,
                                       columns: renderSize.width >> shift, rows: renderSize.height >> shift, alpha: weight)
                }
                i += 2
            } else {
                drawRectangle(i, plan, pictures, onto: out)
                i += 1
            }
        }
    }

    /// Layer `i` is opaque (at its own opacity) and fills the frame.
    private func coversOpaquely(_ i: Int, _ plan: FramePlan, _ pictures: [LayerPicture?]) -> Bool {
        var layer = plan.layers[i]
        layer.dissolveWeight = nil
        return plan.layers[i].placement.rectangle(in: renderSize)?.covers(renderSize) == true && isOpaque(layer, pictures[i])
    }

    private func drawRectangle(_ i: Int, _ plan: FramePlan, _ pictures: [LayerPicture?], onto out: YUVFrame) {
        guard let rect = plan.layers[i].placement.rectangle(in: renderSize), let picture = pictures[i] else { return }
        draw(picture, alpha: plan.layers[i].alpha, in: rect, onto: out)
    }

    /// Whether the layer hides everything beneath it (a dissolving one does only once it is whole).
    private func isOpaque(_ layer: PlannedLayer, _ picture: LayerPicture?) -> Bool {
        guard layer.alpha == 256, layer.dissolveWeight ?? 256 == 256, let picture else { return false }
        if case .color(let c) = picture { return c.alpha >= 1 }
        return true
    }

    private func draw(_ picture: LayerPicture, alpha: Int, in rect: PlacedRectangle, onto out: YUVFrame) {
        for plane in 0..<3 {
            let shift = plane == 0 ? 0 : 1
            let x0 = rect.visibleX0 >> shift, y0 = rect.visibleY0 >> shift
            let columns = (rect.visibleX1 >> shift) - x0, rows = (rect.visibleY1 >> shift) - y0
            let dst = out.plane(plane)
            let target = dst.base + y0 * dst.stride + x0
            switch picture {
            case .yuv(let frame):
                precondition(frame.width == rect.sourceWidth && frame.height == rect.sourceHeight,
                             "layer picture is \(frame.width)x\(frame.height), placed size \(rect.sourceWidth)x\(rect.sourceHeight)")
                let src = frame.plane(plane)
                let source = src.base + ((rect.visibleY0 - rect.originY) >> shift) * src.stride + ((rect.visibleX0 - rect.originX) >> shift)
                if alpha == 256 {
                    PlaneKernels.copy(from: source, srcStride: src.stride, to: target, dstStride: dst.stride, columns: columns, rows: rows)
                } else {
                    PlaneKernels.blend(from: source, srcStride: src.stride, to: target, dstStride: dst.stride,
                                       columns: columns, rows: rows, alpha: alpha)
                }
            case .color(let color):
                var opaque = color
                opaque.alpha = 1
                let yuv = matrix.yuv(of: opaque)
                let value = plane == 0 ? yuv.y : plane == 1 ? yuv.cb : yuv.cr
                let a = Int((Double(alpha) * min(max(color.alpha, 0), 1)).rounded())
                if a == 256 {
                    PlaneKernels.fill(value, to: target, dstStride: dst.stride, columns: columns, rows: rows)
                } else if a > 0 {
                    PlaneKernels.blend(value, to: target, dstStride: dst.stride, columns: columns, rows: rows, alpha: a)
                }
            case .rgba, .masked:
                preconditionFailure("an RGBA or masked picture on the Y′CbCr path")
            }
        }
    }
}
