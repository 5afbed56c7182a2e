import CompositionGraph
import MediaTime

extension CompileSession {
    /// A clip's mask over its timeline range: lengths resolved against the frame, keyframes
    /// made absolute; a matte's media checked (known, a picture, long enough, with alpha
    /// when its alpha is asked for).
    mutating func layerMask(_ spec: MaskSpec, over range: TimeRange) -> LayerMask? {
        let w = size.width, h = size.height
        func box(_ b: MaskBoxSpec) -> MaskBox {
            MaskBox(x: resolve(b.x, over: range) { $0.resolved(against: w) }, y: resolve(b.y, over: range) { $0.resolved(against: h) },
                    width: resolve(b.width, over: range) { $0.resolved(against: w) },
                    height: resolve(b.height, over: range) { $0.resolved(against: h) })
        }
        let source: LayerMask.Source
        switch spec.source {
        case .rect(let b, let radius): source = .rect(box(b), cornerRadius: resolve(radius, over: range))
        case .ellipse(let b): source = .ellipse(box(b))
        case .path(let path, let x, let y):
            source = .path(path, offsetX: resolve(x, over: range) { $0.resolved(against: w) }, offsetY: resolve(y, over: range) { $0.resolved(against: h) })
        case .matte(let name, let from, let channel):
            guard let matte = matte(name, from: from, channel: channel, over: range, origin: spec.origin) else { return nil }
            source = .matte(matte)
        }
        return LayerMask(source: source, feather: resolve(spec.feather, over: range), invert: spec.invert)
    }

    private mutating func matte(_ name: String, from: MediaTime?, channel: MaskMatte.Channel, over range: TimeRange,
                                origin: Origin) -> MaskMatte? {
        guard let ref = reference(name, at: origin, expecting: [.video, .image, .svg], hint: "a matte is video, image or svg media") else { return nil }
        if channel == .alpha && !ref.facts.hasAlpha {
            problems.report("the matte '\(name)' has no alpha channel, so mode: alpha would hide the whole clip", at: origin,
                            hint: "use mode: luma, or a file with transparency (PNG, SVG, ProRes 4444, VP9 with alpha)")
            return nil
        }
        guard ref.kind == .video else {
            if from != nil { problems.report("the matte '\(name)' is a still picture: 'from' has nothing to choose", at: origin, hint: "remove from") }
            return MaskMatte(media: ref, sourceStart: nil, timelineStart: range.start, channel: channel)
        }
        let start = from ?? .zero
        if let duration = ref.facts.duration, start + range.duration > duration {
            problems.report("the matte '\(name)' is read up to \(TimeNotation.clock(start + range.duration)) but the media ends at \(TimeNotation.clock(duration))",
                            at: origin, hint: "the matte plays along with the clip from 'from' (\(TimeNotation.seconds(start))); use a longer matte or an earlier from")
            return nil
        }
        return MaskMatte(media: ref, sourceStart: start, timelineStart: range.start, channel: channel)
    }
}
