import FilePaths
import MediaFormat
import CompositionGraph
import Foundation
import MediaTime
import ProjectFile

/// Turns a schema-valid, vars-substituted document into a typed `Project`.
struct ProjectDecoder {
    let file: String
    var problems = Problems()
    var fps = Rational(30)
    var frameSize = PixelSize(width: 1920, height: 1080)
    /// What the command line says about the output (`-o`, `--audio-only`).
    let target: OutputTarget
    /// How the files the project names are found (nil: relative to `file`'s folder).
    let paths: (any ProjectPathResolver)?
    /// Whether the project is a nested project (see `ProjectPathResolver`).
    let nested: Bool
    /// How the document's strings are written, for errors inside them.
    var strings = WrittenStrings()

    init(file: String, target: OutputTarget = OutputTarget(), paths: (any ProjectPathResolver)? = nil, nested: Bool = false) {
        self.file = file
        self.target = target
        self.paths = paths
        self.nested = nested
    }

    var directory: URL { URL(fileURLWithPath: file).deletingLastPathComponent() }

    mutating func decode(_ root: NodeCursor) -> Project {
        let output = decodeOutput(root["output"])
        let media = root["media"]?.members.compactMap { decodeMedia(name: $0.key, $0.value) } ?? []
        let fonts = root["fonts"]?.elements.compactMap { c in c.string.flatMap { filePath(c, $0) }.map { ($0, c.origin) } } ?? []
        let video = root["video"]?.elements.map { decodeTrack($0) { $0.decodeVideoClip($1) } } ?? []
        let audio = root["audio"]?.elements.map { decodeTrack($0) { $0.decodeAudioClip($1) } } ?? []
        let overlays = decodeOverlays(root["overlays"], inClip: false)
        let markers = root["markers"]?.elements.compactMap { m in
            m["at"].flatMap { time($0) }.map { Marker(at: $0, duration: m["duration"].flatMap { time($0) } ?? .zero,
                                                      name: m["name"]?.string ?? "", color: m["color"]?.string) }
        } ?? []
        return Project(file: file, output: output, media: media, fonts: fonts, videoTracks: video,
                       audioTracks: audio, overlays: overlays, markers: markers,
                       captions: root["captions"]?.elements.compactMap { decodeCaptionTrack($0) } ?? [])
    }

    /// A path as the project writes it, relative to the project file's folder.
    func absolutePath(_ path: String) -> String { FilePaths.absolutePath(path, from: directory.path) }

    /// The file a project reads that `written`, the text of `c`, names; nil after reporting
    /// why it may not be read.
    mutating func filePath(_ c: NodeCursor, _ written: String) -> String? {
        guard let paths else { return absolutePath(written) }
        switch paths.file(written, in: file, nested: nested) {
        case .success(let path):
            return path
        case .failure(let refusal):
            problems.report(refusal.message, at: c.origin, hint: refusal.hint)
            return nil
        }
    }

    /// A frame rate as `FrameRateNotation` reads it, within the limits of what Reel renders.
    mutating func decodeFPS(_ c: NodeCursor) -> Rational? {
        guard let text = c.scalarText, let rate = FrameRateNotation.parse(text) else {
            problems.report("fps must be a positive number or a fraction like \"30000/1001\"", at: c.origin)
            return nil
        }
        return limit(ProjectLimits.problem(fps: rate, text: text), at: c.origin) ? nil : rate
    }

    mutating func bitrate(_ c: NodeCursor) -> Int? {
        if let i = c.int { return i }
        guard let s = c.string else { return nil }
        let multiplier: Rational = s.hasSuffix("k") ? Rational(1000) : s.hasSuffix("M") ? Rational(1_000_000) : .one
        let digits = multiplier == .one ? s : String(s.dropLast())
        guard let v = Rational(exactly: digits) else {
            problems.report("'\(s)' is not a bit rate", at: c.origin, hint: "write 128000, \"128k\" or \"8M\"")
            return nil
        }
        let bits = v.multiplied(by: multiplier) ?? Rational(Int64.max) // too large either way
        guard !limit(ProjectLimits.problem(bitrate: bits, text: s), at: c.origin) else { return nil }
        return Int(bits.rounded)
    }

    // MARK: Media

    /// A path relative to the project, or a URL kept as written (checked and fetched by the
    /// compiler); or `{ path, fps }`, an image sequence read at its own rate. A refused path
    /// leaves the entry without one, so its uses are no further problem.
    private mutating func decodeMedia(name: String, _ c: NodeCursor) -> MediaEntry? {
        guard let written = c.string != nil ? c : c["path"], let text = written.string else { return nil }
        let isURL = RemoteMediaAddress.scheme(of: text) != nil
        var entry = MediaEntry(name: name, path: isURL ? text : filePath(written, text), location: written.node.location)
        if let fps = c["fps"] {
            if isURL || !ImageSequencePattern.has(text) {
                problems.report("'fps' applies only to image sequences, and '\(text)' is \(isURL ? "a URL, which names one file" : "one file")", at: fps.origin,
                                hint: "name the sequence's files with a frame number pattern (shots/f%04d.png), or remove 'fps'")
            } else {
                entry.sequenceRate = decodeFPS(fps)
            }
        }
        return entry
    }

    /// Reports a broken limit; true when there was one.
    @discardableResult
    mutating func limit(_ problem: ProjectLimits.Problem?, at origin: Origin) -> Bool {
        guard let problem else { return false }
        problems.report(problem.message, at: origin, hint: problem.hint)
        return true
    }

    /// Reports when both keys are set.
    mutating func exclusive(_ first: String, _ second: String, in c: NodeCursor, because reason: String) {
        if c[first] != nil, let other = c[second] {
            problems.report("'\(first)' and '\(second)' \(reason)", at: other.origin)
        }
    }

    // MARK: Values

    mutating func time(_ c: NodeCursor) -> MediaTime? {
        guard let text = c.scalarText else { return nil }
        do {
            let t = try TimeNotation.parse(text, fps: fps)
            return limit(ProjectLimits.problem(time: t, text: text, fps: fps), at: c.origin) ? nil : t
        } catch {
            problems.report(error.message, at: c.origin)
            return nil
        }
    }

    /// A duration: reported when not positive, and then left out (nil) so that later checks
    /// do not report the same mistake again in other words.
    mutating func positiveTime(_ c: NodeCursor) -> MediaTime? {
        guard let t = time(c) else { return nil }
        guard t.isPositive else {
            problems.report("'\(c.path.split(separator: ".").last ?? "")' must be longer than zero (got \(c.scalarText ?? ""))", at: c.origin)
            return nil
        }
        return t
    }

    mutating func color(_ c: NodeCursor) -> Color? {
        guard let s = c.string else { return nil }
        guard let color = Color(parsing: s) else {
            problems.report("'\(s)' is not a colour", at: c.origin, hint: "write \"#rrggbb\", \"#rrggbbaa\" or a name such as white")
            return nil
        }
        return color
    }

    /// `[x, y]`, two lengths.
    mutating func point(_ c: NodeCursor) -> Point2D? {
        let e = c.elements
        guard e.count == 2, let x = length(e[0]), let y = length(e[1]) else { return nil }
        return Point2D(x: x, y: y)
    }

    /// An anchor as fractions of the box: `0.5` and `"50%"` alike.
    mutating func anchorPoint(_ c: NodeCursor) -> Point2D? {
        let e = c.elements
        guard e.count == 2, let x = boxFraction(e[0]), let y = boxFraction(e[1]) else { return nil }
        return Point2D(x: x, y: y)
    }

    /// A layer's `anchor:` (keyframes too); where it gives none, `own` (the point a named
    /// position gives), else the box's centre.
    mutating func anchor(_ c: NodeCursor?, own: Point2D?) -> Animated<Point2D> {
        animated(c, default: own ?? NamedPoint.center.point) { $0.anchorPoint($1) }
    }

    mutating func anchor(_ c: NodeCursor?) -> (x: Double, y: Double) {
        guard let c, let p = anchorPoint(c) else { return (0.5, 0.5) }
        return (p.x.resolved(against: 1), p.y.resolved(against: 1))
    }

    mutating func ease(_ c: NodeCursor?) -> Easing {
        guard let c, let s = c.string else { return .linear }
        if let named = Easing(named: s) { return named }
        if s.hasPrefix("steps(") {
            let count = Int(s.dropFirst(6).dropLast().trimmingCharacters(in: .whitespaces)) ?? 0
            guard (1...Easing.maximumSteps).contains(count) else {
                problems.report("steps(n) takes from 1 to \(Easing.maximumSteps) steps, not \(count)", at: c.origin)
                return .linear
            }
            return .steps(count)
        }
        let inner = s.drop { $0 != "(" }.dropFirst().prefix { $0 != ")" }
        let v = inner.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard v.count == 4 else { return .linear }
        if !(0...1).contains(v[0]) || !(0...1).contains(v[2]) {
            problems.report("cubic-bezier x values must lie in 0…1 (got \(v[0]) and \(v[2]))", at: c.origin)
        }
        return .cubicBezier(v[0], v[1], v[2], v[3])
    }

    mutating func keyframeTime(_ c: NodeCursor) -> KeyframeTime? {
        if c.string == "end" { return .fromEnd(.zero) }
        guard let t = time(c) else { return nil }
        return t.isNegative ? .fromEnd(-t) : .fromStart(t)
    }

    /// A constant or keyframes of any value the closure can read.
    mutating func animated<V>(_ c: NodeCursor?, default value: V, _ read: (NodeCursor) -> V?) -> Animated<V> {
        animated(c, default: value) { _, c in read(c) }
    }

    /// `animated(_:default:_:)` with a reader that reports what it cannot read.
    mutating func animated<V>(_ c: NodeCursor?, default value: V, _ read: (inout Self, NodeCursor) -> V?) -> Animated<V> {
        guard let c else { return .constant(value) }
        if case .array(let items) = c.node.value, items.first.map({ if case .object = $0.value { true } else { false } }) == true {
            var frames: [ProjectKeyframe<V>] = []
            for k in c.elements {
                guard let atNode = k["at"], let at = keyframeTime(atNode), let valueNode = k["value"], let v = read(&self, valueNode) else { continue }
                frames.append(ProjectKeyframe(at: at, value: v, ease: ease(k["ease"]), easeWritten: k["ease"] != nil, origin: k.origin))
            }
            return frames.isEmpty ? .constant(value) : .keyframes(frames)
        }
        return .constant(read(&self, c) ?? value)
    }

    mutating func number(_ c: NodeCursor?, default value: Double) -> Animated<Double> {
        animated(c, default: value) { $0.double }
    }

    // MARK: Tracks

    /// A track's items; with a `default_transition`, that transition joins every two clips
    /// that follow each other directly (no gap, no transition item, no `transition: cut`).
    private mutating func decodeTrack<Clip>(_ c: NodeCursor, clip: (inout Self, NodeCursor) -> Clip?) -> Track<Clip> {
        var items: [TrackItem<Clip>] = []
        let byDefault = c["default_transition"].flatMap { d -> Transition? in
            guard let kind = d["kind"]?.string.flatMap(Transition.Kind.init(rawValue:)), let duration = d["duration"].flatMap({ positiveTime($0) })
            else { return nil }
            let (parameters, pictures) = transitionParameters(d, kind: kind)
            return Transition(kind: kind, parameters: parameters, pictures: pictures, duration: duration, ease: ease(d["ease"]), origin: d.origin)
        }
        var cut = false
        for item in c["clips"]?.elements ?? [] {
            if let spec = item["transition"], spec["glsl"] != nil {
                if item["duration"] != nil, let inner = spec["duration"] {
                    problems.report("the transition's duration is given twice, here and beside transition:", at: inner.origin, hint: "keep one")
                }
                guard let d = (spec["duration"] ?? item["duration"]).flatMap({ positiveTime($0) }), let shader = shaderCall(spec, as: .transition) else { continue }
                items.append(.transition(Transition(kind: .glsl, shader: shader, duration: d, ease: ease(spec["ease"] ?? item["ease"]), origin: item.origin)))
            } else if let kindText = item["transition"]?.string {
                if kindText == "cut" {
                    cut = true
                    continue
                }
                guard let kind = Transition.Kind(rawValue: kindText), let d = item["duration"].flatMap({ positiveTime($0) }) else { continue }
                let (parameters, pictures) = transitionParameters(item, kind: kind)
                items.append(.transition(Transition(kind: kind, parameters: parameters, pictures: pictures, duration: d,
                                                    ease: ease(item["ease"]), origin: item.origin)))
            } else if let gap = item["gap"] {
                if let d = positiveTime(gap) { items.append(.gap(d, item.origin)) }
            } else if let decoded = clip(&self, item) {
                if let byDefault, !cut, case .clip? = items.last { items.append(.transition(byDefault)) }
                items.append(.clip(decoded))
            }
            cut = false
        }
        return Track(name: c["name"]?.string, items: items, duck: c["duck"].flatMap { decodeDuck($0) }, origin: c.origin,
                     filters: decodeFilters(c["filters"]))
    }

    private mutating func decodeDuck(_ c: NodeCursor) -> DuckSpec? {
        guard let under = c["under"], let name = under.string else { return nil }
        let by = c["by"].flatMap { decibels($0) } ?? DuckSpec.defaultBy
        if by <= 0, let node = c["by"] {
            problems.report("duck: 'by' is how far the gain falls and must be more than 0 dB (got \(node.scalarText ?? ""))", at: node.origin,
                            hint: "write by: 12dB to make the track 12 dB quieter")
        }
        return DuckSpec(under: name, by: by,
                        threshold: c["threshold"].flatMap { decibels($0) } ?? DuckSpec.defaultThreshold,
                        attack: c["attack"].flatMap { time($0) } ?? DuckSpec.defaultAttack,
                        release: c["release"].flatMap { time($0) } ?? DuckSpec.defaultRelease, origin: under.origin)
    }

    /// A level in decibels: `12`, `12dB`, `-40dB`.
    private mutating func decibels(_ c: NodeCursor) -> Double? {
        guard let text = c.scalarText?.trimmingCharacters(in: .whitespaces) else { return nil }
        let digits = text.hasSuffix("dB") ? String(text.dropLast(2)).trimmingCharacters(in: .whitespaces) : text
        guard let value = Double(digits), value.isFinite else {
            problems.report("'\(text)' is not a level in decibels", at: c.origin, hint: "write 12dB or -40dB")
            return nil
        }
        return value
    }

    private mutating func timing(_ c: NodeCursor) -> ClipTiming {
        var speed = Rational.one
        if let s = c["speed"], s.elements.isEmpty {
            if let r = s.rational ?? s.string.flatMap(Rational.init(exactly:)), !r.isNegative, !r.isZero {
                if !limit(ProjectLimits.problem(speed: r, text: s.scalarText ?? ""), at: s.origin) { speed = r }
            } else {
                problems.report("speed must be a positive number", at: s.origin)
            }
        }
        let toMediaEnd = c["duration"]?.string == ClipTiming.mediaEnd
        let duration = toMediaEnd ? nil : c["duration"].flatMap { positiveTime($0) }
        var timing = ClipTiming(from: c["from"].flatMap { time($0) }, to: c["to"].flatMap { time($0) },
                                duration: duration, durationIsInvalid: c["duration"] != nil && duration == nil && !toMediaEnd,
                                at: c["at"].flatMap { time($0) }, speed: speed, fadeIn: c["fade_in"].flatMap { time($0) },
                                fadeOut: c["fade_out"].flatMap { time($0) }, effects: timeEffects(c))
        timing.toMediaEnd = toMediaEnd
        return timing
    }

    fileprivate mutating func decodeVideoClip(_ c: NodeCursor) -> VideoClip? {
        let source: VideoSource
        let shown = ["media", "color", "glsl"].filter { c[$0] != nil }
        switch shown.first {
        case _ where shown.count > 1:
            problems.report("a clip is one thing, but this one has \(shown.joined(separator: " and "))", at: c.origin,
                            hint: "keep one of media, color and glsl")
            return nil
        case "media"?:
            guard let name = c["media"]?.string else { return nil }
            source = .media(name)
        case "color"?:
            guard let col = color(c["color"]!) else { return nil }
            source = .color(col)
        case "glsl"?:
            guard let call = shaderCall(c, as: .picture) else { return nil }
            source = .shader(call)
        default:
            problems.report("a clip needs 'media' (a name from media:), 'color' or 'glsl'", at: c.origin,
                            hint: "or, for empty time, write '- gap: 2s'", missing: ["media", "color", "glsl"])
            return nil
        }
        if case .shader = source {} else if let params = c["params"] {
            problems.report("params sets a GLSL clip's uniforms; this clip shows \(shown[0])", at: params.origin, hint: "remove params, or show a shader with glsl: file.frag")
        }
        if case .media = source {} else {
            for key in ["from", "to"] where c[key] != nil {
                problems.report("a \(shown[0] == "color" ? "colour" : "GLSL") clip has no source to take '\(key)' from", at: c[key]!.origin,
                                hint: "give it a duration only")
            }
        }
        exclusive("to", "duration", in: c, because: "both set where the clip ends; keep one")
        let t = c["transform"]
        let placed = position(t?["position"])
        let transform = TransformSpec(position: placed.position, anchor: anchor(t?["anchor"], own: placed.anchor),
                                      scale: number(t?["scale"], default: 1), rotation: number(t?["rotation"], default: 0))
        let crop = c["crop"]
        func edge(_ key: String) -> Animated<Length> { animated(crop?[key], default: .zero) { $0.sourceLength($1) } }
        var clip = VideoClip(name: c["name"]?.string, source: source, timing: timing(c), fit: c["fit"]?.string.flatMap(Fit.init(rawValue:)) ?? .contain,
                         transform: transform, crop: CropSpec(left: edge("left"), top: edge("top"), right: edge("right"), bottom: edge("bottom")),
                         opacity: number(c["opacity"], default: 1), volume: number(c["volume"], default: 1),
                         mute: c["mute"]?.bool ?? false, mask: c["mask"].flatMap { decodeMask($0) }, origin: c.origin,
                         vars: c["vars"].flatMap { VarOverride.members(of: $0.node) } ?? [], filters: decodeFilters(c["filters"]),
                             backdrop: c["backdrop"].flatMap { backdrop($0) })
        clip.id = clipID(c)
        clip.overlays = decodeOverlays(c["overlays"], inClip: true)
        return clipMoves(moving(clip, c["motion"]), c)
    }

    /// `backdrop: blur`, a colour, or an image's name (a word that is no colour name).
    private mutating func backdrop(_ c: NodeCursor) -> Backdrop? {
        guard let text = c.string else { return nil }
        if text == "blur" { return Backdrop(kind: .blur, origin: c.origin) }
        if text.hasPrefix("#") { return color(c).map { Backdrop(kind: .color($0), origin: c.origin) } }
        if let color = Color(parsing: text) { return Backdrop(kind: .color(color), origin: c.origin) }
        return Backdrop(kind: .image(text), origin: c.origin)
    }

    fileprivate mutating func decodeAudioClip(_ c: NodeCursor) -> AudioClip? {
        guard let name = c["media"]?.string else { return nil }
        if c["loop"]?.bool != true { exclusive("to", "duration", in: c, because: "both set where the clip ends; keep one (with loop: true, duration is the time to fill)") }
        return AudioClip(name: c["name"]?.string, id: clipID(c), media: name, timing: timing(c), volume: number(c["volume"], default: 1),
                         loop: c["loop"]?.bool ?? false, origin: c.origin)
    }

    /// A clip's `id:` (the schema checks its form; the compiler, that it is unique).
    private func clipID(_ c: NodeCursor) -> ClipID? {
        c["id"].flatMap { id in id.string.map { ClipID(name: $0, origin: id.origin) } }
    }

    // MARK: Overlays

    /// The overlays of a list, with their entrances and exits; `inClip`: a clip's own `overlays:`.
    private mutating func decodeOverlays(_ list: NodeCursor?, inClip: Bool) -> [Overlay] {
        list?.elements.compactMap { c in decodeOverlay(c, inClip: inClip).map { animating($0, c) } } ?? []
    }

    private mutating func decodeOverlay(_ c: NodeCursor, inClip: Bool) -> Overlay? {
        let kinds = ["text", "image", "svg", "rect", "ellipse"].filter { c[$0] != nil }
        guard kinds.count == 1 else {
            problems.report(kinds.isEmpty ? "an overlay needs one of text, image, svg, rect or ellipse"
                                          : "an overlay is one thing, but this one has \(kinds.joined(separator: " and "))", at: c.origin,
                            hint: kinds.isEmpty ? nil : "make a separate overlay for each")
            return nil
        }
        let content: Overlay.Content
        var inlineFonts: [(family: String, origin: Origin)] = []
        if let textNode = c["text"], let text = textNode.string {
            var style = textStyle(c["style"])
            if c["style"]?["markup"]?.bool == true {
                guard let marked = markedText(textNode) else { return nil }
                style.inline = marked.runs
                inlineFonts = marked.fonts
                content = .text(marked.text, style)
            } else {
                content = .text(text, style)
            }
        } else if let name = c["image"]?.string {
            content = .image(name)
        } else if let name = c["svg"]?.string {
            content = .svg(name)
        } else if c["rect"] != nil {
            content = .rect(shapeStyle(c))
        } else if c["ellipse"] != nil {
            content = .ellipse(shapeStyle(c))
        } else {
            return nil
        }
        let size = c["size"]?.elements ?? []
        let width = size.count == 2 ? length(size[0]) : nil, height = size.count == 2 ? length(size[1]) : nil
        var watermark: Overlay.Watermark?
        if let w = c["watermark"], let corner = w["corner"]?.string.flatMap(Overlay.Watermark.Corner.init(rawValue:)) {
            watermark = Overlay.Watermark(corner: corner, margin: w["margin"].flatMap { length($0) } ?? .pixels(Rational(24)),
                                          width: w["width"].flatMap { length($0) }, height: w["height"].flatMap { length($0) })
        }
        let placed = position(c["position"])
        guard let timing = overlayTiming(c, inClip: inClip) else { return nil }
        return Overlay(content: content, timing: timing,
                       position: placed.position, anchor: anchor(c["anchor"], own: placed.anchor),
                       width: width, height: height, fit: c["fit"]?.string.flatMap(Fit.init(rawValue:)) ?? .contain,
                       scale: number(c["scale"], default: 1),
                       rotation: number(c["rotation"], default: 0), opacity: number(c["opacity"], default: 1),
                       fadeIn: c["fade_in"].flatMap { time($0) }, fadeOut: c["fade_out"].flatMap { time($0) },
                       watermark: watermark, origin: c.origin, fontOrigin: c["style"]?["font"]?.origin, inlineFonts: inlineFonts)
    }

    /// When an overlay starts and how long it lasts; nil when its `at` or `duration` cannot be
    /// used (reported). An overlay written in a clip (`inClip`) counts from the clip's start and
    /// lasts to the clip's end unless it says otherwise.
    private mutating func overlayTiming(_ c: NodeCursor, inClip: Bool) -> OverlayTiming? {
        var timing = OverlayTiming(base: inClip ? .ownClip : .timeline, length: inClip ? .clip : nil)
        if let at = c["at"] {
            timing.atOrigin = at.origin
            if case .object = at.node.value {
                if let clip = at["clip"] {
                    guard let id = clip.string else { return nil }
                    guard !inClip else {
                        problems.report("this overlay is written in a clip's overlays:, which time it by that clip, so its 'at' names no clip", at: clip.origin,
                                        hint: "remove 'clip: \(id)', or move the overlay to the project's overlays: to follow another clip")
                        return nil
                    }
                    timing.base = .clip(ClipID(name: id, origin: clip.origin))
                } else if !inClip {
                    problems.report("'at: { … }' counts from a clip, but names none", at: at.origin,
                                    hint: "add the clip's id (at: { clip: intro, offset: 1s }), or give a time on the timeline (at: 1s)")
                    return nil
                }
                timing.edge = at["from"]?.string.flatMap(OverlayTiming.Edge.init(rawValue:)) ?? .start
                if let offset = at["offset"] {
                    guard let t = time(offset) else { return nil }
                    timing.offset = t
                }
            } else {
                guard let t = time(at) else { return nil }
                timing.offset = t
            }
        }
        if let duration = c["duration"] {
            timing.lengthOrigin = duration.origin
            if duration.string == OverlayTiming.clipLength {
                if case .timeline = timing.base {
                    problems.report("duration: clip lasts to the end of the overlay's clip, but this overlay follows no clip: its 'at' is a time on the timeline",
                                    at: duration.origin, hint: "tie it to a clip (at: { clip: intro }), or give it a time (duration: 2s)")
                    return nil
                }
                timing.length = .clip
            } else {
                guard let t = positiveTime(duration) else { return nil }
                timing.length = .time(t)
            }
        }
        return timing
    }

    private static let weights = ["thin": 100, "light": 300, "normal": 400, "medium": 500, "semibold": 600, "bold": 700, "heavy": 900]

    mutating func textStyle(_ c: NodeCursor?) -> TextStyle {
        let weight = c?["weight"].flatMap { $0.int ?? $0.string.flatMap { Self.weights[$0] } } ?? 400
        let shadow = c?["shadow"].map { s -> Shadow in
            let offset = s["offset"].flatMap { point($0) }
            return Shadow(color: s["color"].flatMap { color($0) } ?? Color(red: 0, green: 0, blue: 0, alpha: 0.6),
                          offsetX: offset?.x.resolved(against: frameSize.width) ?? 4, offsetY: offset?.y.resolved(against: frameSize.height) ?? 4,
                          blur: pixels(s["blur"], "a shadow's blur", .nonNegative) ?? 8)
        }
        let background = c?["background"].flatMap { textBackground($0, padding: 16) }
        let size = pixels(c?["size"], "a font size", .positive) ?? 48, letterSpacing = pixels(c?["letter_spacing"], "a letter spacing") ?? 0
        let boxWidth = c?["box_width"].flatMap { length($0) }, boxHeight = c?["box_height"].flatMap { length($0) }
        return TextStyle(font: c?["font"]?.string ?? "DejaVu Sans", weight: weight, italic: c?["style"]?.string == "italic",
                         size: size, color: c?["color"].flatMap { color($0) } ?? .white,
                         alignment: c?["align"]?.string.flatMap(TextStyle.Alignment.init(rawValue:)) ?? .center,
                         verticalAlignment: c?["valign"]?.string.flatMap(TextStyle.VerticalAlignment.init(rawValue:)) ?? .middle,
                         boxWidth: boxWidth?.resolved(against: frameSize.width), boxHeight: boxHeight?.resolved(against: frameSize.height),
                         wrap: c?["wrap"]?.bool ?? true,
                         lineHeight: c?["line_height"]?.double, letterSpacing: letterSpacing,
                         stroke: c?["stroke"].flatMap { stroke($0) }, shadow: shadow, background: background,
                         fit: c?["fit"]?.string == "shrink" ? .shrink : .none, language: c?["language"]?.string)
    }

    private mutating func stroke(_ c: NodeCursor) -> Stroke? {
        guard let col = c["color"].flatMap({ color($0) }), let w = pixels(c["width"], "a stroke's width", .nonNegative) else { return nil }
        return Stroke(color: col, width: w)
    }

    /// A box behind text, `{color, padding, corner_radius}`; nil without a colour.
    mutating func textBackground(_ c: NodeCursor, padding: Double) -> TextStyle.Background? {
        guard let fill = c["color"].flatMap({ color($0) }) else { return nil }
        return TextStyle.Background(color: fill, padding: pixels(c["padding"], "a padding", .nonNegative) ?? padding,
                                    cornerRadius: pixels(c["corner_radius"], "a corner radius", .nonNegative) ?? 0,
                                    fit: c["fit"]?.string.flatMap(TextStyle.Background.Fit.init(rawValue:)) ?? .box)
    }

    private mutating func shapeStyle(_ c: NodeCursor) -> ShapeStyle {
        var fill: Fill?
        if let f = c["fill"] {
            if f.string != nil {
                fill = color(f).map(Fill.color)
            } else {
                let stops = f["stops"]?.elements.compactMap { s -> GradientStop? in
                    let e = s.elements
                    guard e.count == 2, let offset = e[0].double, let col = color(e[1]) else { return nil }
                    return GradientStop(offset: offset, color: col)
                } ?? []
                fill = .linearGradient(angle: f["angle"]?.double ?? 0, stops: stops)
            }
        }
        return ShapeStyle(fill: fill, stroke: c["stroke"].flatMap { stroke($0) }, cornerRadius: pixels(c["corner_radius"], "a corner radius", .nonNegative) ?? 0)
    }
}
