import Foundation
import Looks
import MediaFormat
import MediaTime

extension CompositionGraph {
    /// A readable, stable listing for `reel graph`: one line per track segment, instruction
    /// (with the transitions running in it) and layer, times exact and as a clock (`[9, 10) 00:00:09.000–00:00:10.000`). Media are
    /// shown by project name and file name, so the listing does not depend on where the
    /// project lives.
    public var listing: String {
        var out: [String] = []
        let vc = videoComposition
        out.append("composition \(span(TimeRange(start: .zero, duration: duration)))")
        out.append("render \(vc.renderSize) frame \(vc.frameDuration)s (\(fpsText) fps) background \(vc.background)")
        out.append("output \(outputText)")
        out.append("")
        out.append("tracks")
        for track in composition.tracks {
            out.append("  track \(track.id) \(track.kind.rawValue) \"\(track.name)\"")
            for run in track.runs { out.append("    \(describe(run))") }
        }
        let nested = nestedListing
        if !nested.isEmpty { out += ["", "nested projects"] + nested }
        out.append("")
        out.append("instructions")
        for instruction in vc.instructions {
            let transitions = instruction.transitions.map {
                " transition \($0.kind) track \($0.fromTrackID) -> track \($0.toTrackID)" + ($0.dissolve.map { " dissolve \(describe($0))" } ?? "")
                    + ($0.mix.map { " mix \(describe($0))" } ?? "")
            }
            out.append("  \(span(instruction.timeRange)) background \(instruction.background)" + transitions.joined())
            for layer in instruction.layers {
                var parts = ["track \(layer.trackID)", "fit \(layer.fit.rawValue)", "opacity \(describe(layer.opacity))"]
                let t = layer.transform
                parts.append("position (\(describe(t.positionX)), \(describe(t.positionY)))")
                if t.anchorX.constantValue != 0.5 || t.anchorY.constantValue != 0.5 { parts.append("anchor (\(describe(t.anchorX)), \(describe(t.anchorY)))") }
                if t.scaleX.constantValue != 1 || t.scaleY.constantValue != 1 { parts.append("scale (\(describe(t.scaleX)), \(describe(t.scaleY)))") }
                if t.rotation.constantValue != 0 { parts.append("rotation \(describe(t.rotation))") }
                let c = layer.crop
                if c.animations.contains(where: { $0.constantValue != 0 }) {
                    parts.append("crop l \(describe(c.left)) t \(describe(c.top)) r \(describe(c.right)) b \(describe(c.bottom))")
                }
                if let mask = layer.mask { parts.append(describe(mask)) }
                if !layer.filters.isEmpty { parts.append("filters " + layer.filters.map(describe).joined(separator: ", ")) }
                out.append("    layer " + parts.joined(separator: " "))
            }
        }
        out.append("")
        out.append("audio mix")
        for track in audioMix.tracks {
            let pitch = track.timePitch == .varispeed ? "" : " pitch \(track.timePitch.rawValue)"
            let duck = track.duck.map { d in
                " duck under track\(d.keyTrackIDs.count == 1 ? "" : "s") \(d.keyTrackIDs.map(String.init).joined(separator: ", ")) by \(number(d.depth)) dB"
                    + " above \(number(d.threshold)) dB, attack \(TimeNotation.seconds(d.attack)) release \(TimeNotation.seconds(d.release))"
            } ?? ""
            out.append("  track \(track.trackID) volume \(describe(track.volume))" + pitch + duck)
        }
        if !overlays.isEmpty {
            out.append("")
            out.append("overlays")
            for layer in overlays { out.append("  " + describe(layer)) }
        }
        if !fonts.isEmpty {
            out.append("")
            out.append("fonts")
            for font in fonts { out.append("  \(fileName(font))") }
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// The graph as JSON with sorted keys (stable for diffs); times are exact strings.
    public func jsonListing() throws -> String {
        var text = ""
        try writeJSONListing { text += $0 }
        return text
    }

    /// `jsonListing()` handed to `write` piece by piece, without the whole text in memory (a
    /// timeline of 100 000 clips lists as 600 MB): the graph without its instructions and track
    /// segments is encoded, and each of those is encoded on its own into its place, indented
    /// as the whole encoding indents it (an empty list prints as `[`, an empty line, `]`; empty
    /// lines have no indent).
    public func writeJSONListing(_ write: (String) -> Void) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var skeleton = self
        skeleton.videoComposition.instructions = []
        for t in skeleton.composition.tracks.indices { skeleton.composition.tracks[t].segments = [] }
        // Sorted keys: the tracks' segments come first (in track order), the instructions last.
        var lists: [[any Encodable]] = composition.tracks.map(\.segments) + [videoComposition.instructions]
        lists.reverse()
        let lines = String(decoding: try encoder.encode(skeleton), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        var i = 0
        while i < lines.count {
            let line = lines[i]
            write(line + "\n")
            i += 1
            guard line.hasSuffix("\"segments\" : [") || line.hasSuffix("\"instructions\" : ["), let items = lists.popLast(), !items.isEmpty else { continue }
            let indent = String(repeating: " ", count: line.prefix { $0 == " " }.count + 2)
            for (n, item) in items.enumerated() {
                let text = String(decoding: try encoder.encode(item), as: UTF8.self)
                write(text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : indent + $0 }.joined(separator: "\n") + (n < items.count - 1 ? ",\n" : "\n"))
            }
            i += 1 // the empty line of the emptied list
        }
    }

    private var fpsText: String { videoComposition.frameRate.description }

    private var outputText: String {
        let a = output.audio
        var parts = [output.container?.rawValue ?? "container-from-extension"]
        if let v = output.video {
            parts.append(v.codec.rawValue)
            if let crf = v.crf { parts.append("crf \(crf)") }
            if let b = v.bitrate { parts.append("\(b) b/s") }
            if let p = v.preset { parts.append("preset \(p)") }
            parts.append(v.pixelFormat)
        } else {
            parts.append("no-video")
        }
        if let limits = output.gifLimits { parts.append("at most \(limits.maxWidth) px wide, \(limits.maxFrameRate) fps") }
        if output.container?.holdsPicturesOnly == true {
            parts.append("| no sound")
        } else {
            parts.append("| \(a.codec.rawValue)")
            if let b = a.bitrate { parts.append("\(b) b/s") }
            parts.append("\(a.sampleRate) Hz \(a.channels) ch")
        }
        if let l = a.loudness { parts.append("loudness \(number(l.integrated)) LUFS true peak \(number(l.truePeak)) dBTP") }
        if output.faststart { parts.append("| faststart") }
        for key in output.metadata.keys.sorted() { parts.append("| \(key)=\"\(output.metadata[key]!)\"") }
        return parts.joined(separator: " ")
    }

    private func span(_ r: TimeRange) -> String {
        "\(r) \(TimeNotation.clock(r.start))–\(TimeNotation.clock(r.end))"
    }

    private func fileName(_ path: String) -> String { URL(fileURLWithPath: path).lastPathComponent }

    /// `intro (A.mp4)`, `shots (f%04d.png at 24 fps)`.
    private func label(_ ref: MediaReference) -> String {
        "\(ref.name) (\(fileName(ref.path))\(ref.sequenceRate.map { " at \($0) fps" } ?? ""))"
    }

    /// A segment, or a speed ramp's pieces as one line.
    private func describe(_ run: SegmentRun) -> String {
        let first = run.segments.first!
        var text = "\(span(run.target)) \(describe(first.content))"
        if let speeds = run.speeds, case .media(let ref, _)? = first.content, let source = run.source {
            text = "\(span(run.target)) \(label(ref)) source \(source) ramp of \(run.segments.count) pieces, speed \(speeds.first) -> \(speeds.last)"
        } else if let speed = first.timeMapping?.speed, speed.isZero {
            text += " frozen"
        }
        return text + (first.reversed ? " reversed" : "")
    }

    private func describe(_ content: SegmentContent?) -> String {
        switch content {
        case nil: return "empty"
        case .media(let ref, let range)?:
            return "\(label(ref)) source \(range)"
        case .still(let ref)?: return "still \(label(ref))"
        case .color(let c)?: return "color \(c)"
        case .shader(let call)?:
            return "glsl \(fileName(call.path))" + call.uniforms.keys.sorted().map { " \($0) \(call.uniforms[$0]!.map(number).joined(separator: ","))" }.joined()
        }
    }

    /// `blur 12`, `color brightness 0.1 contrast 1.2`, `lut teal.cube`, `chroma_key #00ff00 …`:
    /// the look's name, then its parameters as each says it is listed.
    private func describe(_ filter: LayerFilter) -> String {
        var parts = [filter.look.name]
        for parameter in filter.look.parameters {
            let text: String
            switch filter.values[parameter.name]! {
            case .number(let animation):
                if parameter.listing == .namedUnlessDefault, case .number(let byDefault, _) = parameter.kind, animation.constantValue == byDefault { continue }
                text = describe(animation)
            case .color(let color): text = "\(color)"
            case .lut(let file): text = fileName(file)
            }
            parts.append(parameter.listing == .value ? text : "\(parameter.name) \(text)")
        }
        return parts.joined(separator: " ")
    }

    private func describe(_ layer: OverlayLayer) -> String {
        var parts: [String] = []
        switch layer.content {
        case .text(let text, let style):
            parts.append("text \"\(text)\" font \"\(style.font)\" \(style.weight) \(style.italic ? "italic " : "")\(number(style.size))px \(style.color)")
            if let language = style.language { parts.append("lang \(language)") }
            if !style.inline.isEmpty { parts.append("\(style.inline.count) inline style\(style.inline.count == 1 ? "" : "s")") }
            if let file = style.resolvedFontFile { parts.append("-> \(fileName(file))") }
        case .caption(let state):
            let style = state.style
            parts.append("caption \"\(String(state.text.map { $0 == CaptionState.lineSeparator ? "/" : $0 }))\" font \"\(style.font)\" \(style.weight) \(number(style.size))px \(style.color)")
            if !state.highlighted.isEmpty {
                let utf8 = Array(state.text.utf8)
                parts.append("highlight " + state.highlighted.map { "\"\(String(decoding: utf8[$0], as: UTF8.self))\"" }.joined(separator: "+"))
            }
            if let revealed = state.revealedUpTo { parts.append("revealed \(revealed) of \(state.text.utf8.count) bytes") }
            if let file = style.resolvedFontFile { parts.append("-> \(fileName(file))") }
        case .image(let ref): parts.append("image \(label(ref))")
        case .svg(let ref): parts.append("svg \(label(ref))")
        case .rect: parts.append("rect")
        case .ellipse: parts.append("ellipse")
        }
        parts.append(span(layer.timeRange))
        parts.append("position (\(describe(layer.positionX)), \(describe(layer.positionY)))")
        parts.append("anchor (\(describe(layer.anchorX)), \(describe(layer.anchorY)))")
        if layer.width != nil || layer.height != nil {
            parts.append("size (\(layer.width.map(number) ?? "auto"), \(layer.height.map(number) ?? "auto"))")
        }
        if layer.scale.constantValue != 1 { parts.append("scale \(describe(layer.scale))") }
        if layer.rotation.constantValue != 0 { parts.append("rotation \(describe(layer.rotation))") }
        parts.append("opacity \(describe(layer.opacity))")
        if let r = layer.reveal {
            parts.append("reveal (\(describe(r.left)), \(describe(r.top)))–(\(describe(r.right)), \(describe(r.bottom)))")
        }
        for phase in [layer.textUnits?.enter, layer.textUnits?.exit].compactMap({ $0 }) {
            parts.append(describe(phase))
        }
        return parts.joined(separator: " ")
    }

    /// `enter by word 0.04s apart 0.5s each from 1s`, `exit by letter in 0.6s last first until 3s`.
    private func describe(_ phase: TextUnitPhase) -> String {
        var text = "\(phase.edge.rawValue) by \(phase.by.rawValue)"
        switch phase.pace {
        case .stagger(let stagger, let each): text += " \(TimeNotation.seconds(stagger)) apart \(TimeNotation.seconds(each)) each"
        case .spread(let total): text += " in \(TimeNotation.seconds(total))"
        }
        if phase.reversed { text += " last first" }
        var moved: [String] = []
        let m = phase.move
        if !m.opacity.isConstant { moved.append("opacity \(describe(m.opacity))") }
        if !m.shiftX.isConstant { moved.append("shift x \(describe(m.shiftX))") }
        if !m.shiftY.isConstant { moved.append("shift y \(describe(m.shiftY))") }
        if !m.scale.isConstant { moved.append("scale \(describe(m.scale))") }
        if let r = m.reveal { moved.append("reveal (\(describe(r.left)), \(describe(r.top)))–(\(describe(r.right)), \(describe(r.bottom)))") }
        return text + " \(phase.edge == .enter ? "from" : "until") \(TimeNotation.seconds(phase.time)) [\(moved.joined(separator: ", "))]"
    }

    /// `0.5`, or keyframes `0@9 -linear-> 1@10`.
    private func describe(_ mask: LayerMask) -> String {
        var text: String
        switch mask.source {
        case .rect(let b, let radius):
            text = "mask rect (\(describe(b.x)), \(describe(b.y))) size (\(describe(b.width)), \(describe(b.height)))"
            if radius.constantValue != 0 { text += " radius \(describe(radius))" }
        case .ellipse(let b):
            text = "mask ellipse (\(describe(b.x)), \(describe(b.y))) size (\(describe(b.width)), \(describe(b.height)))"
        case .path(let path, let x, let y):
            text = "mask path of \(path.commands.count) commands"
            if x.constantValue != 0 || y.constantValue != 0 { text += " offset (\(describe(x)), \(describe(y)))" }
        case .matte(let matte):
            text = "mask matte \(matte.channel.rawValue) \(label(matte.media))"
            if let start = matte.sourceStart { text += " from \(TimeNotation.seconds(start)) at \(TimeNotation.seconds(matte.timelineStart))" }
        }
        if mask.feather.constantValue != 0 { text += " feather \(describe(mask.feather))" }
        if mask.invert { text += " inverted" }
        return text
    }

    /// `progress [0@1 -linear-> 1@2] smoothness 0.3 opening true`, the parameters by name.
    private func describe(_ mix: TransitionMix) -> String {
        let parameters = mix.parameters.keys.sorted().map { name in
            let value = switch mix.parameters[name]! {
            case .number(let v): number(v)
            case .integer(let v): String(v)
            case .boolean(let v): String(v)
            case .color(let c): c.description
            case .vector(let x, let y): "(\(number(x)), \(number(y)))"
            case .picture(let ref): label(ref)
            }
            return " \(name) \(value)"
        }
        return "progress \(describe(mix.progress))" + parameters.joined()
    }

    private func describe(_ a: Animation) -> String {
        if let c = a.constantValue { return number(c) }
        var text = ""
        for (i, k) in a.keyframes.enumerated() {
            text += "\(number(k.value))@\(k.time)"
            if i + 1 < a.keyframes.count { text += " -\(describe(k.ease))-> " }
        }
        return "[" + text + "]"
    }

    private func describe(_ e: Easing) -> String {
        if let name = e.name { return name }
        guard case .cubicBezier(let a, let b, let c, let d) = e else { preconditionFailure("an easing with no name is a cubic-bezier") }
        return "cubic-bezier(\(number(a)),\(number(b)),\(number(c)),\(number(d)))"
    }

    /// Shortest stable text for a value (at most 4 decimals), locale-independent.
    private func number(_ v: Double) -> String {
        let rounded = (v * 10000).rounded() / 10000
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        return String(rounded)
    }
}
