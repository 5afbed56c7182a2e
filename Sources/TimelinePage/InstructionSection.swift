import CompositionGraph
import Looks
import MediaTime

/// A transition over its whole time range: consecutive instructions that carry the same
/// transition (it is cut where another track's clip starts or ends) joined into one.
struct TransitionSpan {
    var transition: VideoInstruction.Transition
    var range: TimeRange
}

extension PageWriter {
    /// The video instructions as bands under the ruler: the tracks they layer, bottom to top,
    /// transitions by kind.
    mutating func writeInstructions() {
        let instructions = graph.videoComposition.instructions
        line("<div class=\"row instructions\">")
        head("instructions", "\(instructions.count) · layers bottom to top")
        line("<div class=\"lane\">")
        for instruction in instructions {
            let layers = instruction.layers.map { graph.composition.track($0.trackID)?.name ?? "track \($0.trackID)" }
            var classes = ["band", instruction.layers.isEmpty ? "empty" : instruction.layers.count == 1 ? "single" : "layered"]
            var text = layers.isEmpty ? "background" : layers.joined(separator: " + ")
            if !instruction.transitions.isEmpty {
                classes.append("transition")
                text = instruction.transitions.map { kindText($0.kind) }.joined(separator: ", ")
            }
            line("<div class=\"\(classes.joined(separator: " "))\" style=\"\(scale.boxStyle(instruction.timeRange))\" title=\"\(tooltip(details(instruction)))\"><span>\(HTMLText.escape(text))</span></div>")
        }
        line("</div>")
        line("</div>")
    }

    /// `fade-through-white` → `fade through white`.
    func kindText(_ kind: String) -> String { kind.replacingOccurrences(of: "-", with: " ") }

    /// The name of a track for text: `video 1 A (track 1)`.
    func trackText(_ id: Int) -> String {
        guard let track = graph.composition.track(id) else { return "track \(id)" }
        return "\(track.name) (track \(id))"
    }

    private func details(_ instruction: VideoInstruction) -> [String] {
        var lines = ["instruction " + exactSpan(instruction.timeRange), "background \(instruction.background)"]
        for t in instruction.transitions {
            lines.append("\(kindText(t.kind)) from \(trackText(t.fromTrackID)) to \(trackText(t.toTrackID))")
        }
        for layer in instruction.layers.reversed() {
            var parts = ["layer \(trackText(layer.trackID))", "fit \(layer.fit.rawValue)"]
            parts.append(layer.opacity.constantValue.map { "opacity \(Decimal.short($0))" } ?? "opacity animated")
            if layer.transform.animations.contains(where: { !$0.isConstant }) { parts.append("transform animated") }
            if layer.crop.animations.contains(where: { !$0.isConstant }) { parts.append("crop animated") }
            if !layer.filters.isEmpty { parts.append("filters " + layer.filters.map(\.look.name).joined(separator: " ")) }
            lines.append(parts.joined(separator: ", "))
        }
        return lines
    }

    /// Every transition once, in timeline order, over its whole range.
    func transitionSpans() -> [TransitionSpan] {
        var spans: [TransitionSpan] = []
        var latest: [VideoInstruction.Transition: Int] = [:]
        for instruction in graph.videoComposition.instructions {
            for transition in instruction.transitions {
                if let i = latest[transition], spans[i].range.end == instruction.timeRange.start {
                    spans[i].range = TimeRange(start: spans[i].range.start, end: instruction.timeRange.end)
                } else {
                    latest[transition] = spans.count
                    spans.append(TransitionSpan(transition: transition, range: instruction.timeRange))
                }
            }
        }
        return spans
    }
}
