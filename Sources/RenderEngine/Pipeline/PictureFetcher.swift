import CompositionGraph
import MediaTime

/// The decoding stage's work for one frame: the picture each planned layer needs, in the
/// format and size its compositing path wants.
final class PictureFetcher {
    let renderSize: PixelSize
    let pool: VideoSourcePool

    init(renderSize: PixelSize, pool: VideoSourcePool) {
        self.renderSize = renderSize
        self.pool = pool
    }

    func pictures(for plan: FramePlan) throws -> [LayerPicture?] {
        let rectangular = plan.isRectangular
        return try plan.layers.map { layer in
            let request = PictureRequest.forLayer(layer, rectangular: rectangular, renderSize: renderSize)
            switch layer.content {
            case .color(let c):
                return .color(c)
            case .media(let ref, let t):
                return try fetch(request, from: ref, trackID: layer.trackID, at: t, timeline: plan.time, looks: layer.looks)
            case .still(let ref):
                return try fetch(request, from: ref, trackID: layer.trackID, at: .zero, timeline: plan.time, looks: layer.looks)
            }
        }
    }

    /// The picture of `ref` at source time `t` with the layer's looks applied; a failure to
    /// open or read it (or a LUT file) names the file and both times.
    private func fetch(_ request: PictureRequest, from ref: MediaReference, trackID: Int, at t: MediaTime,
                       timeline: MediaTime, looks: [Look]) throws -> LayerPicture? {
        do {
            let source = try pool.source(ref, trackID: trackID)
            let picture: LayerPicture?
            switch request {
            case .yuv(let w, let h): picture = .yuv(try source.yuvFrame(at: t, width: w, height: h))
            case .rgba(let w, let h): picture = .rgba(try source.rgbaFrame(at: t, width: w, height: h))
            case .none: picture = nil
            }
            return try LayerLooks.apply(looks, to: picture, matrix: .bt709)
        } catch let error as RenderError {
            throw error
        } catch {
            throw RenderError.media(path: ref.path, sourceTime: t, timelineTime: timeline, reason: "\(error)")
        }
    }
}
