import CompositionGraph
import MediaTime
import ProjectFile

/// Caption tracks compiled into overlay layers: every cue is broken into lines (balanced, by
/// the font resolver's layout), shown `max_lines` lines at a time, and each moment of it that
/// looks different (another word highlighted, more revealed) is one static layer.
extension CompileSession {
    mutating func captionLayers(_ track: CaptionTrack, index: Int, duration: MediaTime) -> [OverlayLayer] {
        let documentPath = "captions[\(index)]"
        let cues: [Cue]
        switch track.source {
        case .inline(let inline):
            cues = inline
        case .file(let path, let name):
            captionFiles.append(path)
            do {
                let read = try CueFile.read(path: path, name: name, documentPath: "\(documentPath).file")
                cueSources.append(read.source)
                cues = read.cues
            } catch {
                switch error {
                case .missing:
                    missingFile = true
                    problems.report("cue file \(name) not found", at: track.origin, hint: "check the path; it is relative to the project file")
                case .invalid(let diagnostics, let source):
                    problems.append(contentsOf: diagnostics)
                    if let source { cueSources.append(source) }
                }
                return []
            }
        }
        var style = track.style
        if let fonts {
            switch fonts.resolve(family: style.font, weight: style.weight, italic: style.italic) {
            case .file(let path): style.resolvedFontFile = path
            case .unavailable(let available):
                problems.report("font family '\(style.font)' is not available", at: track.fontOrigin ?? track.origin,
                                hint: "list its font file under fonts:, or use one of: \(available.prefix(12).joined(separator: ", "))")
                return []
            }
        }
        let marginX = track.marginX.resolved(against: size.width), marginY = track.marginY.resolved(against: size.height)
        let padding = style.background?.padding ?? 0
        let safeWidth = Double(size.width) - 2 * marginX - 2 * padding
        guard safeWidth > 0 else {
            problems.report("the margins and the box's padding leave no room for the caption's lines", at: track.origin)
            return []
        }
        let wrapWidth = min(track.wrapWidth?.resolved(against: size.width) ?? safeWidth, safeWidth)
        let (x, y, anchor) = placement(track.placement, marginY: marginY)
        if track.highlight != nil, cues.allSatisfy({ $0.words.isEmpty }) {
            problems.warn("highlight marks the word being spoken, but no cue of this track times its words: nothing is highlighted",
                          at: track.highlightOrigin ?? track.origin,
                          hint: "time the words (WebVTT <00:00:01.500> tags, or a transcript with word times), or remove highlight")
        }
        var layers: [OverlayLayer] = []
        for cue in cues where cue.start < duration {
            let lines = fonts?.captionLines(of: cue.text, style: style, width: wrapWidth) ?? Self.ownLines(cue.text)
            for page in CaptionPage.pages(of: cue, lines: lines, maxLines: track.maxLines) {
                let states = page.states(reveal: track.reveal, highlighting: track.highlight != nil).compactMap { range, state in
                    let shown = TimeRange(start: range.start, end: min(range.end, duration))
                    return shown.isEmpty ? nil : (shown, state)
                }
                guard let first = states.first, let last = states.last else { continue }
                // The page enters from where it is first shown and leaves by where it is last: every state of it moves as one.
                var motion: TextUnitMotion?
                if track.enter != nil || track.exit != nil {
                    var enter = track.enter?.phase, exit = track.exit?.phase
                    enter?.time = first.0.start
                    exit?.time = last.0.end
                    motion = TextUnitMotion(enter: enter, exit: exit)
                }
                for (shown, state) in states {
                    let content = CaptionState(text: page.text, style: style, highlighted: state.highlighted, highlight: track.highlight,
                                               revealedUpTo: state.revealedUpTo)
                    layers.append(OverlayLayer(content: .caption(content), timeRange: shown, positionX: .constant(x), positionY: .constant(y),
                                               anchorX: .constant(anchor.x), anchorY: .constant(anchor.y), textUnits: motion))
                }
            }
        }
        return layers
    }

    private func placement(_ placement: CaptionTrack.Placement, marginY: Double) -> (x: Double, y: Double, anchor: (x: Double, y: Double)) {
        let w = Double(size.width), h = Double(size.height)
        switch placement {
        case .bottom: return (w / 2, h - marginY, (0.5, 1))
        case .top: return (w / 2, marginY, (0.5, 0))
        case .middle: return (w / 2, h / 2, (0.5, 0.5))
        case .point(let p, let anchor): return (p.x.resolved(against: size.width), p.y.resolved(against: size.height), anchor)
        }
    }

    /// The text's own lines (without a layout to measure with).
    private static func ownLines(_ text: String) -> [Range<Int>] {
        var lines: [Range<Int>] = [], start = 0
        for (offset, byte) in text.utf8.enumerated() where byte == 0x0A {
            lines.append(start..<offset)
            start = offset + 1
        }
        return lines + [start..<text.utf8.count]
    }
}
