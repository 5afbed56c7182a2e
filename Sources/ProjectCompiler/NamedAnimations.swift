import CompositionGraph
import MediaTime

/// A named animation of the project format (`enter: pop`, `motion: ken-burns`), declared once
/// beside the keyframes it writes (`ProjectDecoder.entering` and `moving` below); the schema's
/// names and docs/format.md's table come from `all` (`scripts/generate-format`).
public struct NamedAnimation: Sendable {
    /// The key that names it.
    public enum Key: String, Sendable { case enter, motion }

    public let key: Key
    public let name: String
    /// What takes it: `an overlay`.
    public let on: String
    /// The keyframes it writes, for docs/format.md (Markdown).
    public let keyframes: String
    /// The schema's words for it after its name (`zooms out`; an entrance's in brackets), if any.
    public let hint: String?

    /// Every named animation, in the schema's order.
    public static let all: [NamedAnimation] = motions + [fade] + slides + [pop, typewriter]

    private static let motions = [
        NamedAnimation(key: .motion, name: "ken-burns", on: "a clip (a still, usually)",
                       keyframes: "`transform.scale` 1 → 1.15 and `position` 50 % → 48.5 % over the whole clip, ease-in-out",
                       hint: "zooms slowly in (1 to 1.15) with a slight drift"),
        NamedAnimation(key: .motion, name: "ken-burns-out", on: "a clip", keyframes: "the same, backwards", hint: "zooms out"),
    ]

    private static let fade = NamedAnimation(key: .enter, name: "fade", on: "an overlay", keyframes: "`fade_in` of the entrance's duration", hint: nil)

    /// `slide-up` comes from below, and so on.
    private static let slides = [("up", "below"), ("down", "above"), ("left", "the right"), ("right", "the left")].map { way, from in
        NamedAnimation(key: .enter, name: "slide-" + way, on: "an overlay",
                       keyframes: "`anchor` moved by half the layer's size for the start (it comes from \(from)), back to its own at the end, "
                           + "ease-out; with `fade_in`",
                       hint: nil)
    }

    private static let pop = NamedAnimation(key: .enter, name: "pop", on: "an overlay",
                                            keyframes: "`scale` 0.6 → 1.06 (at 70 %) → 1 times its own; `fade_in` of half the entrance", hint: nil)

    private static let typewriter = NamedAnimation(
        key: .enter, name: "typewriter", on: "a text overlay",
        keyframes: "one layer per character typed (at most \(ProjectDecoder.typewriterLimit)), each shown until the next: the duration is the time "
            + "to type the whole text. Anchor it at its start (`anchor: [0, 0.5]`) so the line grows to the right",
        hint: "text only: the text appears a character at a time")

    /// The names `key` takes, in order.
    public static func names(_ key: Key) -> [String] { all.filter { $0.key == key }.map(\.name) }
}

/// Named animations: `enter:` on overlays and `motion:` on clips, written as the ordinary
/// keyframes a project could hold (so `reel graph` shows them) before anything else sees them.
extension ProjectDecoder {
    static let defaultEntrance = MediaTime(Rational(1, 2))
    /// Longest text typed a character at a time (each character is a layer).
    static let typewriterLimit = 500

    /// The overlay with its entrance applied; `typewriter` makes one overlay per character typed.
    mutating func entering(_ o: Overlay, _ c: NodeCursor?) -> [Overlay] {
        guard let c, let kind = (c.string ?? c["kind"]?.string) else { return [o] }
        let d = c["duration"].flatMap { positiveTime($0) } ?? Self.defaultEntrance
        let origin = c.origin
        var o = o
        func fading() {
            if o.fadeIn == nil { o.fadeIn = kind == "pop" ? d / Rational(2) : d }
        }
        func still<V>(_ value: Animated<V>, _ key: String) -> V? {
            if case .constant(let v) = value { return v }
            problems.report("enter: \(kind) animates \(key), which has keyframes of its own here", at: origin,
                            hint: "remove one of them, or write the entrance as keyframes")
            return nil
        }
        func frame<V>(_ t: MediaTime, _ value: V, _ ease: Easing = .linear) -> ProjectKeyframe<V> {
            ProjectKeyframe(at: .fromStart(t), value: value, ease: ease, easeWritten: ease != .linear, origin: origin)
        }
        switch kind {
        case "fade":
            if o.fadeIn != nil {
                problems.report("enter: fade and fade_in both fade the overlay in", at: origin, hint: "keep one")
            }
            fading()
        case "slide-up", "slide-down", "slide-left", "slide-right":
            guard let anchor = still(o.anchor, "anchor") else { return [o] }
            // Half the layer's own size away, by its anchor: the box starts beside where it lands.
            let (dx, dy): (Double, Double) = switch kind {
            case "slide-up": (0, -0.5)
            case "slide-down": (0, 0.5)
            case "slide-left": (-0.5, 0)
            default: (0.5, 0)
            }
            let start = Point2D(x: .fraction(anchor.x.resolved(against: 1) + dx), y: .fraction(anchor.y.resolved(against: 1) + dy))
            o.anchor = .keyframes([frame(.zero, start, .easeOut), frame(d, anchor)])
            fading()
        case "pop":
            guard let scale = still(o.scale, "scale") else { return [o] }
            o.scale = .keyframes([frame(.zero, 0.6 * scale, .easeOut), frame(d * Rational(7, 10), 1.06 * scale, .easeInOut), frame(d, scale)])
            fading()
        default: // typewriter
            return typed(o, over: d, origin: origin)
        }
        return [o]
    }

    /// One overlay per prefix of the text, each shown until the next one starts.
    private mutating func typed(_ o: Overlay, over d: MediaTime, origin: Origin) -> [Overlay] {
        guard case .text(let text, let style) = o.content else {
            problems.report("enter: typewriter types text; this overlay is no text", at: origin, hint: "use fade, slide-… or pop")
            return [o]
        }
        let characters = Array(text)
        guard characters.count <= Self.typewriterLimit else {
            problems.report("enter: typewriter types at most \(Self.typewriterLimit) characters; this text has \(characters.count)", at: origin,
                            hint: "split the text, or use fade")
            return [o]
        }
        guard !characters.isEmpty, o.duration.map({ $0 > d }) ?? true else {
            if !characters.isEmpty {
                problems.report("the typing (\(TimeNotation.seconds(d))) lasts as long as the overlay or longer", at: origin,
                                hint: "give enter a shorter duration")
            }
            return [o]
        }
        let n = characters.count
        return (1...n).map { i in
            var step = o
            step.content = .text(String(characters.prefix(i)), style)
            step.at = o.at + d * Rational(Int64(i - 1), Int64(n))
            if i < n {
                step.duration = d / Rational(Int64(n))
            } else {
                step.duration = o.duration.map { o.at + $0 - step.at }
            }
            // Only the first step fades in; the others follow it directly.
            if i > 1 { step.fadeIn = nil }
            if i < n { step.fadeOut = nil }
            return step
        }
    }

    /// The clip with its `motion:` applied to its transform.
    mutating func moving(_ clip: VideoClip, _ c: NodeCursor?) -> VideoClip {
        guard let c, let kind = c.string else { return clip }
        var clip = clip
        guard case .constant(let scale) = clip.transform.scale, scale == 1, clip.transform.position == nil else {
            problems.report("motion: \(kind) moves the clip's transform, which sets its own scale or position here", at: c.origin,
                            hint: "remove one of them, or write the move as transform keyframes")
            return clip
        }
        let zoomIn = kind == "ken-burns"
        func frame<V>(_ at: KeyframeTime, _ value: V, _ ease: Easing = .linear) -> ProjectKeyframe<V> {
            ProjectKeyframe(at: at, value: value, ease: ease, easeWritten: ease != .linear, origin: c.origin)
        }
        let (near, far) = (1.0, 1.15)
        clip.transform.scale = .keyframes([frame(.fromStart(.zero), zoomIn ? near : far, .easeInOut), frame(.fromEnd(.zero), zoomIn ? far : near)])
        // A slight drift towards the upper left while zooming in (back while zooming out).
        let centre = Point2D(x: .fraction(0.5), y: .fraction(0.5)), drifted = Point2D(x: .fraction(0.485), y: .fraction(0.485))
        clip.transform.position = .keyframes([frame(.fromStart(.zero), zoomIn ? centre : drifted, .easeInOut),
                                              frame(.fromEnd(.zero), zoomIn ? drifted : centre)])
        return clip
    }
}
