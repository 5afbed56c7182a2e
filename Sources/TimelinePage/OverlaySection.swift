import CompositionGraph
import MediaTime

/// Overlays packed into as few rows as they need: each goes, in order of start time, into
/// the first row where the previous overlay has ended (one row per overlay would make a page
/// of hundreds of rows for a long timeline).
enum OverlayLanes {
    /// Rows of overlay indices; within a row in time order.
    static func pack(_ overlays: [OverlayLayer]) -> [[Int]] {
        let order = overlays.indices.sorted {
            (overlays[$0].timeRange.start, $0) < (overlays[$1].timeRange.start, $1)
        }
        var lanes: [[Int]] = []
        var ends: [MediaTime] = []
        for i in order {
            let range = overlays[i].timeRange
            if let lane = ends.firstIndex(where: { $0 <= range.start }) {
                lanes[lane].append(i)
                ends[lane] = range.end
            } else {
                lanes.append([i])
                ends.append(range.end)
            }
        }
        return lanes
    }
}

extension PageWriter {
    /// Text, images, SVG and shapes over the video, with their time ranges.
    mutating func writeOverlays() {
        let overlays = graph.overlays
        guard !overlays.isEmpty else { return }
        line("<div class=\"caption\">overlays, drawn in list order above the video</div>")
        for (n, lane) in OverlayLanes.pack(overlays).enumerated() {
            line("<div class=\"row overlay\">")
            head("overlays \(n + 1)", lane.map { "#\($0 + 1)" }.joined(separator: " "))
            line("<div class=\"lane\">")
            for i in lane { writeOverlay(overlays[i], number: i + 1) }
            line("</div>")
            line("</div>")
        }
    }

    private mutating func writeOverlay(_ layer: OverlayLayer, number: Int) {
        let range = layer.timeRange
        var details = ["overlay #\(number) " + exactSpan(range)]
        let kind: String
        var name: String
        switch layer.content {
        case .text(let text, let style):
            kind = "text"
            name = "<span class=\"swatch\" style=\"background:\(style.color)\"></span><b>“\(HTMLText.escape(HTMLText.abbreviated(text, limit: 60)))”</b>"
            details.insert(HTMLText.abbreviated(text, limit: 400), at: 0)
            details.append("font \(style.font) \(style.weight)\(style.italic ? " italic" : "") \(Decimal.short(style.size))px \(style.color)")
        case .caption(let state):
            kind = "caption"
            let text = layer.content.shownText ?? ""
            name = "<span class=\"swatch\" style=\"background:\(state.style.color)\"></span><b>“\(HTMLText.escape(HTMLText.abbreviated(text, limit: 60)))”</b>"
            details.insert(HTMLText.abbreviated(text, limit: 400), at: 0)
            details.append("caption font \(state.style.font) \(state.style.weight) \(Decimal.short(state.style.size))px \(state.style.color)")
        case .image(let reference), .svg(let reference):
            kind = reference.kind == .svg ? "svg" : "image"
            name = image(reference, at: .zero, class: "icon") + "<b>\(HTMLText.escape(reference.name))</b><span class=\"badge\">\(kind)</span>"
            details.insert("\(kind) \(reference.name) (\(fileName(reference)))", at: 0)
        case .rect(let style), .ellipse(let style):
            kind = { if case .rect = layer.content { "rect" } else { "ellipse" } }()
            name = style.fill.map { "<span class=\"swatch \(kind)\" style=\"background:\(ColorText.css($0))\"></span>" } ?? ""
            name += "<b>\(kind)</b>"
            details.insert(kind, at: 0)
        }
        if !layer.isStatic { details.append("animated") }
        let whole = range.start == .zero && range.end >= graph.duration
        line(box("overlay \(kind)", range, details: details, name: name, second: whole ? "whole timeline" : clockSpan(range)))
    }
}
