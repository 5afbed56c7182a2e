internal import CCairo
import CompositionGraph

/// One unit of a laid-out text (a letter, word or line: `TextUnitPhase.Unit`), in the
/// layout's coordinates (pixels).
struct TextUnit: Hashable {
    /// The UTF-8 bytes it shows: its letter, word (with the punctuation that goes with it) or line.
    var range: Range<Int>
    /// The bytes it draws: up to the next unit's, so that the units' extents cover the text.
    var extent: Range<Int>
    /// What it moves, scales and wipes about: its shown bytes' x ranges by their lines' height.
    var box: Rect
    /// Where it draws, the units' clips tiling the text and reaching out past the first and
    /// last lines and the lines' ends (strokes, accents, italic overhangs).
    var clip: [Rect]
}

/// A layout split into units as Pango's layout sees the text: letters at its cursor positions
/// (grapheme clusters: a base and its combining marks are one), words at its word boundaries
/// (Unicode's, UAX #29: `don't` and `3.5` are one word, each ideograph and kana one, a run of
/// katakana one), lines as laid out. Whitespace draws with the unit before it and shows nothing
/// on its own; in words, so does punctuation (an opening bracket or quote with the word after
/// it). Units are in logical order, which is reading order in every direction.
enum TextUnits {
    /// How a piece of the text (a cluster, a word segment, a line) joins the units.
    private enum Role { case unit, withPrevious, withNext }

    /// The units of `layout`, drawn with its top-left corner at `origin`; `reach` (pixels) is
    /// how far the clips reach out past the text.
    static func split(_ layout: OpaquePointer, by unit: TextUnitPhase.Unit, reach: Double, origin: (x: Double, y: Double) = (0, 0)) -> [TextUnit] {
        let pieces = ranges(layout, by: unit)
        let lines = lineExtents(layout)
        guard !pieces.isEmpty else { return [] }
        return pieces.enumerated().map { index, piece in
            var box: Rect?
            for rect in rects(of: [piece.range], layout, lines: lines) { box = box.map { $0.union(rect) } ?? rect }
            return TextUnit(range: piece.range, extent: piece.extent, box: (box ?? Rect(x: 0, y: 0, width: 0, height: 0)).offsetBy(origin.x, origin.y),
                            clip: clips(of: index, pieces.map(\.extent), layout, lines: lines, reach: reach).map { $0.offsetBy(origin.x, origin.y) })
        }
    }

    /// The units' shown and drawn byte ranges (what `split` boxes and clips).
    static func ranges(_ layout: OpaquePointer, by unit: TextUnitPhase.Unit) -> [(range: Range<Int>, extent: Range<Int>)] {
        let text = String(cString: pango_layout_get_text(layout))
        let scalars = Array(text.unicodeScalars)
        // The byte offset of each character (Pango's characters are code points), and of the end.
        var offsets: [Int] = []
        offsets.reserveCapacity(scalars.count + 1)
        var offset = 0
        for scalar in scalars {
            offsets.append(offset)
            offset += UTF8.width(scalar)
        }
        offsets.append(offset)
        let characterAt = Dictionary(uniqueKeysWithValues: offsets.enumerated().map { ($1, $0) })
        var attributeCount: Int32 = 0
        guard let attributes = pango_layout_get_log_attrs_readonly(layout, &attributeCount), attributeCount == Int32(scalars.count + 1) else { return [] }

        /// Pieces from the character indices where they start.
        func pieces(startingAt starts: [Int]) -> [(chars: Range<Int>, bytes: Range<Int>)] {
            let cuts = (starts.filter { $0 > 0 && $0 < scalars.count } + [0, scalars.count]).sorted()
            var seen = Set<Int>(), unique: [Int] = []
            for c in cuts where seen.insert(c).inserted { unique.append(c) }
            return zip(unique, unique.dropFirst()).map { ($0..<$1, offsets[$0]..<offsets[$1]) }
        }
        func isBlank(_ chars: Range<Int>) -> Bool { chars.allSatisfy { scalars[$0].properties.isWhitespace || scalars[$0].properties.generalCategory == .control } }

        var split: [(bytes: Range<Int>, role: Role, blank: Bool)] = []
        switch unit {
        case .letter:
            let starts = (0..<scalars.count).filter { attributes[$0].is_cursor_position != 0 }
            split = pieces(startingAt: starts).map { ($0.bytes, isBlank($0.chars) ? .withPrevious : .unit, isBlank($0.chars)) }
        case .word:
            let starts = (0..<scalars.count).filter { attributes[$0].is_word_boundary != 0 }
            split = pieces(startingAt: starts).map { piece in
                if isBlank(piece.chars) { return (piece.bytes, .withPrevious, true) }
                let categories = piece.chars.map { scalars[$0].properties.generalCategory }
                let punctuation: Set<Unicode.GeneralCategory> = [.connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
                                                                  .initialPunctuation, .finalPunctuation, .otherPunctuation,
                                                                  .spaceSeparator, .control, .format]
                guard categories.allSatisfy(punctuation.contains) else { return (piece.bytes, .unit, false) }
                return (piece.bytes, [.openPunctuation, .initialPunctuation].contains(categories[0]) ? .withNext : .withPrevious, false)
            }
        case .line:
            var starts: [Int] = []
            var line = pango_layout_get_lines_readonly(layout)
            while let node = line {
                if let data = node.pointee.data {
                    let start = Int(data.assumingMemoryBound(to: PangoLayoutLine.self).pointee.start_index)
                    if let c = characterAt[start] { starts.append(c) }
                }
                line = node.pointee.next
            }
            split = pieces(startingAt: starts).map { ($0.bytes, isBlank($0.chars) ? .withPrevious : .unit, isBlank($0.chars)) }
        case .whole:
            split = pieces(startingAt: []).map { ($0.bytes, isBlank($0.chars) ? .withPrevious : .unit, isBlank($0.chars)) }
        }

        var units: [(range: Range<Int>, extent: Range<Int>)] = []
        var pendingStart: Int?
        for piece in split {
            switch piece.role {
            case .unit:
                // What it shows leaves out the blanks a line ends with; an opening bracket before it shows with it.
                var shownEnd = piece.bytes.upperBound
                while shownEnd > piece.bytes.lowerBound, let c = characterAt[shownEnd], c > 0, isBlank(c - 1..<c) {
                    shownEnd = offsets[c - 1]
                }
                let start = pendingStart ?? piece.bytes.lowerBound
                units.append((start..<shownEnd, start..<piece.bytes.upperBound))
                pendingStart = nil
            case .withNext:
                if pendingStart == nil { pendingStart = piece.bytes.lowerBound }
            case .withPrevious:
                if let last = units.indices.last, pendingStart == nil {
                    units[last].extent = units[last].extent.lowerBound..<piece.bytes.upperBound
                    // Punctuation shows with its word; blanks only draw with it.
                    if !piece.blank { units[last].range = units[last].range.lowerBound..<piece.bytes.upperBound }
                } else if pendingStart == nil {
                    pendingStart = piece.bytes.lowerBound
                }
            }
        }
        guard !units.isEmpty else { return [] }
        // What is left before the first unit and after the last draws with them.
        units[0].extent = 0..<units[0].extent.upperBound
        units[units.count - 1].extent = units[units.count - 1].extent.lowerBound..<offset
        return units
    }

    /// A layout line's bytes and logical extent (Pango units).
    private struct LineExtent {
        var line: UnsafeMutablePointer<PangoLayoutLine>
        var bytes: Range<Int>
        var logical: PangoRectangle
    }

    private static func lineExtents(_ layout: OpaquePointer) -> [LineExtent] {
        var lines: [LineExtent] = []
        let iter = pango_layout_get_iter(layout)!
        defer { pango_layout_iter_free(iter) }
        repeat {
            guard let line = pango_layout_iter_get_line_readonly(iter) else { continue }
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iter, nil, &logical)
            let start = Int(line.pointee.start_index)
            lines.append(LineExtent(line: line, bytes: start..<start + Int(line.pointee.length), logical: logical))
        } while pango_layout_iter_next_line(iter) != 0
        return lines
    }

    /// The visual x spans (Pango units, merged where they touch) of `range` on `line`.
    private static func spans(of range: Range<Int>, on line: LineExtent) -> [(Int32, Int32)] {
        let lower = max(range.lowerBound, line.bytes.lowerBound), upper = min(range.upperBound, line.bytes.upperBound)
        guard lower < upper else { return [] }
        var xs: UnsafeMutablePointer<Int32>?
        var count: Int32 = 0
        pango_layout_line_get_x_ranges(line.line, Int32(lower), Int32(upper), &xs, &count)
        guard let xs else { return [] }
        defer { g_free(xs) }
        var spans: [(Int32, Int32)] = []
        for (start, end) in (0..<Int(count)).map({ (xs[2 * $0], xs[2 * $0 + 1]) }).sorted(by: { $0.0 < $1.0 }) where end > start {
            if let last = spans.last, start <= last.1 { spans[spans.count - 1].1 = max(last.1, end) } else { spans.append((start, end)) }
        }
        return spans
    }

    /// The rectangles (pixels) `ranges` cover, by their lines' logical height.
    private static func rects(of ranges: [Range<Int>], _ layout: OpaquePointer, lines: [LineExtent]) -> [Rect] {
        lines.flatMap { line in
            ranges.flatMap { range in
                spans(of: range, on: line).map {
                    TextContent.pixels(PangoRectangle(x: $0.0, y: line.logical.y, width: $0.1 - $0.0, height: line.logical.height))
                }
            }
        }
    }

    /// Unit `index`'s clip: its extent's spans on each line, from the line's top to the next
    /// line's (reaching `reach` above the first and below the last), the outermost spans of a
    /// line reaching `reach` out past its ends.
    private static func clips(of index: Int, _ extents: [Range<Int>], _ layout: OpaquePointer, lines: [LineExtent], reach: Double) -> [Rect] {
        let reachUnits = TextContent.units(reach)
        var rects: [Rect] = []
        for (k, line) in lines.enumerated() {
            let own = spans(of: extents[index], on: line)
            guard !own.isEmpty else { continue }
            // The line's ends: the outermost x of all its text.
            let all = spans(of: line.bytes, on: line)
            let left = all.map(\.0).min() ?? own[0].0, right = all.map(\.1).max() ?? own[own.count - 1].1
            let top = k == 0 ? line.logical.y - reachUnits : line.logical.y
            let bottom = k + 1 < lines.count ? max(lines[k + 1].logical.y, line.logical.y + line.logical.height)
                : line.logical.y + line.logical.height + reachUnits
            for (start, end) in own {
                let x0 = start == left ? start - reachUnits : start, x1 = end == right ? end + reachUnits : end
                rects.append(TextContent.pixels(PangoRectangle(x: x0, y: top, width: x1 - x0, height: bottom - top)))
            }
        }
        return rects
    }
}

/// A text or caption whose units can be drawn one at a time: the layout split into units
/// once, and what it draws behind the text (at rest) and as the text (clipped to each unit).
protocol UnitDrawable: LayerContent {
    /// In box coordinates, cached per unit kind.
    func units(by unit: TextUnitPhase.Unit) -> [TextUnit]
    /// What does not move with the units (a background box).
    func drawBehind(_ cr: OpaquePointer)
    /// The text itself, all of it (the painter clips it to each unit).
    func drawText(_ cr: OpaquePointer)
}

/// A text content with its units posed for one frame (`TextUnitMotion.frame`): drawn as its
/// background, then every unit at rest in one pass clipped to their clips (the same pixels as
/// the plain text), then each moving unit on its own: moved by its shift, scaled about its
/// box's centre, cut to what its wipe leaves, at its opacity. Hidden units draw nothing.
final class PosedUnits: LayerContent {
    let base: any UnitDrawable
    let units: [TextUnit]
    let poses: [UnitPose]
    let inkBounds: Rect

    init(_ base: any UnitDrawable, by unit: TextUnitPhase.Unit, poses: [UnitPose]) {
        self.base = base
        units = base.units(by: unit)
        self.poses = poses
        var bounds = base.inkBounds
        for (u, pose) in zip(units, poses) where !pose.isAtRest && !pose.isHidden {
            let transform = Self.transform(u, pose)
            for rect in u.clip { bounds = bounds.union(transform.bounds(of: rect)) }
        }
        inkBounds = bounds
    }

    var boxWidth: Double { base.boxWidth }
    var boxHeight: Double { base.boxHeight }
    var shadow: Shadow? { base.shadow }

    /// Unit box coordinates → box coordinates: shifted by fractions of its box, scaled about its centre.
    static func transform(_ u: TextUnit, _ pose: UnitPose) -> Affine {
        let cx = u.box.x + u.box.width / 2, cy = u.box.y + u.box.height / 2
        let dx = pose.shiftX * u.box.width, dy = pose.shiftY * u.box.height
        return Affine(a: pose.scale, b: 0, c: 0, d: pose.scale, tx: cx + dx - pose.scale * cx, ty: cy + dy - pose.scale * cy)
    }

    func draw(_ cr: OpaquePointer) {
        base.drawBehind(cr)
        let resting = zip(units, poses).filter { $0.1.isAtRest }.flatMap { $0.0.clip }
        if !resting.isEmpty {
            cairo_save(cr)
            cairo_new_path(cr)
            for r in resting { cairo_rectangle(cr, r.x, r.y, r.width, r.height) }
            cairo_clip(cr)
            base.drawText(cr)
            cairo_restore(cr)
        }
        for (u, pose) in zip(units, poses) where !pose.isAtRest && !pose.isHidden {
            cairo_save(cr)
            var matrix = Self.transform(u, pose).cairo
            cairo_transform(cr, &matrix)
            cairo_new_path(cr)
            for r in u.clip { cairo_rectangle(cr, r.x, r.y, r.width, r.height) }
            cairo_clip(cr)
            let cut = pose.reveal
            if cut[0] > 0 || cut[1] > 0 || cut[2] < 1 || cut[3] < 1 {
                let b = u.box
                let x0 = b.x + max(cut[0], 0) * b.width, x1 = b.x + min(cut[2], 1) * b.width
                let y0 = b.y + max(cut[1], 0) * b.height, y1 = b.y + min(cut[3], 1) * b.height
                // An edge at the box's own side leaves what overhangs it (accents, descenders).
                let left = cut[0] > 0 ? x0 : -1e6, right = cut[2] < 1 ? x1 : 1e6
                let top = cut[1] > 0 ? y0 : -1e6, bottom = cut[3] < 1 ? y1 : 1e6
                cairo_new_path(cr)
                cairo_rectangle(cr, left, top, right - left, bottom - top)
                cairo_clip(cr)
            }
            // Faded, through a group the size of its clip: its stroke and fill fade as one.
            let faded = pose.opacity < 1
            if faded { cairo_push_group(cr) }
            base.drawText(cr)
            if faded {
                cairo_pop_group_to_source(cr)
                cairo_paint_with_alpha(cr, pose.opacity)
            }
            cairo_restore(cr)
        }
    }
}
