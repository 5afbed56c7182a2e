import CompositionGraph
import Foundation
import MediaTime

extension ProjectDecoder {
    mutating func decodeCaptionTrack(_ c: NodeCursor) -> CaptionTrack? {
        let source: CaptionTrack.Source
        switch (c["file"], c["cues"]) {
        case (let written?, nil):
            guard let path = written.string, let read = filePath(written, path) else { return nil }
            // Messages name the file as the project's own name is given, followed by the path.
            let name = path.hasPrefix("/") ? path : (file as NSString).deletingLastPathComponent.isEmpty
                ? path : "\((file as NSString).deletingLastPathComponent)/\(path)"
            source = .file(path: read, name: name)
        case (nil, let cues?):
            source = .inline(cues.elements.compactMap { decodeInlineCue($0) })
        default:
            problems.report("a caption track takes its cues from a 'file' or lists 'cues', one of the two", at: c.origin)
            return nil
        }
        let s = c["style"]
        let style = textStyle(s)
        let placement: CaptionTrack.Placement
        let placed = s?["position"].flatMap { $0.string == nil ? position($0) : nil }
        if case .keyframes? = placed?.position, let p = s?["position"] {
            problems.report("a caption track's position does not move", at: p.origin, hint: "give the offset one [x, y]")
        }
        if case .constant(let point)? = placed?.position {
            let own = placed?.anchor.map { ($0.x.fraction.doubleValue, $0.y.fraction.doubleValue) }
            placement = .point(point, anchor: s?["anchor"].map { anchor($0) } ?? own ?? (0.5, 1))
        } else {
            switch s?["position"]?.string {
            case "top": placement = .top
            case "middle": placement = .middle
            default: placement = .bottom
            }
        }
        let margin = s?["margin"]
        let margins = margin.map { m in m.elements.isEmpty ? length(m).map { [$0, $0] } ?? [] : m.elements.compactMap { length($0) } } ?? []
        let highlight = s?["highlight"].map { h in
            CaptionHighlight(color: h["color"].flatMap { color($0) },
                             box: h["box"].flatMap { textBackground($0, padding: 6) },
                             scale: h["scale"]?.double ?? 1)
        }
        return CaptionTrack(source: source, style: style, placement: placement,
                            marginX: margins.first ?? .fraction(Rational(1, 20)), marginY: margins.count > 1 ? margins[1] : .fraction(Rational(1, 20)),
                            wrapWidth: s?["wrap_width"].flatMap { length($0) }, maxLines: s?["max_lines"]?.int ?? 2, highlight: highlight,
                            reveal: s?["reveal"]?.string.flatMap(CaptionTrack.Reveal.init(rawValue:)) ?? .none, origin: c.origin,
                            fontOrigin: s?["font"]?.origin, highlightOrigin: s?["highlight"]?.origin,
                            enter: captionMove(s?["enter"], .enter), exit: captionMove(s?["exit"], .exit))
    }

    /// `{at, duration | to, text}`; the text may time its words as WebVTT does (`<00:00:01.500>`).
    private mutating func decodeInlineCue(_ c: NodeCursor) -> Cue? {
        exclusive("to", "duration", in: c, because: "both set where the cue ends; keep one")
        guard let start = c["at"].flatMap({ time($0) }), let text = c["text"]?.string else { return nil }
        guard let end = c["duration"].flatMap({ positiveTime($0) }).map({ start + $0 }) ?? c["to"].flatMap({ time($0) }) else {
            if c["duration"] == nil && c["to"] == nil { problems.report("a cue needs a 'duration' or a 'to'", at: c.origin) }
            return nil
        }
        guard end > start else {
            problems.report("the cue ends (\(TimeNotation.clock(end))) before it starts (\(TimeNotation.clock(start)))", at: c["to"]?.origin ?? c.origin)
            return nil
        }
        let lines = NumberedLines(text: text, file: file)
        do {
            let read = try CueText.read(lines.lines, in: lines, start: start, end: end)
            return Cue(start: start, end: end, text: read.text, words: read.words, location: c.origin.location)
        } catch {
            problems.report(error.message, at: c["text"]!.origin, hint: error.hint)
            return nil
        }
    }
}
