import CompositionGraph
import MediaTime
import Testing
@testable import OverlayRendering
import TestSupport

/// Text split into units by Pango's layout (`TextUnits`) and drawn a unit at a time
/// (`PosedUnits`): each unit where the plain text has it, moving on its own.
@Suite struct TextUnitTests {
    let fonts: FontCatalog
    init() throws { fonts = try FontCatalog(fontFiles: []) }

    func units(_ text: String, by unit: TextUnitPhase.Unit, font: String = "DejaVu Sans", width: Double? = nil) throws -> [String] {
        try #require(fonts.textUnits(of: text, style: TextStyle(font: font, size: 40, boxWidth: width), width: nil, height: nil, by: unit))
    }

    // MARK: Splitting

    @Test func latinLettersAreGraphemeClustersWithoutBlanks() throws {
        // e + COMBINING ACUTE ACCENT is one letter; spaces are none.
        #expect(try units("e\u{301}te\u{301}", by: .letter) == ["e\u{301}", "t", "e\u{301}"])
        #expect(try units("Hi, yo", by: .letter) == ["H", "i", ",", "y", "o"])
    }

    @Test func latinWordsFollowUnicodeWordBoundaries() throws {
        // Punctuation goes with the word before it, an opening bracket with the one after; don't and 3.5 are one word each.
        let words = try units("Hello, wo\u{301}rld! (don't) 3.5", by: .word)
        #expect(words == ["Hello,", "wo\u{301}rld!", "(don't)", "3.5"], "\(words)")
    }

    @Test func cjkIdeographsAreWordsOfTheirOwn() throws {
        #expect(try units("春季促销、日本語", by: .word, font: "Noto Sans CJK SC") == ["春", "季", "促", "销、", "日", "本", "語"])
        #expect(try units("春季促销、", by: .letter, font: "Noto Sans CJK SC") == ["春", "季", "促", "销", "、"])
    }

    @Test func rightToLeftUnitsComeInReadingOrder() throws {
        let arabic = "مرحبا بالعالم", hebrew = "שלום עולם"
        #expect(try units(arabic, by: .word, font: "DejaVu Sans") == ["مرحبا", "بالعالم"])
        #expect(try units(hebrew, by: .word, font: "DejaVu Sans") == ["שלום", "עולם"])
        #expect(try units(hebrew, by: .letter, font: "DejaVu Sans").count == 8)
        // Read first, drawn rightmost.
        for text in [arabic, hebrew] {
            let content = try TextContent(text: text, style: TextStyle(font: "DejaVu Sans", size: 40), layerWidth: nil, layerHeight: nil, fonts: fonts)
            let words = content.units(by: .word)
            #expect(words.count == 2 && words[0].box.x > words[1].box.maxX - 1, "\(words.map(\.box))")
        }
    }

    @Test func linesAreTheLayoutsLines() throws {
        let lines = try units("one two\nthree", by: .line)
        #expect(lines == ["one two", "three"], "\(lines)")
        // Wrapped at the box width: the lines Pango broke.
        #expect(try units("aaa bbb ccc", by: .line, width: 100).count >= 2)
    }

    @Test func theUnitsClipsTileTheText() throws {
        let content = try TextContent(text: "Hello big world", style: TextStyle(font: "DejaVu Sans", size: 40), layerWidth: nil, layerHeight: nil, fonts: fonts)
        let words = content.units(by: .word)
        #expect(words.map(\.extent) == [0..<6, 6..<10, 10..<15])
        // Each clip starts where the one before ends; the outer ones reach past the text.
        #expect(words[0].clip[0].maxX == words[1].clip[0].x && words[1].clip[0].maxX == words[2].clip[0].x)
        #expect(words[0].clip[0].x < content.inkBounds.x && words[2].clip[0].maxX > content.inkBounds.maxX)
    }

    // MARK: Drawing

    static let style = TextStyle(font: "DejaVu Sans", size: 40, color: .white)

    /// "Hello world" centred on a 400×120 frame, entering or leaving by `unit` with `move`.
    func animated(_ text: String = "Hello world", by unit: TextUnitPhase.Unit = .word, edge: TextUnitPhase.Edge = .enter,
                  pace: TextUnitPhase.Pace = .stagger(seconds(1), each: seconds(1, 2)), move: UnitMove, reversed: Bool = false,
                  caption: Bool = false) -> OverlayLayer {
        let content: OverlayContent = caption ? .caption(CaptionState(text: text, style: Self.style)) : .text(text, Self.style)
        var l = layer(content, x: 200, y: 60)
        let phase = TextUnitPhase(by: unit, edge: edge, pace: pace, reversed: reversed, time: edge == .enter ? .zero : seconds(10), move: move)
        l.textUnits = TextUnitMotion(enter: edge == .enter ? phase : nil, exit: edge == .exit ? phase : nil)
        return l
    }

    static let fade = UnitMove(opacity: Animation(keyframes: [Keyframe(time: .zero, value: 0), Keyframe(time: seconds(1), value: 1)]))
    static let fadeOut = UnitMove(opacity: Animation(keyframes: [Keyframe(time: .zero, value: 1), Keyframe(time: seconds(1), value: 0)]))

    /// The frame pixels of each unit's clip (shrunk by 2 px, away from its neighbours' edges), as laid out by `layer`.
    func regions(_ layer: OverlayLayer, by unit: TextUnitPhase.Unit, frame: TestFrame) throws -> [[(Int, Int)]] {
        let renderer = try OverlayRenderer(layers: [layer], fonts: [], renderSize: frame.size)
        let content = try #require(renderer.content(ofLayer: 0) as? any UnitDrawable)
        let left = 200 - content.boxWidth / 2, top = 60 - content.boxHeight / 2
        return content.units(by: unit).map { u in
            u.clip.flatMap { r -> [(Int, Int)] in
                let x0 = max(Int((left + r.x).rounded(.up)) + 2, 0), x1 = min(Int((left + r.maxX).rounded(.down)) - 2, frame.width)
                let y0 = max(Int((top + r.y).rounded(.up)) + 2, 0), y1 = min(Int((top + r.maxY).rounded(.down)) - 2, frame.height)
                return (y0..<max(y0, y1)).flatMap { y in (x0..<max(x0, x1)).map { ($0, y) } }
            }
        }
    }

    func inkIn(_ frame: TestFrame, _ region: [(Int, Int)]) -> Int { region.filter { frame[$0.0, $0.1] != frame.background }.count }
    func same(_ a: TestFrame, _ b: TestFrame, _ region: [(Int, Int)]) -> Bool { region.allSatisfy { a[$0.0, $0.1] == b[$0.0, $0.1] } }

    @Test func betweenOneWordsEndAndTheNextsStartTheFirstIsDrawnAndTheSecondIsNot() throws {
        let frame = TestFrame(width: 400, height: 120)
        let moving = animated(move: Self.fade), plain = layer(.text("Hello world", Self.style), x: 200, y: 60)
        let words = try regions(plain, by: .word, frame: frame)
        let whole = try render([plain], frame: frame)
        // Word 1 fades in over 0–0.5 s, word 2 over 1–1.5 s: at 0.75 s the first is whole, the second not begun.
        let between = try render([moving], at: seconds(3, 4), frame: frame)
        #expect(inkIn(whole, words[0]) > 200 && inkIn(whole, words[1]) > 200)
        #expect(same(between, whole, words[0]), "the first word as the plain text draws it")
        #expect(inkIn(between, words[1]) == 0, "nothing of the second")
        // Half-way through the second word's fade: its pixels at half their brightness.
        let half = try render([moving], at: seconds(5, 4), frame: frame)
        let brightest = words[1].map { whole[$0.0, $0.1].r }.max()!, halfBrightest = words[1].map { half[$0.0, $0.1].r }.max()!
        #expect(abs(Int(halfBrightest) - Int(brightest) / 2) <= 2, "\(halfBrightest) of \(brightest)")
        #expect(same(half, whole, words[0]))
        // Once every word has come in, the layer is the plain text, byte for byte.
        #expect(try render([moving], at: seconds(2), frame: frame).bytes == whole.bytes)
        #expect(try render([moving], at: .zero, frame: frame).inkCount == 0, "nothing before the first word starts")
    }

    @Test func theSameFrameIsTheSameBytesEveryTime() throws {
        let frame = TestFrame(width: 400, height: 120)
        let pop = UnitMove(opacity: Self.fade.opacity, scale: Animation(keyframes: [Keyframe(time: .zero, value: 0.6, ease: .easeOut), Keyframe(time: seconds(1), value: 1)]))
        let first = try render([animated(by: .letter, pace: .stagger(seconds(1, 25), each: seconds(1, 2)), move: pop)], at: seconds(3, 10), frame: frame)
        let again = try render([animated(by: .letter, pace: .stagger(seconds(1, 25), each: seconds(1, 2)), move: pop)], at: seconds(3, 10), frame: frame)
        #expect(first.inkCount > 100 && first.bytes == again.bytes)
    }

    @Test func aSlidingWordIsDrawnLowerThanItRests() throws {
        let frame = TestFrame(width: 400, height: 120)
        // Moving up: from half its height below.
        let slide = UnitMove(shiftY: Animation(keyframes: [Keyframe(time: .zero, value: 0.5), Keyframe(time: seconds(1), value: 0)]))
        let plain = layer(.text("Hello world", Self.style), x: 200, y: 60)
        let words = try regions(plain, by: .word, frame: frame)
        let whole = try render([plain], frame: frame), moving = try render([animated(move: slide)], at: seconds(1), frame: frame)
        let restingBottom = words[1].filter { whole[$0.0, $0.1] != whole.background }.map(\.1).max()!
        let rightHalf = (words[1].map(\.0).min()!)..<400
        let slidBottom = (0..<120).filter { y in rightHalf.contains { moving[$0, y] != moving.background } }.max()!
        #expect(slidBottom > restingBottom + 10, "\(slidBottom) vs \(restingBottom)")
        #expect(same(moving, whole, words[0]), "the first word rests")
    }

    @Test func aTypewriterShowsEachLetterAtItsTurn() throws {
        let frame = TestFrame(width: 400, height: 120)
        let type = UnitMove(opacity: Animation(keyframes: [Keyframe(time: .zero, value: 0), Keyframe(time: .zero, value: 1)]))
        let typing = animated("abc", by: .letter, pace: .spread(seconds(3)), move: type)
        let plain = layer(.text("abc", Self.style), x: 200, y: 60)
        let letters = try regions(plain, by: .letter, frame: frame), whole = try render([plain], frame: frame)
        // a at 0 s, b at 1 s, c at 2 s, each at once.
        let justBefore = try render([typing], at: MediaTime(999, 1000), frame: frame), atB = try render([typing], at: seconds(1), frame: frame)
        #expect(same(justBefore, whole, letters[0]) && inkIn(justBefore, letters[1]) == 0 && inkIn(justBefore, letters[2]) == 0)
        #expect(same(atB, whole, letters[0]) && same(atB, whole, letters[1]) && inkIn(atB, letters[2]) == 0)
        #expect(try render([typing], at: seconds(2), frame: frame).bytes == whole.bytes)
    }

    @Test func anExitLeavesInReadingOrder() throws {
        let frame = TestFrame(width: 400, height: 120)
        // Ending at 10 s: two words of 0.5 s, 1 s apart: the first leaves over 8.5–9 s, the second over 9.5–10 s.
        let leaving = animated(edge: .exit, move: Self.fadeOut)
        let plain = layer(.text("Hello world", Self.style), x: 200, y: 60)
        let words = try regions(plain, by: .word, frame: frame), whole = try render([plain], frame: frame)
        let between = try render([leaving], at: seconds(37, 4), frame: frame)
        #expect(inkIn(between, words[0]) == 0 && same(between, whole, words[1]))
        #expect(try render([leaving], at: seconds(8), frame: frame).bytes == whole.bytes, "before it starts, the plain text")
    }

    @Test func aCaptionPageEntersByWord() throws {
        let frame = TestFrame(width: 400, height: 120)
        let moving = animated(move: Self.fade, caption: true), plain = layer(.caption(CaptionState(text: "Hello world", style: Self.style)), x: 200, y: 60)
        let words = try regions(plain, by: .word, frame: frame), whole = try render([plain], frame: frame)
        let between = try render([moving], at: seconds(3, 4), frame: frame)
        #expect(inkIn(whole, words[1]) > 200)
        #expect(same(between, whole, words[0]) && inkIn(between, words[1]) == 0)
        #expect(try render([moving], at: seconds(2), frame: frame).bytes == whole.bytes)
    }
}
