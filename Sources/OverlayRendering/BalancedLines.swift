internal import CCairo
import CompositionGraph

/// Line breaking for captions: Pango's break opportunities (UAX #14, CJK and RTL included),
/// chosen so that the lines are as even as possible. Of the breakings with the fewest lines that
/// fit the width, the one with the least sum of squared slack (width − line width, last line
/// included) wins, so no word is left alone on a line when a better break exists. Widths are
/// whole Pango units and the sums integers: the same breaks on every machine.
enum BalancedLines {
    /// The lines of `text` (UTF-8 byte ranges, trailing blanks left out), breaking at every
    /// "\n" and wherever needed to fit `width` pixels; a piece with no break inside that is
    /// wider stays whole on its own line.
    static func lines(of text: String, style: TextStyle, width: Double, fonts: FontCatalog) -> [Range<Int>] {
        let context = fonts.makeContext()
        defer { releaseGObject(context) }
        if let language = style.language { pango_context_set_language(context, pango_language_from_string(language)) }
        let layout = pango_layout_new(context)!
        defer { releaseGObject(layout) }
        let font = TextContent.fontDescription(style)
        defer { pango_font_description_free(font) }
        TextContent.setSize(max(TextContent.units(style.size), 1), layout, font)
        TextContent.applyParagraphStyle(style, to: layout)

        let utf8 = Array(text.utf8)
        let (candidates, mandatory) = breakOpportunities(text, layout)
        let limit = Int64(TextContent.units(width))
        func measure(_ range: Range<Int>) -> Int64 {
            let trimmed = trimmed(range, utf8)
            guard !trimmed.isEmpty else { return 0 }
            let piece = String(decoding: utf8[trimmed], as: UTF8.self)
            pango_layout_set_text(layout, piece, -1)
            var logical = PangoRectangle()
            pango_layout_get_extents(layout, nil, &logical)
            return Int64(logical.width)
        }
        var lines: [Range<Int>] = []
        var paragraphStart = 0
        for end in mandatory + [utf8.count] where end >= paragraphStart {
            let breaks = [paragraphStart] + candidates.filter { $0 > paragraphStart && $0 < end } + [end]
            lines += balance(breaks, limit: limit, measure: measure).map { trimmed($0, utf8) }
            paragraphStart = end
        }
        return lines
    }

    /// Byte offsets where a line may start (after the first), and those where one must.
    private static func breakOpportunities(_ text: String, _ layout: OpaquePointer) -> (allowed: [Int], mandatory: [Int]) {
        pango_layout_set_text(layout, text, -1)
        var count: Int32 = 0
        guard let attributes = pango_layout_get_log_attrs_readonly(layout, &count) else { return ([], []) }
        var allowed: [Int] = [], mandatory: [Int] = []
        var offset = 0
        // One attribute per character, plus one for the end.
        for (index, scalar) in text.unicodeScalars.enumerated() where index < Int(count) {
            let attribute = attributes[index]
            if index > 0, attribute.is_line_break != 0 {
                if attribute.is_mandatory_break != 0 { mandatory.append(offset) } else { allowed.append(offset) }
            }
            offset += String(scalar).utf8.count
        }
        return (allowed, mandatory)
    }

    /// The lines `breaks[i] ..< breaks[j]` of the best breaking (fewest lines, then least squared slack).
    private static func balance(_ breaks: [Int], limit: Int64, measure: (Range<Int>) -> Int64) -> [Range<Int>] {
        let n = breaks.count
        guard n > 1 else { return [] }
        // best[j]: (lines, cost, previous break) of the best breaking of breaks[0] ..< breaks[j].
        var best: [(lines: Int, cost: Int64, from: Int)?] = Array(repeating: nil, count: n)
        best[0] = (0, 0, 0)
        for j in 1..<n {
            for i in stride(from: j - 1, through: 0, by: -1) {
                guard let before = best[i] else { continue }
                let width = measure(breaks[i]..<breaks[j])
                // A piece with no break inside may overflow; a longer line may not.
                guard width <= limit || i == j - 1 else { break }
                let slack = max(limit - width, 0)
                let candidate = (lines: before.lines + 1, cost: before.cost + slack * slack, from: i)
                if let current = best[j], (current.lines, current.cost) <= (candidate.lines, candidate.cost) { continue }
                best[j] = candidate
            }
        }
        var lines: [Range<Int>] = []
        var j = n - 1
        while j > 0, let step = best[j] {
            lines.append(breaks[step.from]..<breaks[j])
            j = step.from
        }
        return lines.reversed()
    }

    /// `range` without the blanks and line breaks at its end.
    private static func trimmed(_ range: Range<Int>, _ utf8: [UInt8]) -> Range<Int> {
        var upper = range.upperBound
        while upper > range.lowerBound, [0x20, 0x09, 0x0A, 0x0D].contains(utf8[upper - 1]) { upper -= 1 }
        return range.lowerBound..<upper
    }
}

extension FontCatalog {
    /// The lines a caption's text is set in (see `BalancedLines`).
    public func captionLines(of text: String, style: TextStyle, width: Double) -> [Range<Int>] {
        BalancedLines.lines(of: text, style: style, width: width, fonts: self)
    }
}
