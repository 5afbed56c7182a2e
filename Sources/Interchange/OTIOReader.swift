import Foundation
import JSONSchema
import MediaTime
import ProjectFile

/// An OpenTimelineIO file (`.otio`, JSON) as an interchange timeline. The top-level stack's
/// tracks become tracks; clips, gaps and transitions keep their exact times; markers of the
/// stack, of tracks and of clips move onto the timeline. A nested stack or track inside a
/// track, effects Reel lacks and disabled clips are warnings (with their JSON path) and what
/// Reel does instead. Unknown schema versions, malformed times, a file over 16 MiB and more clips than a
/// project holds (`EDLParser.maxEvents`) are errors.
public enum OTIOReader {
    /// Schemas Reel reads, with the versions it knows.
    static let known: [String: ClosedRange<Int>] = [
        "Timeline": 1...1, "Stack": 1...1, "Track": 1...1, "Sequence": 1...1, "Clip": 1...2, "Gap": 1...1, "Transition": 1...1,
        "ExternalReference": 1...1, "MissingReference": 1...1, "GeneratorReference": 1...1, "ImageSequenceReference": 1...1,
        "Effect": 1...1, "LinearTimeWarp": 1...1, "FreezeFrame": 1...1, "TimeEffect": 1...1, "Marker": 1...3,
        "RationalTime": 1...1, "TimeRange": 1...1, "SerializableCollection": 1...1,
    ]
    /// 16 MiB holds a timeline of many thousand clips with their media references; the tree of
    /// a file that large takes a few hundred MB, so larger files are refused before reading them.
    public static let limits = LoadLimits(maxFileBytes: 16 << 20, maxDepth: 200, maxNodes: 2_000_000, acceptsNonFiniteNumbers: true)

    public static func read(path: String) throws(InterchangeError) -> (InterchangeTimeline, [ImportWarning]) {
        let document: Document
        do { document = try DocumentLoader.load(path: path, limits: limits) } catch { throw InterchangeError(loadFailure: error, file: path) }
        return try read(document.root, file: path)
    }

    public static func read(text: String, file: String) throws(InterchangeError) -> (InterchangeTimeline, [ImportWarning]) {
        let document: Document
        do { document = try DocumentLoader.load(text: text, name: file, format: .json, limits: limits) } catch {
            throw InterchangeError(loadFailure: error, file: file)
        }
        return try read(document.root, file: file)
    }

    static func read(_ root: Node, file: String) throws(InterchangeError) -> (InterchangeTimeline, [ImportWarning]) {
        var reader = OTIOTimelineReader(file: file)
        let timeline = try reader.timeline(OTIONode(node: root, path: "", file: file))
        return (timeline, reader.warnings)
    }
}

extension InterchangeError {
    /// A file that does not load as JSON: the loader's first diagnostic, with its JSON path.
    init(loadFailure error: ProjectError, file: String) {
        let first = error.diagnostics.first
        let category: Category = error.category == .missingFile ? .missingFile : .invalidInput
        // A missing file has no line to point at (the EDL reader says the same without one).
        let place = category == .missingFile ? nil : first.map { d -> Place in
            d.path.isEmpty ? .line(d.location.line, in: file) : Place(file: file, line: d.location.line, path: d.path)
        }
        self.init(first?.message ?? "cannot read \(file)", at: place, hint: first?.hint, category: category)
    }
}

private struct OTIOTimelineReader {
    let file: String
    var warnings: [ImportWarning] = []
    var markers: [InterchangeMarker] = []
    /// Rates of the clips' ranges, to choose the timeline's rate.
    var rates: [Rational: Int] = [:]
    var clipCount = 0

    init(file: String) { self.file = file }

    mutating func timeline(_ root: OTIONode) throws(InterchangeError) -> InterchangeTimeline {
        var root = root
        if try root.schema()?.name == "SerializableCollection" {
            let timelines = root["children"]?.elements ?? []
            guard let first = timelines.first else { throw root.fail("the collection holds no timeline") }
            if timelines.count > 1 { warnings.append(ImportWarning("the collection holds \(timelines.count) timelines: only the first is imported", at: root.place)) }
            root = first
        }
        guard let schema = try root.schema() else { throw root.fail("this is not an OpenTimelineIO file: the root has no OTIO_SCHEMA", hint: "OpenTimelineIO files start with {\"OTIO_SCHEMA\": \"Timeline.1\", …}") }
        try check(schema, at: root, expecting: ["Timeline"])
        guard let stack = root["tracks"] else { throw root.fail("the timeline has no 'tracks'") }
        try check(try stack.schema(), at: stack, expecting: ["Stack"])
        var tracks: [InterchangeTrack] = []
        for child in stack["children"]?.elements ?? [] {
            let schema = try child.schema()
            guard let schema, schema.name == "Track" || schema.name == "Sequence" else {
                try check(schema, at: child, expecting: ["Track"])
                continue
            }
            try check(schema, at: child, expecting: ["Track", "Sequence"])
            tracks.append(try track(child, index: tracks.count))
        }
        try collectMarkers(stack, offset: .zero, sourceStart: .zero)
        let rate = rates.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key ?? Rational(24)
        return InterchangeTimeline(name: root["name"]?.string, rate: rate, tracks: tracks, markers: markers.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element))
    }

    /// A known schema at a known version, or an error; an unknown schema is an error where an
    /// item must be understood.
    private func check(_ schema: (name: String, version: Int)?, at node: OTIONode, expecting names: [String]) throws(InterchangeError) {
        guard let schema else { throw node.fail("expected \(names.map { "a \($0)" }.joined(separator: " or ")): this object has no OTIO_SCHEMA") }
        guard let versions = OTIOReader.known[schema.name] else {
            throw node.fail("unknown schema \(schema.name).\(schema.version) where \(names.map { "a \($0)" }.joined(separator: " or ")) belongs")
        }
        guard versions.contains(schema.version) else { throw OTIONode.unknownVersion(schema, known: versions, at: node) }
        guard names.contains(schema.name) else { throw node.fail("expected \(names.map { "a \($0)" }.joined(separator: " or ")), found \(schema.name).\(schema.version)") }
    }

    private mutating func track(_ node: OTIONode, index: Int) throws(InterchangeError) -> InterchangeTrack {
        let kind: InterchangeTrack.Kind = node["kind"]?.string == "Audio" ? .audio : .video
        var items: [InterchangeItem] = []
        var cursor = MediaTime.zero
        for child in node["children"]?.elements ?? [] {
            let schema = try child.schema()
            switch schema?.name {
            case "Clip":
                try check(schema, at: child, expecting: ["Clip"])
                clipCount += 1
                guard clipCount <= EDLParser.maxEvents else {
                    throw child.fail("more than \(EDLParser.maxEvents) clips: more than a Reel project holds", hint: "split the timeline and import the parts")
                }
                let range = try sourceRange(child)
                if child["enabled"]?.node.value.isFalse == true {
                    warnings.append(ImportWarning("clip '\(child["name"]?.string ?? "")' is disabled: left as a gap", at: child.place))
                    items.append(.gap(range.duration, child.place))
                } else {
                    items.append(.clip(try clip(child, range: range)))
                    try collectMarkers(child, offset: cursor, sourceStart: range.start)
                }
                cursor += range.duration
            case "Gap":
                try check(schema, at: child, expecting: ["Gap"])
                let d = try sourceRange(child).duration
                items.append(.gap(d, child.place))
                cursor += d
            case "Transition":
                try check(schema, at: child, expecting: ["Transition"])
                items.append(.transition(try transition(child)))
            case "Stack", "Track", "Sequence":
                try check(schema, at: child, expecting: ["Stack", "Track", "Sequence"])
                let d = try duration(of: child)
                warnings.append(ImportWarning("nested \(schema!.name.lowercased()) '\(child["name"]?.string ?? "")' is not supported (Reel has no nested timelines): left as a gap of \(TimeNotation.seconds(d))", at: child.place))
                items.append(.gap(d, child.place))
                cursor += d
            default:
                try check(schema, at: child, expecting: ["Clip", "Gap", "Transition", "Stack"])
            }
        }
        try collectMarkers(node, offset: .zero, sourceStart: .zero)
        return InterchangeTrack(kind: kind, name: node["name"]?.string ?? "", items: dropOrphanTransitions(items))
    }

    /// A transition needs a clip on each side; one at a track's edge or beside a gap is left out.
    private mutating func dropOrphanTransitions(_ items: [InterchangeItem]) -> [InterchangeItem] {
        var kept: [InterchangeItem] = []
        for (i, item) in items.enumerated() {
            if case .transition(let t) = item {
                let before = i > 0 ? items[i - 1] : nil, after = i + 1 < items.count ? items[i + 1] : nil
                guard case .clip = before, case .clip = after else {
                    warnings.append(ImportWarning("a transition without a clip on each side (at a track's edge or beside a gap) is not supported: left out", at: t.place))
                    continue
                }
            }
            kept.append(item)
        }
        return kept
    }

    /// The clip's or gap's `source_range`, else its media's `available_range`.
    private mutating func sourceRange(_ node: OTIONode) throws(InterchangeError) -> TimeRange {
        if let r = node["source_range"], !r.node.value.isNull {
            if let rate = r["duration"]?.rateOfTime { rates[rate, default: 0] += 1 }
            return try r.range()
        }
        if let available = try mediaReference(node)?["available_range"], !available.node.value.isNull { return try available.range() }
        throw node.fail("'\(node["name"]?.string ?? "")' has neither a source_range nor media with an available_range: its length is unknown")
    }

    /// `media_reference` (Clip.1) or the active one of `media_references` (Clip.2).
    private func mediaReference(_ clip: OTIONode) throws(InterchangeError) -> OTIONode? {
        if let references = clip["media_references"] {
            let key = clip["active_media_reference_key"]?.string ?? "DEFAULT_MEDIA"
            return references[key]
        }
        return clip["media_reference"]
    }

    private func duration(of node: OTIONode) throws(InterchangeError) -> MediaTime {
        if let r = node["source_range"], !r.node.value.isNull { return try r.range().duration }
        let children = node["children"]?.elements ?? []
        switch try node.schema()?.name {
        case "Stack":
            var longest = MediaTime.zero
            for c in children { longest = max(longest, try duration(of: c)) }
            return longest
        case "Track", "Sequence":
            var sum = MediaTime.zero
            for c in children where try c.schema()?.name != "Transition" { sum += try duration(of: c) }
            return sum
        default:
            if let available = try mediaReference(node)?["available_range"], !available.node.value.isNull { return try available.range().duration }
            return .zero
        }
    }

    private mutating func clip(_ node: OTIONode, range: TimeRange) throws(InterchangeError) -> InterchangeClip {
        let name = node["name"]?.string ?? ""
        let source = try clipSource(node, name: name)
        var speed = Rational.one
        for effect in node["effects"]?.elements ?? [] {
            let schema = try effect.schema()
            let effectName = effect["effect_name"]?.string ?? schema?.name ?? "effect"
            switch schema?.name {
            case "LinearTimeWarp":
                let scalar = try effect["time_scalar"]?.number() ?? .one
                guard let exact = OTIONode.nearestSimple(scalar), exact >= Rational(1, 100), exact <= Rational(100) else {
                    warnings.append(ImportWarning("clip '\(name)': speed \(scalar.doubleValue) is not one Reel plays (0.01 to 100, a simple fraction): played at normal speed", at: effect.place))
                    continue
                }
                speed = speed * exact
            case "FreezeFrame":
                warnings.append(ImportWarning("clip '\(name)': a freeze frame is not supported: the clip plays at normal speed", at: effect.place))
            default:
                warnings.append(ImportWarning("clip '\(name)': effect '\(effectName)' is not supported: left out", at: effect.place))
            }
        }
        return InterchangeClip(name: name, source: source, sourceRange: range, speed: speed, place: node.place)
    }

    private mutating func clipSource(_ node: OTIONode, name: String) throws(InterchangeError) -> ClipSource {
        guard let reference = try mediaReference(node), let schema = try reference.schema() else {
            return .media(SourceMedia(key: name, path: nil, names: [name]))
        }
        let referenceName = reference["name"]?.string
        switch schema.name {
        case "ExternalReference":
            let url = reference["target_url"]?.string ?? ""
            let path = Self.path(fromURL: url)
            return .media(SourceMedia(key: path, path: path, names: [fileName(path), referenceName, name].compactMap { $0 }.filter { !$0.isEmpty }))
        case "GeneratorReference":
            let kind = reference["generator_kind"]?.string ?? ""
            if kind == "SolidColor", let color = reference["parameters"]?["color"]?.string, color.hasPrefix("#") { return .color(color) }
            warnings.append(ImportWarning("clip '\(name)': generator '\(kind)' is not supported: written as a black colour clip", at: reference.place))
            return .color("#000000")
        case "ImageSequenceReference":
            warnings.append(ImportWarning("clip '\(name)': image sequences are read as the media named '\(name)', whose file can be given as the sequence's pattern (frames/shot%04d.png)",
                                          at: reference.place, remedy: [.media(name)]))
            return .media(SourceMedia(key: name, path: nil, names: [name]))
        default:
            return .media(SourceMedia(key: name.isEmpty ? (referenceName ?? "") : name, path: nil, names: [name, referenceName].compactMap { $0 }.filter { !$0.isEmpty }))
        }
    }

    /// `file:///a/b%20c.mov` → `/a/b c.mov`; other text is kept as it is.
    static func path(fromURL url: String) -> String {
        guard url.hasPrefix("file://") else { return url }
        let rest = String(url.dropFirst("file://".count))
        let path = rest.hasPrefix("/") ? rest : "/" + (rest.split(separator: "/", maxSplits: 1).dropFirst().first.map(String.init) ?? rest)
        return path.removingPercentEncoding ?? path
    }

    private mutating func transition(_ node: OTIONode) throws(InterchangeError) -> InterchangeTransition {
        guard let i = node["in_offset"], let o = node["out_offset"] else { throw node.fail("a transition needs in_offset and out_offset") }
        let inOffset = try i.time(), outOffset = try o.time()
        guard !inOffset.isNegative, !outOffset.isNegative else { throw node.fail("a transition's offsets cannot be negative") }
        let type = node["transition_type"]?.string ?? ""
        let kind: String
        if let reel = node["metadata"]?["reel"]?["transition"]?.string {
            kind = reel
        } else if type == "SMPTE_Dissolve" {
            kind = "crossfade"
        } else if type == "SMPTE_Wipe" {
            kind = "wipe-right"
        } else {
            kind = "crossfade"
            warnings.append(ImportWarning("transition '\(type)' is not supported: written as a crossfade", at: node.place))
        }
        return InterchangeTransition(kind: kind, inOffset: inOffset, outOffset: outOffset, place: node.place)
    }

    /// Markers of an item, moved onto the timeline: `offset` is where the item starts there,
    /// `sourceStart` the time its markers count from.
    private mutating func collectMarkers(_ node: OTIONode, offset: MediaTime, sourceStart: MediaTime) throws(InterchangeError) {
        for marker in node["markers"]?.elements ?? [] {
            try check(try marker.schema(), at: marker, expecting: ["Marker"])
            guard let r = marker["marked_range"] else { throw marker.fail("a marker needs a marked_range") }
            let range = try r.range()
            markers.append(InterchangeMarker(at: offset + range.start - sourceStart, duration: range.duration,
                                             name: marker["name"]?.string ?? "", color: marker["color"]?.string, place: marker.place))
        }
    }
}

private extension Node.Value {
    var isNull: Bool { if case .null = self { true } else { false } }
    var isFalse: Bool { if case .bool(false) = self { true } else { false } }
}
