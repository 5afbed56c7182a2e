import CompositionGraph
import MediaTime

/// The decoding stage's work for one frame: the picture each planned layer needs, in the
/// format and size its compositing path wants.
final class PictureFetcher {
    let renderSize: PixelSize
    let pool: VideoSourcePool
    private let masks: MaskCoverage

    init(renderSize: PixelSize, pool: VideoSourcePool) {
        self.renderSize = renderSize
        self.pool = pool
        masks = MaskCoverage(renderSize: renderSize, pool: pool)
    }

    func pictures(for plan: FramePlan) throws -> [LayerPicture?] {
        let rectangular = plan.isRectangular
        return try plan.layers.map { layer in
            let request = PictureRequest.forLayer(layer, rectangular: rectangular, renderSize: renderSize)
            let picture: LayerPicture?
            switch layer.content {
            case .color(let c):
                picture = .color(c)
            case .media(let ref, let t):
                picture = try fetch(request, from: ref, for: layer, rectangular: rectangular, at: t, timeline: plan.time)
            case .still(let ref):
                picture = try fetch(request, from: ref, for: layer, rectangular: rectangular, at: .zero, timeline: plan.time)
            case .shader(let call, let time, let progress):
                picture = try draw(call, time: time, progress: progress, request, for: layer, rectangular: rectangular, timeline: plan.time)
            }
            guard let mask = layer.mask, let picture else { return picture }
            return .masked(picture, try coverage(mask, trackID: layer.trackID, timeline: plan.time))
        }
    }

    /// A masked layer's coverage; a matte that cannot be read is named like a source.
    private func coverage(_ mask: PlannedMask, trackID: Int, timeline: MediaTime) throws -> CoveragePlane {
        do {
            return try masks.plane(for: mask, trackID: trackID)
        } catch let error as RenderError {
            throw error
        } catch {
            guard case .matte(let ref, let t, _, _, _) = mask else { throw error }
            throw RenderError.media(path: ref.path, sourceTime: t, timelineTime: timeline, reason: "\(error)")
        }
    }

    /// The picture of `ref` at source time `t` with the layer's looks applied to the part of it
    /// that shows; a failure to open or read it (or a LUT file) names the file and both times.
    private func fetch(_ request: PictureRequest, from ref: MediaReference, for layer: PlannedLayer, rectangular: Bool, at t: MediaTime,
                       timeline: MediaTime) throws -> LayerPicture? {
        do {
            let source = try pool.source(ref, trackID: layer.trackID)
            let picture: LayerPicture?
            switch request {
            case .yuv(let w, let h): picture = .yuv(try source.yuvFrame(at: t, width: w, height: h))
            case .rgba(let w, let h): picture = .rgba(try source.rgbaFrame(at: t, width: w, height: h))
            case .none: picture = nil
            }
            return try looked(picture, for: layer, rectangular: rectangular, timeline: timeline)
        } catch let error as RenderError {
            throw error
        } catch {
            throw RenderError.media(path: ref.path, sourceTime: t, timelineTime: timeline, reason: "\(error)")
        }
    }

    /// A shader's picture at the layer's scaled size (the general path's R′G′B′A: shader layers
    /// have alpha), with the layer's looks.
    private func draw(_ call: ShaderCall, time: MediaTime, progress: Double, _ request: PictureRequest, for layer: PlannedLayer,
                      rectangular: Bool, timeline: MediaTime) throws -> LayerPicture? {
        guard case .rgba(let width, let height) = request else { return nil }
        let image = PremultipliedImage(width: width, height: height)
        do {
            try ShaderShelf.shared.picture(for: call).render(time: time.seconds, progress: progress, values: call.uniforms, width: width, height: height,
                                                             into: image.baseAddress, stride: image.stride)
        } catch {
            // It compiled and drew at `ShaderShelf.prepare`; OpenGL failing afterwards is no project's doing.
            throw RenderError.media(path: call.path, sourceTime: time, timelineTime: timeline, reason: "\(error)")
        }
        return try looked(.rgba(image), for: layer, rectangular: rectangular, timeline: timeline)
    }

    /// `picture` with the layer's looks applied to the part of it that shows.
    private func looked(_ picture: LayerPicture?, for layer: PlannedLayer, rectangular: Bool, timeline: MediaTime) throws -> LayerPicture? {
        guard !layer.filters.isEmpty, let size = picture?.pixelSize else { return picture }
        let shown = layer.placement.visibleRegion(ofPicture: size, in: renderSize, rectangular: rectangular)
        return try LayerLooks.apply(layer.filters, at: timeline, to: picture, within: shown)
    }
}
