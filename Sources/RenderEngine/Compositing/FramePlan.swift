import CompositionGraph
import Looks
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
    /// The output keeps an alpha channel: the frame is drawn on the premultiplied canvas, which
    /// keeps it, whatever its layers (never passed through nor composited in Y′CbCr).
    var keepsAlpha = false

    /// True when the output is opaque and every layer is an unmasked upright opaque rectangle that can be placed in whole, even
    /// pixels without visible error, so the frame is composited in Y′CbCr. A layer that moves,
    /// zooms or has a moving crop edge must land on even pixels exactly: snapping it would make
    /// a slow pan or zoom advance in 2-pixel jumps, so otherwise it takes the general path,
    /// which places it to a fraction of a pixel.
    var isRectangular: Bool {
        !keepsAlpha && layers.allSatisfy { $0.placement.isAxisAligned && !$0.hasAlpha && $0.mask == nil && $0.mix == nil
            && (!$0.isMoving || $0.placement.isOnEvenPixels) }
    }
}

/// One visible layer of a frame.
struct PlannedLayer: Sendable {
    enum Content: Sendable, Equatable {
        /// A video file at source time `sourceTime`.
        case media(MediaReference, sourceTime: MediaTime)
        /// A still image or SVG.
        case still(MediaReference)
        case color(Color)
        /// A fragment shader's picture, `time` seconds into its segment and `progress` of the way through it.
        case shader(ShaderCall, time: MediaTime, progress: Double)
    }

    /// The composition track the layer shows.
    var trackID: Int
    var content: Content
    var placement: LayerPlacement
    /// The source has an alpha channel (it needs the general path to show through).
    var hasAlpha: Bool = false
    /// Position, scale, rotation or crop change during the layer's instruction.
    var isMoving: Bool = false
    /// Layer opacity in 1/256ths (0…256).
    var alpha: Int
    /// What part of the layer shows, if masked (a masked layer takes the general path).
    var mask: PlannedMask? = nil
    /// The layer's filters, applied at the frame's time to its picture before compositing.
    var filters: [LayerFilter] = []
    /// The layer dissolves in from the layer just below it, by this weight in 1/256ths: the
    /// two are drawn each over what is beneath them and mixed (a crossfade).
    var dissolveWeight: Int? = nil
    /// The layer is mixed with the layer just below it by a transition kernel: the two are
    /// drawn each over what is beneath them and the kernel mixes the two pictures.
    var mix: PlannedMix? = nil
}

/// Works out the `FramePlan` of each frame of a graph. Frames are usually asked for in
/// increasing time, so the instruction and each track's segment are looked for from where
/// the last frame found them: planning stays cheap on timelines of thousands of cuts.
final class FramePlanner {
    let graph: CompositionGraph
    private let keepsAlpha: Bool
    private var instructionCursor = 0
    private var segmentCursors: [Int: Int] = [:]

    init(graph: CompositionGraph) {
        self.graph = graph
        keepsAlpha = graph.keepsAlpha
    }

    func plan(frame index: Int64, at t: MediaTime) -> FramePlan {
        let vc = graph.videoComposition
        guard let instruction = find(in: vc.instructions, at: t, cursor: &instructionCursor, range: \.timeRange) else {
            return FramePlan(index: index, time: t, background: vc.background, layers: [], keepsAlpha: keepsAlpha)
        }
        var layers: [PlannedLayer] = []
        layers.reserveCapacity(instruction.layers.count)
        for layer in instruction.layers {
            guard let track = graph.composition.track(layer.trackID),
                  let segment = find(in: track.segments, at: t, cursor: &segmentCursors[track.id, default: 0], range: \.target),
                  let content = segment.content else { continue }
            let alpha = Int((min(max(layer.opacity.value(at: t), 0), 1) * 256).rounded())
            guard alpha > 0 else { continue }
            let planned: PlannedLayer.Content, size: PixelSize, hasAlpha: Bool
            switch content {
            case .media(let ref, _):
                planned = .media(ref, sourceTime: segment.sourceTime(at: t, frameDuration: vc.frameDuration)!)
                (size, hasAlpha) = Self.picture(of: ref)
            case .still(let ref):
                planned = .still(ref)
                (size, hasAlpha) = Self.picture(of: ref)
            case .color(let color):
                planned = .color(color)
                (size, hasAlpha) = (vc.renderSize, false)
            case .shader(let call):
                let elapsed = t - segment.target.start
                planned = .shader(call, time: elapsed, progress: (elapsed / segment.target.duration).doubleValue)
                // Drawn as R′G′B′A: a shader may leave parts of the frame transparent.
                (size, hasAlpha) = (vc.renderSize, true)
            }
            let placement = LayerPlacement(layer: layer, sourceSize: size, renderSize: vc.renderSize, at: t)
            guard !placement.isCroppedAway, placement.scaleX != 0, placement.scaleY != 0 else { continue }
            // A keyed layer has alpha: it takes the general path, its picture fetched as R′G′B′A.
            layers.append(PlannedLayer(trackID: track.id, content: planned, placement: placement,
                                       hasAlpha: hasAlpha || layer.filters.contains(where: \.look.makesAlpha),
                                       isMoving: layer.placementIsAnimated, alpha: alpha, mask: layer.mask.map { PlannedMask($0, at: t) },
                                       filters: layer.filters))
        }
        for transition in instruction.transitions {
            if let dissolve = transition.dissolve { pairForDissolve(&layers, transition, progress: dissolve.value(at: t)) }
            if let mix = transition.mix {
                let progress = mix.progress.value(at: t)
                if !pairForMix(&layers, transition, PlannedMix(mix, progress: progress, size: vc.renderSize)) { pairForDissolve(&layers, transition, progress: progress) }
            }
        }
        return FramePlan(index: index, time: t, background: instruction.background, layers: layers, keepsAlpha: keepsAlpha)
    }

    /// Marks the incoming layer of a crossfade to dissolve from the outgoing one just below it.
    /// When only one of the two shows (the other cropped away, or transparent at this time),
    /// the dissolve is that layer at its share of opacity; so is the incoming one, over the
    /// other, if a layer came between them (the compiler never puts one there).
    private func pairForDissolve(_ layers: inout [PlannedLayer], _ transition: VideoInstruction.Transition, progress: Double) {
        let weight = Int((min(max(progress, 0), 1) * 256).rounded())
        let from = layers.firstIndex { $0.trackID == transition.fromTrackID }, to = layers.firstIndex { $0.trackID == transition.toTrackID }
        switch (from, to) {
        case let (from?, to?) where to == from + 1:
            layers[to].dissolveWeight = weight
        case let (_, to?):
            layers[to].alpha = layers[to].alpha * weight / 256
            if layers[to].alpha == 0 { layers.remove(at: to) }
        case let (from?, nil):
            layers[from].alpha = layers[from].alpha * (256 - weight) / 256
            if layers[from].alpha == 0 { layers.remove(at: from) }
        case (nil, nil): break
        }
    }

    /// Marks the incoming layer of a mixing transition to be mixed with the outgoing one just
    /// below it. False when the two are not both there, one above the other: then the frame
    /// dissolves what shows of them instead (as `pairForDissolve`).
    private func pairForMix(_ layers: inout [PlannedLayer], _ transition: VideoInstruction.Transition, _ mix: PlannedMix?) -> Bool {
        guard let mix, let from = layers.firstIndex(where: { $0.trackID == transition.fromTrackID }),
              let to = layers.firstIndex(where: { $0.trackID == transition.toTrackID }), to == from + 1 else { return false }
        layers[to].mix = mix
        return true
    }

    /// The element of `items` (in time order, not overlapping) whose range contains `t`,
    /// searching from `cursor` first and moving it there.
    private func find<T>(in items: [T], at t: MediaTime, cursor: inout Int, range: KeyPath<T, TimeRange>) -> T? {
        guard !items.isEmpty else { return nil }
        if cursor >= items.count || items[cursor][keyPath: range].start > t { cursor = 0 }
        while cursor < items.count {
            let r = items[cursor][keyPath: range]
            if r.contains(t) { return items[cursor] }
            if r.start > t { return nil }
            cursor += 1
        }
        cursor = 0
        return nil
    }

    /// The upright size and alpha of a file shown on a video track, from its facts (checked
    /// to have a picture before the render).
    private static func picture(of ref: MediaReference) -> (PixelSize, Bool) {
        guard let size = ref.facts.naturalSize else { preconditionFailure("\(ref.path) is shown but has no picture: MediaValidation checks this") }
        return (size, ref.facts.hasAlpha)
    }
}

extension LayerInstruction {
    /// Whether the placement animates: position, scale, rotation or a crop edge is not constant
    /// (instructions hold ramps sliced to their own range, so this is about this instruction).
    var placementIsAnimated: Bool {
        let t = transform, c = crop
        return !(t.positionX.isConstant && t.positionY.isConstant && t.scaleX.isConstant && t.scaleY.isConstant
                 && t.rotation.isConstant && c.left.isConstant && c.top.isConstant && c.right.isConstant && c.bottom.isConstant)
    }
}
