import CompositionGraph
import MediaTime

/// The decoding half of making output frames: plans frame n (pure) and fetches the picture
/// each of its layers needs, decoded and scaled for its compositing path. Readers stay open
/// between frames, so frames asked for in order decode forward without seeking.
final class FetchStage {
    private let planner: FramePlanner
    private let pool: VideoSourcePool
    private let fetcher: PictureFetcher

    init(graph: CompositionGraph, access: MediaAccess, shelf: ReaderShelf? = nil) {
        planner = FramePlanner(graph: graph)
        pool = VideoSourcePool(composition: graph.composition, matteUses: graph.videoComposition.matteUses, shelf: shelf, open: access.openVideo)
        fetcher = PictureFetcher(renderSize: graph.videoComposition.renderSize, pool: pool)
    }

    /// Frame `n`, shown at timeline time `t`: its plan and its layers' pictures.
    func fetch(frame n: Int64, at t: MediaTime) throws -> (FramePlan, [LayerPicture?]) {
        let plan = planner.plan(frame: n, at: t)
        return (plan, try fetcher.pictures(for: plan))
    }

    /// Closes the readers no frame at or after `t` needs.
    func release(before t: MediaTime) { pool.release(before: t) }

    /// Hands the open readers to the shelf the stage was made with.
    func shelveReaders() { pool.shelve() }
}

/// The compositing half: layers blended into an output frame, then the overlays of that
/// time drawn over it. An output that keeps alpha is drawn on the premultiplied canvas,
/// overlays included, and only then converted to its frame with straight alpha.
final class CompositeStage {
    private let compositor: FrameCompositor
    private let frames: FramePool
    private let blender = SpriteBlender()
    private let alphaFrames = AlphaFrameConverter()
    private let overlays: OverlayStage?

    /// Output frames come from `allocate` (recycled once nobody else holds them).
    init(renderSize: PixelSize, overlays: OverlayStage?, allocate: @escaping () throws -> YUVFrame) {
        compositor = FrameCompositor(renderSize: renderSize)
        frames = FramePool(width: renderSize.width, height: renderSize.height, allocate: allocate)
        self.overlays = overlays
    }

    /// The finished frame: a pooled frame, or the top layer's own picture when it passes
    /// through untouched.
    func render(_ plan: FramePlan, pictures: [LayerPicture?]) throws -> YUVFrame {
        let target = try frames.take()
        if plan.keepsAlpha { return try renderKeepingAlpha(plan, pictures: pictures, into: target) }
        var frame = compositor.composite(plan, pictures: pictures, into: target)
        if let overlays, overlays.isVisible(at: plan.time) {
            if frame !== target {
                // A passed-through source frame may be shown again: draw on a copy.
                target.copy(from: frame)
                frame = target
            }
            blender.beginFrame()
            try overlays.sprites(at: plan.time) { blender.blend($0, into: frame) }
        }
        return frame
    }

    private func renderKeepingAlpha(_ plan: FramePlan, pictures: [LayerPicture?], into target: YUVFrame) throws -> YUVFrame {
        let canvas = compositor.drawCanvas(plan, pictures: pictures)
        if let overlays, overlays.isVisible(at: plan.time) {
            blender.beginFrame()
            try overlays.sprites(at: plan.time) { blender.blend($0, onto: canvas) }
        }
        alphaFrames.convert(canvas, into: target)
        return target
    }
}
