import CompositionGraph
import MediaTime

/// A named animation of the project format (`enter: pop`, `exit: slide-left`, `motion: ken-burns`),
/// declared once beside the keyframes it writes (`NamedMoves`, `ProjectDecoder.moving`); the
/// schema's names and docs/format.md's table come from `all` (`scripts/generate-format`).
public struct NamedAnimation: Sendable {
    /// The key that names it.
    public enum Key: String, Sendable { case enter, exit, motion }

    public let key: Key
    public let name: String
    /// What takes it: `an overlay`.
    public let on: String
    /// The keyframes it writes, for docs/format.md (Markdown).
    public let keyframes: String
    /// The schema's words for it after its name (`zooms out`; an entrance's in brackets), if any.
    public let hint: String?

    init(key: Key, name: String, on: String = "an overlay or a clip", keyframes: String, hint: String? = nil) {
        self.key = key
        self.name = name
        self.on = on
        self.keyframes = keyframes
        self.hint = hint
    }

    /// Every named animation, in the schema's order.
    public static let all: [NamedAnimation] = motions + entrances + exits

    /// The directions of slides, wipes and pans: `up` moves up.
    static let directions = ["up", "down", "left", "right"]

    /// What `by:` splits a text into for an entrance or exit a unit at a time.
    public static let units = ["letter", "word", "line"]

    private static let motions = [
        NamedAnimation(key: .motion, name: "ken-burns", on: "a clip (a still, usually)",
                       keyframes: "`transform.scale` 1 → 1.15 and `position` 50 % → 48.5 % over the whole clip, ease-in-out",
                       hint: "zooms slowly in (1 to 1.15) with a slight drift"),
        NamedAnimation(key: .motion, name: "ken-burns-out", on: "a clip", keyframes: "the same, backwards", hint: "zooms out"),
        NamedAnimation(key: .motion, name: "zoom-in", on: "a clip",
                       keyframes: "`transform.scale` 1 → 1 + amount (default 0.2) over the whole clip, ease-in-out", hint: "zooms in about the centre"),
        NamedAnimation(key: .motion, name: "zoom-out", on: "a clip", keyframes: "`transform.scale` 1 + amount → 1", hint: "zooms out"),
    ] + directions.map { way in
        NamedAnimation(key: .motion, name: "pan-" + way, on: "a clip",
                       keyframes: "`transform.scale` 1 + amount (default 0.2) and `position` moved \(way) by amount / 2 of the frame over the whole clip, "
                           + "ease-in-out: the picture, enlarged to leave room, travels \(way) and never shows its edge",
                       hint: "moves the picture \(way)")
    }

    private static let entrances = [
        NamedAnimation(key: .enter, name: "fade", keyframes: "`fade_in` of the entrance's duration"),
    ] + directions.map { way in
        NamedAnimation(key: .enter, name: "slide-" + way,
                       keyframes: "moving \(way): `anchor` half the layer's size away for the start, back to its own at the end, ease-out, with "
                           + "`fade_in`; with `from: frame`, `position` at the frame's edge and `anchor` at the layer's far edge instead, so it comes "
                           + "in from outside the frame, without the fade")
    } + directions.map { way in
        NamedAnimation(key: .enter, name: "wipe-" + way,
                       keyframes: "an edge moving \(way) across the layer reveals it (an overlay's ink; a clip's picture, by `crop`), ease-in-out")
    } + [
        NamedAnimation(key: .enter, name: "pop", keyframes: "`scale` 0.6 → 1.06 (at 70 %) → 1 times its own; `fade_in` of half the entrance"),
        NamedAnimation(key: .enter, name: "grow", keyframes: "`scale` 0 → its own, ease-out"),
        NamedAnimation(key: .enter, name: "typewriter", on: "a text overlay or caption",
                       keyframes: "by letter (or the `by` given), each unit appearing at once in turn: the duration is the time to type the whole "
                           + "text (or `stagger:` the time between two letters); the layout is the whole text's, so each letter appears in its place",
                       hint: "text only: the text appears a character at a time"),
    ]

    private static let exits = [
        NamedAnimation(key: .exit, name: "fade", keyframes: "`fade_out` of the exit's duration"),
    ] + directions.map { way in
        NamedAnimation(key: .exit, name: "slide-" + way,
                       keyframes: "moving \(way): `anchor` from its own to half the layer's size away, ease-in, with `fade_out`; with `to: frame`, "
                           + "to the frame's edge, leaving it")
    } + directions.map { way in
        NamedAnimation(key: .exit, name: "wipe-" + way, keyframes: "an edge moving \(way) across the layer hides it, ease-in-out")
    } + [
        NamedAnimation(key: .exit, name: "pop", keyframes: "`scale` 1 → 1.06 (at 30 %) → 0.6 times its own; `fade_out` of half the exit"),
        NamedAnimation(key: .exit, name: "shrink", keyframes: "`scale` its own → 0, ease-in"),
        NamedAnimation(key: .exit, name: "typewriter", on: "a text overlay or caption",
                       keyframes: "the entrance backwards: the last letter first, a letter less at a time until none is left at the end",
                       hint: "text only: the text is deleted a character at a time"),
    ]

    /// The names `key` takes, in order.
    public static func names(_ key: Key) -> [String] { all.filter { $0.key == key }.map(\.name) }
}

/// A named entrance or exit as written: `enter: pop`, `exit: { kind: slide-left, duration: 1s, to: frame }`.
struct NamedMove: Sendable {
    enum Edge { case enter, exit }

    var edge: Edge
    var kind: String
    var duration: MediaTime
    /// `from: frame` / `to: frame`: a slide starts or ends outside the frame.
    var beyondFrame: Bool
    var origin: Origin
    /// `by:` as written (a text a unit at a time).
    var by: TextUnitPhase.Unit? = nil
    /// `stagger:` as written.
    var stagger: MediaTime? = nil
    /// Whether `duration:` is written.
    var durationWritten = false

    /// What the move splits the text by: `by`, a typewriter's letters, nil for the whole layer.
    var unit: TextUnitPhase.Unit? { by ?? (kind == "typewriter" ? .letter : nil) }

    /// The key it was written under: `enter` or `exit`.
    var key: String { edge == .enter ? "enter" : "exit" }
    /// The direction of a slide or wipe (`left`), nil for other kinds.
    var direction: String? {
        for prefix in ["slide-", "wipe-"] where kind.hasPrefix(prefix) { return String(kind.dropFirst(prefix.count)) }
        return nil
    }
}

/// The keyframes one value gets from an entrance and an exit: those before it reaches its own
/// value, and those after it leaves it. Times are fractions of the entrance's or exit's duration.
struct MoveKeyframes<Value: Sendable> {
    typealias Step = (at: Rational, value: Value, ease: Easing)

    /// Ends where the value reaches its own (at 1).
    var entering: [Step] = []
    /// The ease leaving its own value (at 0), then the steps after it.
    var leavingEase: Easing = .linear
    var leaving: [Step] = []

    var isEmpty: Bool { entering.isEmpty && leaving.isEmpty }

    /// The keyframes over an item, entering over `enter` from its start and leaving over `exit` before its end.
    func keyframes(around own: Value, enter: MediaTime, exit: MediaTime, origin: Origin) -> Animated<Value> {
        func frame(_ at: KeyframeTime, _ value: Value, _ ease: Easing) -> ProjectKeyframe<Value> {
            ProjectKeyframe(at: at, value: value, ease: ease, easeWritten: false, origin: origin)
        }
        var frames = entering.map { frame(.fromStart(enter * $0.at), $0.value, $0.ease) }
        if !entering.isEmpty { frames.append(frame(.fromStart(enter), own, .linear)) }
        if !leaving.isEmpty {
            frames.append(frame(.fromEnd(exit), own, leavingEase))
            frames += leaving.map { frame(.fromEnd(exit * (Rational.one - $0.at)), $0.value, $0.ease) }
        }
        return .keyframes(frames)
    }
}

/// Named entrances and exits written as keyframes: of an overlay as it is read, of a clip once
/// its span on the timeline is known.
enum NamedMoves {
    /// `o` with the keyframes of an entrance and an exit other than typewriter.
    static func moved<Item: MovableItem>(_ o: Item, enter: NamedMove?, exit: NamedMove?, problems: inout Problems) -> Item {
        var o = o
        var anchor = MoveKeyframes<Point2D>(), position = MoveKeyframes<Point2D>(), scale = MoveKeyframes<Double>()
        var reveal = (left: MoveKeyframes<Double>(), top: MoveKeyframes<Double>(), right: MoveKeyframes<Double>(), bottom: MoveKeyframes<Double>())
        let ownAnchor = o.anchor.constantValue, ownPosition = o.position?.constantValue ?? NamedPoint.center.point
        for move in [enter, exit].compactMap({ $0 }) {
            let entering = move.edge == .enter
            func fade(_ length: MediaTime) {
                if entering {
                    if o.fadeIn != nil, move.kind == "fade" { problems.report("enter: fade and fade_in both fade the \(Item.noun) in", at: move.origin, hint: "keep one") }
                    if o.fadeIn == nil { o.fadeIn = length }
                } else {
                    if o.fadeOut != nil, move.kind == "fade" { problems.report("exit: fade and fade_out both fade the \(Item.noun) out", at: move.origin, hint: "keep one") }
                    if o.fadeOut == nil { o.fadeOut = length }
                }
            }
            /// `value` where the move starts (an entrance) or ends (an exit).
            func away<V>(_ k: inout MoveKeyframes<V>, _ value: V, _ ease: Easing) {
                if entering { k.entering = [(.zero, value, ease)] } else { k.leavingEase = ease; k.leaving = [(.one, value, .linear)] }
            }
            switch move.kind {
            case "fade":
                fade(move.duration)
            case "pop":
                // Times its own scale (nil when keyframed: reported below).
                let own = o.scale.constantValue ?? 1
                if entering {
                    scale.entering = [(.zero, 0.6 * own, .easeOut), (Rational(7, 10), 1.06 * own, .easeInOut)]
                } else {
                    scale.leavingEase = .easeInOut
                    scale.leaving = [(Rational(3, 10), 1.06 * own, .easeIn), (.one, 0.6 * own, .linear)]
                }
                fade(move.duration / Rational(2))
            case "grow", "shrink":
                away(&scale, 0, entering ? .easeOut : .easeIn)
            default:
                guard let way = move.direction else { break }
                if move.kind.hasPrefix("wipe-") {
                    wipe(&reveal, way, entering: entering)
                } else if move.beyondFrame {
                    // At the frame's edge, by the layer's far side: wholly outside, whatever the layer's size.
                    let (edge, side) = Self.frameEdge(moving: way, entering: entering)
                    let atEdge = way == "left" || way == "right" ? Point2D(x: .fraction(edge), y: ownPosition.y) : Point2D(x: ownPosition.x, y: .fraction(edge))
                    guard let ownAnchor else { break }
                    let farSide = way == "left" || way == "right" ? Point2D(x: .fraction(side), y: ownAnchor.y) : Point2D(x: ownAnchor.x, y: .fraction(side))
                    away(&position, atEdge, entering ? .easeOut : .easeIn)
                    away(&anchor, farSide, entering ? .easeOut : .easeIn)
                } else {
                    guard let ownAnchor else { break }
                    // Half the layer's own size back (entering) or on (leaving), by its anchor: the box starts or ends beside where it is.
                    let v = Self.unit(way), half = Rational(entering ? 1 : -1, 2)
                    let shifted = Point2D(x: .fraction(ownAnchor.x.fraction + half * Rational(Int(v.x))),
                                          y: .fraction(ownAnchor.y.fraction + half * Rational(Int(v.y))))
                    away(&anchor, shifted, entering ? .easeOut : .easeIn)
                    fade(move.duration)
                }
            }
        }
        let enterLength = enter?.duration ?? .zero, exitLength = exit?.duration ?? .zero
        let origin = (exit ?? enter)!.origin
        func apply<V>(_ value: inout Animated<V>, _ k: MoveKeyframes<V>, _ name: String) {
            guard !k.isEmpty else { return }
            guard case .constant(let own) = value else {
                let move = (k.entering.isEmpty ? exit : enter)!
                problems.report("\(move.key): \(move.kind) animates \(name), which has keyframes of its own here", at: move.origin,
                                hint: "remove one of them, or write the \(move.edge == .enter ? "entrance" : "exit") as keyframes")
                return
            }
            value = k.keyframes(around: own, enter: enterLength, exit: exitLength, origin: origin)
        }
        apply(&o.anchor, anchor, "anchor")
        apply(&o.scale, scale, "scale")
        if !position.isEmpty {
            var p = o.position ?? .constant(ownPosition)
            apply(&p, position, "position")
            o.position = p
        }
        if ![reveal.left, reveal.top, reveal.right, reveal.bottom].allSatisfy(\.isEmpty) {
            if let conflict = o.wipeConflict {
                let move = [enter, exit].compactMap { $0 }.first { $0.kind.hasPrefix("wipe-") }!
                problems.report("\(move.key): \(move.kind) \(conflict)", at: move.origin, hint: "remove one of them, or write the wipe as crop keyframes")
            } else {
                var r = Overlay.Reveal()
                apply(&r.left, reveal.left, "reveal")
                apply(&r.top, reveal.top, "reveal")
                apply(&r.right, reveal.right, "reveal")
                apply(&r.bottom, reveal.bottom, "reveal")
                o.reveal = r
            }
        }
        return o
    }

    /// A unit step `way` on screen (y grows downwards).
    static func unit(_ way: String) -> (x: Double, y: Double) {
        switch way {
        case "up": (0, -1)
        case "down": (0, 1)
        case "left": (-1, 0)
        default: (1, 0)
        }
    }

    /// For a slide beyond the frame: the frame edge (a fraction of its width or height) the
    /// layer starts or ends at, and the side of the layer (its anchor) that touches it.
    static func frameEdge(moving way: String, entering: Bool) -> (edge: Rational, side: Rational) {
        // Moving left, it comes in at the right edge, its left side first, and leaves at the left edge by its right side.
        let towardsStart = way == "left" || way == "up"
        return towardsStart == entering ? (.one, .zero) : (.zero, .one)
    }

    /// A wipe moving `way`: an entrance moves the edge that uncovers, an exit the one that covers.
    private static func wipe(_ r: inout (left: MoveKeyframes<Double>, top: MoveKeyframes<Double>, right: MoveKeyframes<Double>, bottom: MoveKeyframes<Double>),
                      _ way: String, entering: Bool) {
        // An entrance moving right sweeps the right edge in from 0 (it uncovers); an exit moving right, the left edge out to 1 (it covers).
        func sweep(_ k: inout MoveKeyframes<Double>, own: Double) {
            if entering { k.entering = [(.zero, 1 - own, .easeInOut)] } else { k.leavingEase = .easeInOut; k.leaving = [(.one, 1 - own, .linear)] }
        }
        switch (way, entering) {
        case ("right", true), ("left", false): sweep(&r.right, own: 1)
        case ("left", true), ("right", false): sweep(&r.left, own: 0)
        case ("down", true), ("up", false): sweep(&r.bottom, own: 1)
        default: sweep(&r.top, own: 0)
        }
    }

}

/// Named entrances, exits and moves, written as the ordinary keyframes a project could hold
/// (so `reel graph` shows them) before anything else sees them.
extension ProjectDecoder {
    static let defaultEntrance = MediaTime(Rational(1, 2))
    /// The time between two units' starts of a text entering or leaving by unit.
    static let defaultStagger = MediaTime(Rational(1, 20))

    /// `enter:` or `exit:` as written; nil when absent or not usable (reported).
    mutating func namedMove(_ c: NodeCursor?, _ edge: NamedMove.Edge) -> NamedMove? {
        guard let c, let kind = (c.string ?? c["kind"]?.string) else { return nil }
        let key = edge == .enter ? "enter" : "exit"
        guard NamedAnimation.names(edge == .enter ? .enter : .exit).contains(kind) else {
            problems.report("\(key): '\(kind)' is no \(edge == .enter ? "entrance" : "exit")", at: c.origin,
                            hint: "use one of \(NamedAnimation.names(edge == .enter ? .enter : .exit).joined(separator: ", "))")
            return nil
        }
        let beyond = c[edge == .enter ? "from" : "to"]?.string == "frame"
        var move = NamedMove(edge: edge, kind: kind, duration: c["duration"].flatMap { positiveTime($0) } ?? Self.defaultEntrance,
                             beyondFrame: beyond, origin: c.origin)
        move.durationWritten = c["duration"] != nil
        if beyond && !kind.hasPrefix("slide-") {
            problems.report("\(key): \(edge == .enter ? "from" : "to"): frame is for slides; \(kind) does not move the layer", at: c.origin,
                            hint: "remove it, or use a slide-…")
        }
        if let by = c["by"] {
            guard let text = by.string, NamedAnimation.units.contains(text), let unit = TextUnitPhase.Unit(rawValue: text) else {
                problems.report("\(key): by: '\(by.scalarText ?? "")' is no unit of text", at: by.origin,
                                hint: "use one of \(NamedAnimation.units.joined(separator: ", "))")
                return nil
            }
            move.by = unit
            if beyond {
                problems.report("\(key): \(edge == .enter ? "from" : "to"): frame moves the whole layer; by: \(text) moves each \(text) within it",
                                at: c.origin, hint: "remove one of them")
            }
        }
        if let stagger = c["stagger"] {
            guard let t = time(stagger) else { return nil }
            guard !t.isNegative else {
                problems.report("\(key): stagger must be zero or more (got \(stagger.scalarText ?? ""))", at: stagger.origin)
                return nil
            }
            move.stagger = t
            if move.unit == nil {
                problems.report("\(key): stagger is the time between two units of a text; it needs by: letter, word or line", at: stagger.origin,
                                hint: "add by: word, or remove stagger")
            } else if kind == "typewriter" && move.durationWritten {
                problems.report("\(key): typewriter types the whole text in its duration, or a letter every stagger; not both", at: stagger.origin,
                                hint: "keep one of duration and stagger")
            }
        }
        return move
    }

    /// The overlay with its entrance and exit applied: as keyframes of the whole layer, or,
    /// for a text by unit (`by:`, typewriter), as the unit moves the compiler times.
    mutating func animating(_ o: Overlay, _ c: NodeCursor) -> Overlay {
        let enter = namedMove(c["enter"], .enter), exit = namedMove(c["exit"], .exit)
        guard enter != nil || exit != nil else { return o }
        var o = o
        let byUnit = [enter, exit].compactMap { $0 }.filter { $0.unit != nil }
        if !byUnit.isEmpty {
            if case .text = o.content {
                o.unitMoves = byUnit.map(UnitMoves.spec)
            } else {
                for move in byUnit {
                    problems.report(move.by == nil ? "\(move.key): typewriter types text; this overlay is no text"
                                        : "\(move.key): by: \(move.by!.rawValue) splits a text; this overlay is no text",
                                    at: move.origin, hint: "use fade, slide-…, wipe-… or pop without by")
                }
            }
        }
        let wholeEnter = enter?.unit == nil ? enter : nil, wholeExit = exit?.unit == nil ? exit : nil
        guard wholeEnter != nil || wholeExit != nil else { return o }
        o = NamedMoves.moved(o, enter: wholeEnter, exit: wholeExit, problems: &problems)
        o.moves = ((wholeEnter?.duration ?? .zero) + (wholeExit?.duration ?? .zero), (wholeExit ?? wholeEnter)!.origin)
        return o
    }

    /// A caption style's `enter:` or `exit:`: a text move by unit, the whole page without `by`.
    mutating func captionMove(_ c: NodeCursor?, _ edge: NamedMove.Edge) -> TextUnitMoveSpec? {
        guard var move = namedMove(c, edge) else { return nil }
        if move.beyondFrame {
            problems.report("\(move.key): \(edge == .enter ? "from" : "to"): frame does not move a caption out of the frame", at: move.origin,
                            hint: "remove it")
        }
        if move.unit == nil { move.by = .whole }
        return UnitMoves.spec(move)
    }

    /// A clip's `enter:` and `exit:`, kept until its span is known (`NamedMoves.moved`).
    mutating func clipMoves(_ clip: VideoClip, _ c: NodeCursor) -> VideoClip {
        var clip = clip
        clip.enter = namedMove(c["enter"], .enter)
        clip.exit = namedMove(c["exit"], .exit)
        for move in [clip.enter, clip.exit].compactMap({ $0 }) where move.unit != nil {
            problems.report(move.by == nil ? "\(move.key): typewriter types text; a clip is no text"
                                : "\(move.key): by: \(move.by!.rawValue) splits a text; a clip is no text",
                            at: move.origin, hint: "use fade, slide-…, wipe-… or pop without by")
            if move.edge == .enter { clip.enter = nil } else { clip.exit = nil }
        }
        return clip
    }

    /// The clip with its `motion:` applied to its transform.
    mutating func moving(_ clip: VideoClip, _ c: NodeCursor?) -> VideoClip {
        guard let c, let kind = (c.string ?? c["kind"]?.string) else { return clip }
        var clip = clip
        guard case .constant(let scale) = clip.transform.scale, scale == 1, clip.transform.position == nil else {
            problems.report("motion: \(kind) moves the clip's transform, which sets its own scale or position here", at: c.origin,
                            hint: "remove one of them, or write the move as transform keyframes")
            return clip
        }
        func frame<V>(_ at: KeyframeTime, _ value: V, _ ease: Easing = .linear) -> ProjectKeyframe<V> {
            ProjectKeyframe(at: at, value: value, ease: ease, easeWritten: ease != .linear, origin: c.origin)
        }
        func across<V>(_ start: V, _ end: V) -> Animated<V> { .keyframes([frame(.fromStart(.zero), start, .easeInOut), frame(.fromEnd(.zero), end)]) }
        let centre = NamedPoint.center.point
        var amount = c["amount"]?.rational ?? Rational(1, 5)
        if !(amount > .zero && amount <= Rational(4)) {
            problems.report("motion: amount must be above 0 and at most 4 (got \(c["amount"]?.scalarText ?? ""))", at: c["amount"]?.origin ?? c.origin,
                            hint: "0.2 enlarges the picture by a fifth")
            amount = Rational(1, 5)
        }
        switch kind {
        case "ken-burns", "ken-burns-out":
            let zoomIn = kind == "ken-burns"
            let (near, far) = (1.0, 1.15)
            clip.transform.scale = across(zoomIn ? near : far, zoomIn ? far : near)
            // A slight drift towards the upper left while zooming in (back while zooming out).
            let drifted = Point2D(x: .fraction(Rational(97, 200)), y: .fraction(Rational(97, 200)))
            clip.transform.position = across(zoomIn ? centre : drifted, zoomIn ? drifted : centre)
        case "zoom-in": clip.transform.scale = across(1, 1 + amount.doubleValue)
        case "zoom-out": clip.transform.scale = across(1 + amount.doubleValue, 1)
        default: // pan-…
            // Enlarged by `amount`, the picture overhangs the frame by amount / 2 on each side: it travels that far.
            clip.transform.scale = .constant(1 + amount.doubleValue)
            let v = NamedMoves.unit(String(kind.dropFirst("pan-".count))), reach = amount / Rational(2), half = Rational(1, 2)
            let (dx, dy) = (Rational(Int(v.x)) * reach, Rational(Int(v.y)) * reach)
            let start = Point2D(x: .fraction(half - dx), y: .fraction(half - dy))
            let end = Point2D(x: .fraction(half + dx), y: .fraction(half + dy))
            clip.transform.position = across(start, end)
        }
        return clip
    }
}

/// What entrances and exits animate: an overlay, or a clip by its transform, fades and crop.
protocol MovableItem {
    /// `overlay`, `clip`.
    static var noun: String { get }
    var anchor: Animated<Point2D> { get set }
    var position: Animated<Point2D>? { get set }
    var scale: Animated<Double> { get set }
    var fadeIn: MediaTime? { get set }
    var fadeOut: MediaTime? { get set }
    /// What a wipe leaves (a clip's crop); nil: all of it.
    var reveal: Overlay.Reveal? { get set }
    /// Why a wipe cannot be written here (`crops the clip, which has a crop of its own here`), or nil.
    var wipeConflict: String? { get }
}

extension Overlay: MovableItem {
    static let noun = "overlay"
    var wipeConflict: String? { nil }
}

extension VideoClip: MovableItem {
    static let noun = "clip"
    var anchor: Animated<Point2D> {
        get { transform.anchor }
        set { transform.anchor = newValue }
    }
    var position: Animated<Point2D>? {
        get { transform.position }
        set { transform.position = newValue }
    }
    var scale: Animated<Double> {
        get { transform.scale }
        set { transform.scale = newValue }
    }
    var fadeIn: MediaTime? {
        get { timing.fadeIn }
        set { timing.fadeIn = newValue }
    }
    var fadeOut: MediaTime? {
        get { timing.fadeOut }
        set { timing.fadeOut = newValue }
    }
    /// A wipe is a crop by fractions of the picture: the reveal's left edge is the left crop, its right edge 1 − the right crop.
    var reveal: Overlay.Reveal? {
        get { nil }
        set {
            guard let r = newValue else { return }
            // A wipe's edges are 0 and 1 of the picture: exact in millionths.
            func fraction(_ v: Double) -> Length { .fraction(Rational(Int64((v * 1_000_000).rounded()), 1_000_000)) }
            func cut(_ a: Animated<Double>, _ f: @escaping (Double) -> Double) -> Animated<Length> {
                switch a {
                case .constant(let v): .constant(fraction(f(v)))
                case .keyframes(let frames): .keyframes(frames.map { ProjectKeyframe(at: $0.at, value: fraction(f($0.value)), ease: $0.ease,
                                                                                      easeWritten: $0.easeWritten, origin: $0.origin) })
                }
            }
            crop = CropSpec(left: cut(r.left) { $0 }, top: cut(r.top) { $0 }, right: cut(r.right) { 1 - $0 }, bottom: cut(r.bottom) { 1 - $0 })
        }
    }
    var wipeConflict: String? {
        let uncut = [crop.left, crop.top, crop.right, crop.bottom].allSatisfy {
            if case .constant(let l) = $0 { return l.resolved(against: 1) == 0 }
            return false
        }
        return uncut ? nil : "crops the clip, which has a crop of its own here"
    }
}

extension Animated {
    /// The value when it does not change, nil when keyframed.
    var constantValue: Value? {
        if case .constant(let v) = self { return v }
        return nil
    }

    var isConstant: Bool { constantValue != nil }
}
