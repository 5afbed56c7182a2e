import CompositionGraph
import MediaTime

/// What one output frame is made of: a pure function of the graph and the frame's time,
/// computed before any pixel is touched so the decoding stage knows what to fetch.
struct FramePlan: Sendable {
    /// Output frame index (0 = the first frame written).
    var index: Int64
    /// Timeline time of the frame.
    var time: MediaTime
    var background: Color
    /// Bottom to top; layers that are invisible at this time are left out.
    var layers: [PlannedLayer]

    /// True when every layer is an upright rectangle, so the frame is composited in Y′CbCr.
    var isRectangular: Bool { layers.allSatisfy(\.placement.isAxisAligned) }
}

/// One visible layer of a frame.
struct PlannedLayer: Sendable {
    enum Content: Sendable, Equatable {
        /// A video file at source time `sourceTime`.
        case media(MediaReference, sourceTime: MediaTime)
        /// A still image or SVG.
        case still(MediaReference)
        case color(Color)
    }

    /// The composition track the layer shows.
    var trackID: Int
    var content: Content
    var placement: LayerPlacement
    /// Layer opacity in 1/256ths (0…256).
    var alpha: Int
}

/// Works out the `FramePlan` of each frame of a graph.
struct FramePlanner: Sendable {
    let graph: CompositionGraph
    /// Oriented pixel size of every video, image and SVG file the graph shows.
    let sourceSizes: [String: PixelSize]

    func plan(frame index: Int64, at t: MediaTime) -> FramePlan {
        let vc = graph.videoComposition
        guard let instruction = vc.instruction(at: t) else {
            return FramePlan(index: index, time: t, background: vc.background, layers: [])
        }
        var layers: [PlannedLayer] = []
        layers.reserveCapacity(instruction.layers.count)
        for layer in instruction.layers {
            guard let track = graph.composition.track(layer.trackID), let segment = track.segment(at: t),
                  let content = segment.content else { continue }
            let alpha = Int((min(max(layer.opacity.value(at: t), 0), 1) * 256).rounded())
            guard alpha > 0 else { continue }
            let planned: PlannedLayer.Content, size: PixelSize
            switch content {
            case .media(let ref, _):
                planned = .media(ref, sourceTime: segment.timeMapping!.sourceTime(at: t))
                size = sourceSize(ref)
            case .still(let ref):
                planned = .still(ref)
                size = sourceSize(ref)
            case .color(let color):
                planned = .color(color)
                size = vc.renderSize
            }
            let placement = LayerPlacement(layer: layer, sourceSize: size, renderSize: vc.renderSize, at: t)
            guard !placement.isCroppedAway, placement.scaleX != 0, placement.scaleY != 0 else { continue }
            layers.append(PlannedLayer(trackID: track.id, content: planned, placement: placement, alpha: alpha))
        }
        return FramePlan(index: index, time: t, background: instruction.background, layers: layers)
    }

    private func sourceSize(_ ref: MediaReference) -> PixelSize {
        guard let size = sourceSizes[ref.path] else {
            preconditionFailure("no probed size for \(ref.path): the export probes every file before planning")
        }
        return size
    }
}
