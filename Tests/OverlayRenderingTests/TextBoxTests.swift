import CompositionGraph
import Foundation
import MediaTime
import Testing
@testable import OverlayRendering

/// Text boxes drawn, found by their pixels: where `valign` puts the lines in a box height,
/// `wrap: false` with `fit: shrink`, shrinking to a height, a background per line or for the
/// box, and inline runs (bold, a coloured span) over the plain text.
@Suite struct TextBoxTests {
    static let frame = TestFrame(width: 640, height: 360)
    static let blue = Color(red: 0, green: 0, blue: 1)

    /// One text layer centred on the frame.
    func render(_ text: String, _ style: TextStyle) throws -> (TestFrame, TextContent) {
        let renderer = try OverlayRenderer(layers: [layer(.text(text, style), x: 320, y: 180)], fonts: [], renderSize: Self.frame.size)
        var frame = Self.frame
        frame.composite(renderer, at: .zero)
        // For a person to look at: raw 640x360 BGRA frames (ffmpeg -f rawvideo -pix_fmt bgra -s 640x360 -i F F.png).
        if let folder = ProcessInfo.processInfo.environment["REEL_TEXT_BOX_FRAMES"] {
            let name = "\(text.prefix(16).filter { $0.isLetter || $0.isNumber })-\(String(UInt(bitPattern: style.hashValue) % 100_000))"
            try Data(frame.bytes).write(to: URL(fileURLWithPath: "\(folder)/\(name).bgra"))
        }
        return (frame, try #require(renderer.content(ofLayer: 0) as? TextContent))
    }

    func inkTop(_ frame: TestFrame) throws -> Int { try #require(frame.inkBounds).y.lowerBound }

    /// The lines' logical height L sits at the top, middle or bottom of the box (200 px tall,
    /// from y 80): its top at 80 + (200 − L) × 0, ½ or 1, and the ink keeps its place in the line.
    @Test(arguments: [(TextStyle.VerticalAlignment.top, 0.0), (.middle, 0.5), (.bottom, 1.0)])
    func valignPutsTheLinesWhereTheMathsSays(valign: TextStyle.VerticalAlignment, fraction: Double) throws {
        let free = TextStyle(font: "DejaVu Sans", size: 40, boxWidth: 300)
        let (freeFrame, unboxed) = try render("Hi there", free)
        let lineHeight = unboxed.boxHeight
        let inkBelowLineTop = Double(try inkTop(freeFrame)) - (180 - lineHeight / 2)
        var boxed = free
        boxed.boxHeight = 200
        boxed.verticalAlignment = valign
        let (frame, content) = try render("Hi there", boxed)
        #expect(content.boxHeight == 200)
        let expected = 80 + (200 - lineHeight) * fraction + inkBelowLineTop, top = try inkTop(frame)
        #expect(abs(Double(top) - expected) <= 1, "\(valign): ink top \(top), expected \(expected)")
    }

    /// With `wrap: false`, a name too long for the box shrinks to one line even though the box
    /// has the height for two; wrapping (the default) breaks it first and shrinks less.
    @Test func oneLineShrinksToTheWidth() throws {
        let name = "Dr. Maximilian Alexander von Habsburg-Lothringen"
        var style = TextStyle(font: "DejaVu Sans", weight: 700, size: 48, boxWidth: 300, boxHeight: 200, wrap: false, fit: .shrink)
        let (frame, content) = try render(name, style)
        #expect(content.lineCount == 1 && content.fontSize < 48)
        let ink = try #require(frame.inkBounds)
        #expect(ink.x.count <= 300 && ink.x.count > 270, "fills the width: \(ink.x.count)")
        // The largest size that fits: 2 % more would overflow.
        let (_, bigger) = try render(name, TextStyle(font: "DejaVu Sans", weight: 700, size: content.fontSize * 1.02))
        #expect(bigger.boxWidth > 300)
        style.wrap = true
        let (_, wrapped) = try render(name, style)
        #expect(wrapped.lineCount >= 2 && wrapped.fontSize > content.fontSize, "wraps before it shrinks")
    }

    /// `fit: shrink` fits the height too: three lines that do not wrap, in a box 90 px tall.
    @Test func shrinkFitsTheHeight() throws {
        let style = TextStyle(font: "DejaVu Sans", size: 48, boxWidth: 600, boxHeight: 90, wrap: false, fit: .shrink)
        let (frame, content) = try render("One\nTwo\nThree", style)
        #expect(content.lineCount == 3 && content.fontSize < 48)
        let ink = try #require(frame.inkBounds)
        #expect(ink.y.count <= 90 && ink.y.count > 60, "\(ink.y.count)")
        #expect(ink.y.lowerBound >= 135 && ink.y.upperBound <= 225, "inside the box")
    }

    /// A background that hugs the lines covers each line's text and its padding, not the box
    /// beside a short line nor the gap between two lines; `fit: box` fills all of it.
    @Test func aLinesBackgroundHugsEachLine() throws {
        func style(_ fit: TextStyle.Background.Fit) -> TextStyle {
            TextStyle(font: "DejaVu Sans", size: 32, boxWidth: 400, boxHeight: 200, lineHeight: 2.5,
                      background: TextStyle.Background(color: Self.blue, padding: 6, cornerRadius: 6, fit: fit))
        }
        let (lines, content) = try render("Go\nNow", style(.lines))
        let (box, _) = try render("Go\nNow", style(.box))
        try #require(content.backgroundRects.count == 2, "one box per line")
        let first = content.backgroundRects[0], second = content.backgroundRects[1]
        #expect(first.maxY < second.y, "a gap between the lines' boxes: \(first), \(second)")
        #expect(first.width < 100, "as wide as 'Go' and its padding: \(first.width)")
        // Frame coordinates: the box spans 120…520 × 80…280 (its padding outside it).
        let boxX = 320 - content.boxWidth / 2, boxY = 180 - content.boxHeight / 2
        let gapRow = Int(boxY + (first.maxY + second.y) / 2), centre = 320
        let besideRow = Int(boxY + first.y + first.height / 2), besideColumn = Int(boxX + 20)
        func isBlue(_ p: TestFrame.Pixel) -> Bool { p.b > 200 && p.r < 30 && p.g < 30 }
        #expect(!isBlue(lines[centre, gapRow]) && !isBlue(lines[besideColumn, besideRow]), "lines: no background between or beside")
        #expect(isBlue(box[centre, gapRow]) && isBlue(box[besideColumn, besideRow]), "box: filled")
        // Inside each line's box, beside its letters, the background shows.
        #expect(isBlue(lines[Int(boxX + first.x + 2), Int(boxY + first.y + first.height / 2)]))
        #expect(isBlue(lines[Int(boxX + second.maxX - 2), Int(boxY + second.y + second.height / 2)]))
    }

    /// `<b>` over the whole text draws heavier strokes: more ink than the same text without it.
    @Test func boldRunMakesInkHeavier() throws {
        let text = "Heavier ink"
        let plain = TextStyle(font: "DejaVu Sans", size: 40)
        var bold = plain
        bold.inline = [TextStyle.InlineRun(start: 0, end: text.utf8.count, style: .bold)]
        let (plainFrame, plainContent) = try render(text, plain)
        let (boldFrame, boldContent) = try render(text, bold)
        #expect(Double(boldFrame.inkCount) > 1.2 * Double(plainFrame.inkCount), "\(boldFrame.inkCount) vs \(plainFrame.inkCount)")
        #expect(boldContent.boxWidth > plainContent.boxWidth, "bold glyphs are wider")
    }

    /// A coloured span colours its run only: red ink right of the gap, white ink left of it.
    @Test func aSpanColoursJustItsRun() throws {
        let text = "WWW MMM"
        var style = TextStyle(font: "DejaVu Sans", weight: 700, size: 48, color: .white)
        style.inline = [TextStyle.InlineRun(start: 4, end: 7, style: .color(Color(red: 1, green: 0, blue: 0)))]
        let (frame, _) = try render(text, style)
        let ink = try #require(frame.inkBounds)
        let middle = (ink.x.lowerBound + ink.x.upperBound) / 2
        var red = (left: 0, right: 0), white = (left: 0, right: 0)
        for y in ink.y { for x in ink.x {
            let p = frame[x, y]
            if p.r > 200 && p.g < 40 && p.b < 40 { if x < middle { red.left += 1 } else { red.right += 1 } }
            if p.r > 200 && p.g > 200 && p.b > 200 { if x < middle { white.left += 1 } else { white.right += 1 } }
        } }
        #expect(red.left == 0 && red.right > 300, "red only in MMM: \(red)")
        #expect(white.right == 0 && white.left > 300, "white only in WWW: \(white)")
    }

    /// A size span is scaled with the text by `fit: shrink`: both shrink by the same factor.
    @Test func aSizeSpanShrinksWithTheText() throws {
        let text = "Big small"
        var style = TextStyle(font: "DejaVu Sans", size: 40)
        style.inline = [TextStyle.InlineRun(start: 0, end: 3, style: .size(80))]
        let (_, natural) = try render(text, style)
        style.boxWidth = natural.boxWidth / 2
        style.fit = .shrink
        let (frame, shrunk) = try render(text, style)
        #expect(shrunk.fontSize < 21 && shrunk.fontSize > 17, "\(shrunk.fontSize)")
        #expect(try #require(frame.inkBounds).x.count <= Int(natural.boxWidth / 2), "the big run shrank too")
    }

    /// Units come from the layout of the plain text, its runs included: words of a text with a
    /// bold word are its words, and a bold word's unit box is wider than the plain one's.
    @Test func unitsSplitATextWithRuns() throws {
        let fonts = try FontCatalog(fontFiles: [])
        let text = "mmm mmm"
        var style = TextStyle(font: "DejaVu Sans", size: 40)
        style.inline = [TextStyle.InlineRun(start: 4, end: 7, style: .bold)]
        #expect(fonts.textUnits(of: text, style: style, width: nil, height: nil, by: .word) == ["mmm", "mmm"])
        let words = try TextContent(text: text, style: style, layerWidth: nil, layerHeight: nil, fonts: fonts).units(by: .word)
        #expect(words.count == 2 && words[1].box.width > words[0].box.width + 2, "\(words.map(\.box))")
    }

    @Test func aSpanFontThatIsMissingIsAnError() throws {
        var style = TextStyle(font: "DejaVu Sans", size: 40)
        style.inline = [TextStyle.InlineRun(start: 0, end: 1, style: .font("No Such Family"))]
        #expect(throws: OverlayError.self) {
            try OverlayRenderer(layers: [layer(.text("x", style), x: 0, y: 0)], fonts: [], renderSize: PixelSize(width: 64, height: 64))
        }
    }
}
