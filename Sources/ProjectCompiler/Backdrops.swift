import CompositionGraph
import Looks

extension CompileSession {
    /// Blur radius of `backdrop: blur`, as a fraction of the frame's short side: the picture
    /// shows as colour and light, not detail.
    static let backdropBlur = 0.04
    static let transparent = Color(red: 0, green: 0, blue: 0, alpha: 0)

    /// The layers under a track's clips that have a `backdrop:`, one per clip of the track so
    /// that they take the clips' places, transitions and fades: a clip's backdrop, or nothing
    /// (a transparent colour) for a clip without one. Nil when no clip of the track has one.
    mutating func backdrops(of placed: [PlacedClip<VideoClip>]) -> [PlacedClip<VideoClip>]? {
        guard placed.contains(where: { $0.clip.backdrop != nil }) else { return nil }
        return placed.map { p in
            var under = p
            under.clip.transform = TransformSpec(position: nil, anchor: .constant(NamedPoint.center.point),
                                                 scale: .constant(1), rotation: .constant(0))
            under.clip.crop = CropSpec(left: .constant(.zero), top: .constant(.zero), right: .constant(.zero), bottom: .constant(.zero))
            under.clip.mask = nil
            under.clip.mute = true
            under.clip.fit = .cover
            under.clip.backdrop = nil
            switch p.clip.backdrop?.kind {
            case .blur:
                let radius = Double(min(size.width, size.height)) * Self.backdropBlur
                under.clip.filters = [FilterSpec(look: .blur, values: ["radius": .number(.constant(radius))])]
            case .color(let color):
                (under.clip.source, under.source, under.clip.filters) = (.color(color), nil, [])
            case .image(let name):
                let image = reference(name, at: p.clip.backdrop!.origin, expecting: [.image], hint: "a backdrop is blur, a colour or an image")
                let source: VideoSource = image == nil ? .color(Self.transparent) : .media(name)
                (under.clip.source, under.source, under.clip.filters) = (source, nil, [])
            case nil:
                (under.clip.source, under.source, under.clip.filters) = (.color(Self.transparent), nil, [])
            }
            return under
        }
    }
}
