import CompositionGraph
import MediaTime

/// A video clip's layer parameters over its whole timeline range, transition effects
/// included; instructions take slices of them.
struct ClipLayer {
    var trackID: Int
    var range: TimeRange
    var fit: Fit
    var transform: LayerTransform
    var opacity: Animation
    var crop: CropAnimation
    var mask: LayerMask?
    var filters: [LayerFilter]
}

extension CompileSession {
    /// Instructions covering [0, duration) with no gap or overlap: one per stretch of time in
    /// which the same clips are visible, layers bottom to top (an outgoing clip below the
    /// incoming one in a transition). One sweep over the cut times: each clip and transition
    /// joins the running set where it starts and leaves where it ends, so the cost grows with
    /// the number of clips, not with clips × instructions.
    mutating func instructions(for tracks: [[(trackID: Int, placed: PlacedClip<VideoClip>)]], duration: MediaTime) -> [VideoInstruction] {
        // Bottom to top: the tracks in order, a track's clips in timeline order.
        let layers = tracks.flatMap { track in track.map { clipLayer($0.placed, trackID: $0.trackID) } }
        var cuts: Set<MediaTime> = [.zero, duration]
        for layer in layers {
            for t in [layer.range.start, layer.range.end] where t > .zero && t < duration { cuts.insert(t) }
        }
        let times = cuts.sorted()
        let layersByStart = layers.indices.sorted { (layers[$0].range.start, $0) < (layers[$1].range.start, $1) }
        let transitions = tracks.flatMap(Self.transitions).sorted { $0.range.start < $1.range.start }
        var visible: [Int] = [], running: [(range: TimeRange, kind: Transition.Kind, mark: VideoInstruction.Transition)] = []
        var nextLayer = 0, nextTransition = 0
        var result: [VideoInstruction] = []
        result.reserveCapacity(times.count)
        for (start, end) in zip(times, times.dropFirst()) {
            let range = TimeRange(start: start, end: end)
            // Every range starts and ends on a cut, so what overlaps [start, end) covers it.
            visible.removeAll { layers[$0].range.end <= start }
            while nextLayer < layersByStart.count, layers[layersByStart[nextLayer]].range.start <= start {
                let index = layersByStart[nextLayer]
                if layers[index].range.end > start { visible.insert(index, at: visible.firstIndex { $0 > index } ?? visible.endIndex) }
                nextLayer += 1
            }
            running.removeAll { $0.range.end <= start }
            while nextTransition < transitions.count, transitions[nextTransition].range.start <= start {
                if transitions[nextTransition].range.end > start { running.append(transitions[nextTransition]) }
                nextTransition += 1
            }
            var background = project.output.background
            for t in running {
                if t.kind == .fadeThroughBlack { background = .black }
                if t.kind == .fadeThroughWhite { background = .white }
            }
            let active = visible.map { index in
                let layer = layers[index]
                return LayerInstruction(trackID: layer.trackID, fit: layer.fit, transform: layer.transform.sliced(to: range),
                                        opacity: layer.opacity.sliced(to: range), crop: layer.crop.sliced(to: range),
                                        mask: layer.mask?.sliced(to: range),
                                        filters: layer.filters.map { $0.sliced(to: range) })
            }
            let marks = running.map { t in
                var mark = t.mark
                mark.dissolve = mark.dissolve?.sliced(to: range)
                if let progress = mark.mix?.progress { mark.mix?.progress = progress.sliced(to: range) }
                return mark
            }
            result.append(VideoInstruction(timeRange: range, background: background, layers: active, transitions: marks))
        }
        return result
    }

    /// The transitions of one project track: each joins a clip to the next one, on the other lane.
    private static func transitions(_ track: [(trackID: Int, placed: PlacedClip<VideoClip>)])
        -> [(range: TimeRange, kind: Transition.Kind, mark: VideoInstruction.Transition)] {
        zip(track, track.dropFirst()).compactMap { outgoing, incoming in
            outgoing.placed.transitionOut.map {
                let t = $0.transition, progress = Animation.ramp(from: 0, to: 1, over: $0.range, ease: t.ease)
                let mix = t.kind.kernel == nil && t.shader == nil ? nil
                    : TransitionMix(kernel: t.kind.rawValue, parameters: t.parameters, progress: progress, shader: t.shader)
                return ($0.range, t.kind,
                        VideoInstruction.Transition(kind: t.kind.rawValue, fromTrackID: outgoing.trackID, toTrackID: incoming.trackID,
                                                    dissolve: t.kind == .crossfade ? progress : nil, mix: mix))
            }
        }
    }

    private mutating func clipLayer(_ p: PlacedClip<VideoClip>, trackID: Int) -> ClipLayer {
        var clip = p.clip
        let range = p.target
        if clip.enter != nil || clip.exit != nil {
            let length = (clip.enter?.duration ?? .zero) + (clip.exit?.duration ?? .zero)
            if length > range.duration {
                problems.report("the entrance and exit (\(TimeNotation.seconds(length)) together) last longer than the clip is seen (\(TimeNotation.seconds(range.duration)))",
                                at: (clip.exit ?? clip.enter)!.origin, hint: "give them shorter durations, or the clip a longer one")
            } else {
                clip = NamedMoves.moved(clip, enter: clip.enter, exit: clip.exit, problems: &problems)
            }
        }
        let w = size.width, h = size.height
        var x = Animation.constant(Double(w) / 2), y = Animation.constant(Double(h) / 2)
        if let position = clip.transform.position {
            x = resolve(position, over: range) { $0.x.resolved(against: w) }
            y = resolve(position, over: range) { $0.y.resolved(against: h) }
        }
        let scale = resolve(clip.transform.scale, over: range)
        var opacity = resolve(clip.opacity, over: range)
            .combined(with: fadeEnvelope(clip.timing, over: range, origin: clip.origin), step: frameDuration, over: range, *)
        let sourceSize = sourceSize(of: clip)
        var crop = CropAnimation(
            left: resolve(clip.crop.left, over: range) { $0.resolved(against: sourceSize.width) / Double(sourceSize.width) },
            top: resolve(clip.crop.top, over: range) { $0.resolved(against: sourceSize.height) / Double(sourceSize.height) },
            right: resolve(clip.crop.right, over: range) { $0.resolved(against: sourceSize.width) / Double(sourceSize.width) },
            bottom: resolve(clip.crop.bottom, over: range) { $0.resolved(against: sourceSize.height) / Double(sourceSize.height) })

        // The transition in ends where the clip is itself and the one out starts there, so the
        // two effects join into one ramp per property, combined once with the clip's own.
        let effects = [(p.transitionIn, true), (p.transitionOut, false)].compactMap { t, incoming in
            t.map { TransitionEffect(kind: $0.transition.kind, incoming: incoming, range: $0.range, ease: $0.transition.ease, frame: size) }
        }
        let step = frameDuration
        func apply(_ own: Animation, _ part: (TransitionEffect) -> Animation?, _ op: (Double, Double) -> Double) -> Animation {
            let parts = effects.compactMap(part)
            return parts.isEmpty ? own : own.combined(with: .concatenation(parts), step: step, over: range, op)
        }
        opacity = apply(opacity, \.opacity, *)
        x = apply(x, \.offsetX, +)
        y = apply(y, \.offsetY, +)
        crop.left = apply(crop.left, \.cropLeft, max)
        crop.top = apply(crop.top, \.cropTop, max)
        crop.right = apply(crop.right, \.cropRight, max)
        crop.bottom = apply(crop.bottom, \.cropBottom, max)
        let transform = LayerTransform(positionX: x, positionY: y,
                                       anchorX: resolve(clip.transform.anchor, over: range) { $0.x.resolved(against: 1) },
                                       anchorY: resolve(clip.transform.anchor, over: range) { $0.y.resolved(against: 1) },
                                       scaleX: scale, scaleY: scale, rotation: resolve(clip.transform.rotation, over: range))
        return ClipLayer(trackID: trackID, range: range, fit: clip.fit, transform: transform, opacity: opacity, crop: crop,
                         mask: clip.mask.flatMap { layerMask($0, over: range) },
                         filters: filters(clip.filters, over: range))
    }

    /// The picture size crop pixels refer to: the media's display size, or the frame for colours and shaders.
    private func sourceSize(of clip: VideoClip) -> PixelSize {
        if case .media(let name) = clip.source, let s = naturalSize(ofMedia: name) { return s }
        return size
    }
}

/// What a transition does to one of its two clips over its range, as ramps to combine with
/// the clip's own: opacity is multiplied, offsets added, crop edges take the larger value. A
/// crossfade or a kernel's kind leaves both clips as they are: the instruction's transition
/// carries its progress and the compositor dissolves or mixes the two pictures
/// (`VideoInstruction.Transition.dissolve`, `.mix`).
struct TransitionEffect {
    var opacity: Animation?
    var offsetX: Animation?
    var offsetY: Animation?
    var cropLeft: Animation?
    var cropTop: Animation?
    var cropRight: Animation?
    var cropBottom: Animation?

    init(kind: Transition.Kind, incoming: Bool, range: TimeRange, ease: Easing, frame: PixelSize) {
        let w = Double(frame.width), h = Double(frame.height)
        let mid = range.start + range.duration / Rational(2)
        func ramp(_ from: Double, _ to: Double) -> Animation { .ramp(from: from, to: to, over: range, ease: ease) }
        switch kind {
        case .crossfade: break
        case .fadeThroughBlack, .fadeThroughWhite:
            opacity = incoming
                ? Animation(keyframes: [Keyframe(time: range.start, value: 0, ease: .hold), Keyframe(time: mid, value: 0, ease: ease), Keyframe(time: range.end, value: 1)])
                : Animation(keyframes: [Keyframe(time: range.start, value: 1, ease: ease), Keyframe(time: mid, value: 0)])
        case .wipeLeft: if incoming { cropLeft = ramp(1, 0) }
        case .wipeRight: if incoming { cropRight = ramp(1, 0) }
        case .wipeUp: if incoming { cropTop = ramp(1, 0) }
        case .wipeDown: if incoming { cropBottom = ramp(1, 0) }
        case .slideLeft: if incoming { offsetX = ramp(w, 0) }
        case .slideRight: if incoming { offsetX = ramp(-w, 0) }
        case .slideUp: if incoming { offsetY = ramp(h, 0) }
        case .slideDown: if incoming { offsetY = ramp(-h, 0) }
        case .pushLeft: offsetX = incoming ? ramp(w, 0) : ramp(0, -w)
        case .pushRight: offsetX = incoming ? ramp(-w, 0) : ramp(0, w)
        case .pushUp: offsetY = incoming ? ramp(h, 0) : ramp(0, -h)
        case .pushDown: offsetY = incoming ? ramp(-h, 0) : ramp(0, h)
        default: break // a kernel's: it mixes the two pictures, which stay as they are
        }
    }
}
