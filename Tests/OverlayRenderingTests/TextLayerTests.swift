import CompositionGraph
import MediaTime
import Testing
@testable import OverlayRendering

@Suite struct TextLayerTests {
    /// Renders one text layer centred on the frame; returns the frame and the layer's content.
    func renderText(_ text: String, _ style: TextStyle, frame: TestFrame = TestFrame(width: 640, height: 360),
                    layerWidth: Double? = nil) throws -> (TestFrame, TextContent) {
        let overlay = layer(.text(text, style), x: Double(frame.width) / 2, y: Double(frame.height) / 2, width: layerWidth)
        let renderer = try OverlayRenderer(layers: [overlay], fonts: [], renderSize: frame.size)
        var frame = frame
        frame.composite(renderer, at: .zero)
        return (frame, try #require(renderer.content(ofLayer: 0) as? TextContent))
    }

    /// The layer's box as placed on the frame (anchor at the centre of the frame).
    func placedBox(_ content: TextContent, in frame: TestFrame) -> (x: ClosedRange<Double>, y: ClosedRange<Double>) {
        let cx = Double(frame.width) / 2, cy = Double(frame.height) / 2
        return (cx - content.boxWidth / 2...cx + content.boxWidth / 2, cy - content.boxHeight / 2...cy + content.boxHeight / 2)
    }

    /// Ink exists, lies inside the placed box (grown by what Pango reports of ink beyond the
    /// logical box, e.g. Arabic descenders, and 1 px of antialiasing) and is centred on it.
    func expectInkInsideBox(_ frame: TestFrame, _ content: TextContent, minimumInk: Int, _ comment: Comment) throws {
        let ink = try #require(frame.inkBounds, "no ink: \(comment)")
        let box = placedBox(content, in: frame)
        let overhang = content.inkBounds
        let left = box.x.lowerBound + min(overhang.x, 0) - 1, right = box.x.upperBound + max(overhang.maxX - content.boxWidth, 0) + 1
        let top = box.y.lowerBound + min(overhang.y, 0) - 1, bottom = box.y.upperBound + max(overhang.maxY - content.boxHeight, 0) + 1
        #expect(Double(ink.x.lowerBound) >= left && Double(ink.x.upperBound) <= right, comment)
        #expect(Double(ink.y.lowerBound) >= top && Double(ink.y.upperBound) <= bottom, comment)
        #expect(overhang.maxY - content.boxHeight < 2, "ink overhangs the box by less than 2 px: \(comment)")
        let centre = Double(ink.x.lowerBound + ink.x.upperBound) / 2
        #expect(abs(centre - Double(frame.width) / 2) < 8, "centred: \(comment)")
        #expect(frame.inkCount >= minimumInk, comment)
        #expect(content.unknownGlyphCount == 0, "every character has a glyph: \(comment)")
    }

    @Test func latinRendersInsideItsBox() throws {
        let (frame, content) = try renderText("Spring Sale", TextStyle(font: "DejaVu Sans", weight: 700, size: 64))
        try expectInkInsideBox(frame, content, minimumInk: 2000, "Latin")
        // DejaVu Sans Bold: 11 glyphs of ~0.7 em, one 64 px line of 1.16 em.
        #expect((350...500).contains(content.boxWidth) && (70...80).contains(content.boxHeight), "\(content.boxWidth)×\(content.boxHeight)")
        #expect(try #require(frame.inkBounds).x.count > 300)
    }

    @Test func chineseRendersWithTheCJKFont() throws {
        let (frame, content) = try renderText("春季促销", TextStyle(font: "Noto Sans CJK SC", size: 64))
        try expectInkInsideBox(frame, content, minimumInk: 2000, "Chinese")
        #expect(abs(content.boxWidth - 4 * 64) < 2, "four full-width ideographs, 1 em each: \(content.boxWidth)")
    }

    /// Han characters shared by Chinese and Japanese take their forms from the text's
    /// language: with `ja` the fallback is Noto Sans CJK JP, with `zh-Hans` Noto Sans CJK SC,
    /// exactly as if that family had been named.
    @Test func theLanguageChoosesHanGlyphForms() throws {
        let text = "骨直 Sale"
        func pixels(_ font: String, _ language: String?) throws -> [UInt8] {
            try renderText(text, TextStyle(font: font, size: 64, language: language)).0.bytes
        }
        let japanese = try pixels("DejaVu Sans", "ja"), chinese = try pixels("DejaVu Sans", "zh-Hans")
        #expect(japanese != chinese, "the two languages draw different forms of 骨 and 直")
        #expect(japanese == (try pixels("DejaVu Sans, Noto Sans CJK JP", nil)))
        #expect(chinese == (try pixels("DejaVu Sans, Noto Sans CJK SC", nil)))
    }

    @Test func arabicAndHebrewRenderRightToLeft() throws {
        for text in ["مرحبا بالعالم", "שלום עולם"] {
            let (frame, content) = try renderText(text, TextStyle(font: "DejaVu Sans", size: 48))
            try expectInkInsideBox(frame, content, minimumInk: 800, "\(text)")
            #expect(content.isRightToLeft, "\(text) is laid out right to left")
        }
    }

    @Test func combiningMarksAndMixedScriptsFallBackPerCharacter() throws {
        // Han is not in DejaVu Sans: Pango takes it from a font that has it (Noto CJK).
        let (frame, content) = try renderText("Cafe\u{301} Sale 春季 سلام 50%", TextStyle(font: "DejaVu Sans", size: 40))
        try expectInkInsideBox(frame, content, minimumInk: 1500, "mixed")
    }

    @Test func missingFamilyIsAnErrorNamingItAndTheAvailableOnes() throws {
        let style = TextStyle(font: "Brand Sans Nonexistent", size: 40)
        do {
            _ = try OverlayRenderer(layers: [layer(solidRect(.white), x: 0, y: 0, width: 1), layer(.text("x", style), x: 0, y: 0)],
                                    fonts: [], renderSize: PixelSize(width: 64, height: 64))
            Issue.record("an unknown family must not fall back silently")
        } catch {
            guard case .unknownFontFamily(let family, let available) = error.reason else { throw error }
            #expect(family == "Brand Sans Nonexistent" && error.layerIndex == 1)
            #expect(available.contains("DejaVu Sans") && available.contains("Noto Sans CJK SC"))
            #expect(error.description.contains("'Brand Sans Nonexistent'") && error.description.contains("DejaVu Sans"))
            #expect(error.description.contains("overlay 1"))
        }
    }

    @Test func everyFamilyOfAFallbackListMustExist() throws {
        let catalog = try FontCatalog(fontFiles: [])
        #expect(try catalog.resolve(family: "DejaVu Sans, Noto Sans CJK SC").family == "DejaVu Sans")
        #expect(throws: OverlayError.self) { try catalog.resolve(family: "DejaVu Sans, Missing Family") }
    }

    @Test func weightAndSlantPickTheMatchingFile() throws {
        let catalog = try FontCatalog(fontFiles: [])
        #expect(try catalog.resolve(family: "DejaVu Sans", weight: 700).file.hasSuffix("DejaVuSans-Bold.ttf"))
        #expect(try catalog.resolve(family: "dejavu sans").file.hasSuffix("DejaVuSans.ttf"), "case and blanks ignored, as fontconfig does")
        #expect(try catalog.resolve(family: "DejaVu Serif", weight: 700, italic: true).file.hasSuffix("DejaVuSerif-BoldItalic.ttf"))
    }

    @Test func wrappingKeepsLongLinesInsideTheBoxWidth() throws {
        let long = "The quick brown fox jumps over the lazy dog and keeps running far beyond the edge"
        let (frame, content) = try renderText(long, TextStyle(font: "DejaVu Sans", size: 32, boxWidth: 240))
        let ink = try #require(frame.inkBounds)
        #expect(ink.x.count <= 240 && content.boxWidth == 240)
        #expect(content.lineCount >= 4 && ink.y.count > 3 * 32)
        try expectInkInsideBox(frame, content, minimumInk: 2000, "wrapped")
    }

    @Test func chineseWrapsBetweenIdeographs() throws {
        let (frame, content) = try renderText("春季促销活动现在开始欢迎光临", TextStyle(font: "Noto Sans CJK SC", size: 32, boxWidth: 150))
        #expect(try #require(frame.inkBounds).x.count <= 150)
        #expect(content.lineCount == 4, "14 ideographs of 32 px, at most 4 to a 150 px line")
    }

    @Test(arguments: [TextStyle.Alignment.left, .center, .right])
    func alignmentPlacesLinesInsideTheBoxWidth(_ alignment: TextStyle.Alignment) throws {
        let (frame, content) = try renderText("Hi", TextStyle(font: "DejaVu Sans", size: 40, alignment: alignment, boxWidth: 400))
        let ink = try #require(frame.inkBounds)
        let box = placedBox(content, in: frame)
        switch alignment {
        case .left: #expect(Double(ink.x.lowerBound) - box.x.lowerBound < 8)
        case .center: #expect(abs(Double(ink.x.lowerBound + ink.x.upperBound) / 2 - 320) < 3)
        case .right: #expect(box.x.upperBound - Double(ink.x.upperBound) < 8)
        }
        #expect(ink.x.count < 100, "two letters, not stretched")
    }

    @Test func boxHeightCentresTheTextVertically() throws {
        let (frame, content) = try renderText("Hi", TextStyle(font: "DejaVu Sans", size: 40, boxWidth: 200, boxHeight: 300))
        #expect(content.boxHeight == 300)
        let ink = try #require(frame.inkBounds)
        #expect(abs(Double(ink.y.lowerBound + ink.y.upperBound) / 2 - 180) < 6, "cap-height ink centred on the box centre")
    }

    @Test func layerWidthIsTheBoxWhenTheStyleHasNone() throws {
        let (_, content) = try renderText("one two three four five six", TextStyle(font: "DejaVu Sans", size: 32), layerWidth: 120)
        #expect(content.boxWidth == 120 && content.lineCount >= 3)
    }

    @Test func shrinkFitsALongNameOnOneLine() throws {
        let name = "Dr. Maximilian Alexander von Habsburg-Lothringen"
        let style = TextStyle(font: "DejaVu Sans", weight: 700, size: 48, boxWidth: 300, fit: .shrink)
        let (frame, content) = try renderText(name, style)
        #expect(content.lineCount == 1 && content.fontSize < 48 && content.fontSize > 10)
        #expect(try #require(frame.inkBounds).x.count <= 300)
        // The largest size that fits: 2 % more would overflow.
        let (_, bigger) = try renderText(name, TextStyle(font: "DejaVu Sans", weight: 700, size: content.fontSize * 1.02))
        #expect(bigger.boxWidth > 300)
    }

    /// The showcase's lower third: italic mono with letter spacing, where a width measured
    /// apart from Pango's line breaking let the last word wrap.
    @Test(arguments: ["Lower third: a name that is rather long for its box", "Dr. Maximilian Alexander von Habsburg-Lothringen"])
    func shrinkWithLetterSpacingStaysOnOneLine(text: String) throws {
        var style = TextStyle(font: "DejaVu Sans Mono", italic: true, size: 36, alignment: .left, boxWidth: 520, lineHeight: 1.1, fit: .shrink)
        style.letterSpacing = 1
        let (frame, content) = try renderText(text, style)
        #expect(content.lineCount == 1)
        #expect(try #require(frame.inkBounds).x.count <= 520)
    }

    @Test func shrinkKeepsTextThatAlreadyFits() throws {
        let (_, content) = try renderText("Sale", TextStyle(font: "DejaVu Sans", size: 48, boxWidth: 300, fit: .shrink))
        #expect(content.fontSize == 48)
    }

    @Test func shrinkIntoABoxWrapsAndFitsItsHeight() throws {
        let style = TextStyle(font: "DejaVu Sans", size: 60, boxWidth: 200, boxHeight: 90, fit: .shrink)
        let (frame, content) = try renderText("A much longer headline than the box can hold", style)
        #expect(content.fontSize < 60 && content.lineCount >= 2)
        let ink = try #require(frame.inkBounds)
        #expect(ink.x.count <= 200 && ink.y.count <= 90)
    }

    @Test func shrinkWithoutABoxIsAnError() throws {
        #expect(throws: OverlayError(.shrinkNeedsBox, layerIndex: 0)) {
            try OverlayRenderer(layers: [layer(.text("x", TextStyle(font: "DejaVu Sans", size: 20, fit: .shrink)), x: 0, y: 0)],
                                fonts: [], renderSize: PixelSize(width: 64, height: 64))
        }
    }

    @Test func lineHeightAndLetterSpacingWidenTheBox() throws {
        let base = TextStyle(font: "DejaVu Sans", size: 32)
        let (_, plain) = try renderText("Two\nlines", base)
        var spaced = base
        spaced.lineHeight = 2
        spaced.letterSpacing = 10
        let (_, wide) = try renderText("Two\nlines", spaced)
        #expect(wide.boxWidth >= plain.boxWidth + 4 * 10, "5 letters in 'lines': at least 4 gaps of 10 px")
        // Baselines 2 line heights apart: two lines take 1 + 2 line heights instead of 2.
        #expect(abs(wide.boxHeight - plain.boxHeight * 1.5) < 0.5, "\(wide.boxHeight) vs \(plain.boxHeight)")
    }

    @Test func strokeIsDrawnUnderTheFill() throws {
        let style = TextStyle(font: "DejaVu Sans", weight: 700, size: 80, color: .white, stroke: Stroke(color: Color(red: 1, green: 0, blue: 0), width: 4))
        let (frame, _) = try renderText("I", style)
        let ink = try #require(frame.inkBounds)
        let row = ink.y.lowerBound + ink.y.count / 2, centre = (ink.x.lowerBound + ink.x.upperBound) / 2
        #expect(frame[centre, row] == TestFrame.Pixel(b: 255, g: 255, r: 255, a: 255), "fill on top in the middle of the stem")
        #expect(frame[ink.x.lowerBound + 1, row].r == 255 && frame[ink.x.lowerBound + 1, row].g < 40, "red stroke at the edge")
    }

    @Test func backgroundBoxHasPaddingAndRoundCorners() throws {
        let background = TextStyle.Background(color: Color(red: 0, green: 0, blue: 1), padding: 20, cornerRadius: 12)
        let (frame, content) = try renderText("Lower third", TextStyle(font: "DejaVu Sans", size: 32, background: background))
        let ink = try #require(frame.inkBounds)
        #expect(Double(ink.x.count) == content.boxWidth.rounded(.up) || Double(ink.x.count) == content.boxWidth.rounded(.up) + 1)
        let (_, unpadded) = try renderText("Lower third", TextStyle(font: "DejaVu Sans", size: 32))
        #expect(content.boxWidth == unpadded.boxWidth + 40 && content.boxHeight == unpadded.boxHeight + 40)
        #expect(frame[ink.x.lowerBound + 2, ink.y.lowerBound + ink.y.count / 2].b == 255, "box edge")
        #expect(frame[ink.x.lowerBound, ink.y.lowerBound] == TestFrame.opaqueBlack, "rounded corner")
    }

    @Test func dropShadowIsOffsetAndBlurred() throws {
        let shadow = Shadow(color: .black, offsetX: 12, offsetY: 12, blur: 8)
        let style = TextStyle(font: "DejaVu Sans", weight: 700, size: 64, color: .white, shadow: shadow)
        let light = TestFrame.Pixel(b: 200, g: 200, r: 200, a: 255)
        let (frame, _) = try renderText("H", style, frame: TestFrame(width: 640, height: 360, background: light))
        let (plain, _) = try renderText("H", TextStyle(font: "DejaVu Sans", weight: 700, size: 64, color: .white),
                                        frame: TestFrame(width: 640, height: 360, background: light))
        let ink = try #require(frame.inkBounds), glyph = try #require(plain.inkBounds)
        #expect(ink.x.upperBound > glyph.x.upperBound + 12 && ink.y.upperBound > glyph.y.upperBound + 12, "shadow reaches past the offset")
        // Blurred: a ramp of grey levels, not a hard copy of the glyph.
        let row = glyph.y.lowerBound + glyph.y.count / 2
        let levels = Set((glyph.x.upperBound..<ink.x.upperBound).map { frame[$0, row].r })
        #expect(levels.count >= 6, "shadow edge levels: \(levels.sorted())")
    }

    @Test func italicSlantsTheGlyphs() throws {
        let (upright, _) = try renderText("l", TextStyle(font: "DejaVu Sans", size: 80))
        let (italic, _) = try renderText("l", TextStyle(font: "DejaVu Sans", italic: true, size: 80))
        let slanted = try #require(italic.inkBounds), straight = try #require(upright.inkBounds)
        #expect(slanted.x.count > straight.x.count + 5)
    }
}
