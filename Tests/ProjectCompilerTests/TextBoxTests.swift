import CompositionGraph
import Foundation
import ProjectCompiler
import ProjectFile
import TestSupport
import Testing

/// Text boxes as a project writes them: valign, wrap, a background that hugs the lines, and
/// the small inline markup (its runs, what a var brings in, its errors at their column).
@Suite struct TextBoxTests {
    static let head = "reel: 1\noutput: { size: [640, 360], fps: 30 }\nmedia: { a: A.mp4 }\nvideo: [{ clips: [{ media: a, duration: 4s }] }]\n"

    func graph(_ text: String) throws(ProjectError) -> CompositionGraph {
        let document = try DocumentLoader.load(text: Self.head + text, name: MediaFactory.path("text-boxes.yaml"))
        return try ProjectPipeline.load(document, media: FakeMediaFacts.promo, fonts: FakeFonts()).graph
    }

    /// The first overlay's text and style.
    func text(_ overlays: String) throws -> (String, TextStyle) {
        let graph = try graph("overlays:\n" + overlays)
        guard case .text(let text, let style) = try #require(graph.overlays.first).content else { throw Failure("not a text") }
        return (text, style)
    }

    func failure(_ overlays: String) -> [Diagnostic] {
        do {
            _ = try graph("overlays:\n" + overlays)
            return []
        } catch {
            return error.diagnostics
        }
    }

    struct Failure: Error { let message: String; init(_ m: String) { message = m } }

    func run(_ start: Int, _ end: Int, _ style: TextStyle.InlineStyle) -> TextStyle.InlineRun {
        TextStyle.InlineRun(start: start, end: end, style: style)
    }

    @Test func valignWrapAndABackgroundThatHugsTheLines() throws {
        let (_, style) = try text("""
              - text: Hi
                style: { box_width: 300, box_height: 200, valign: bottom, wrap: false, fit: shrink, background: { color: "#0000ff", fit: lines, padding: 6, corner_radius: 4 } }
            """)
        #expect(style.verticalAlignment == .bottom && !style.wrap && style.fit == .shrink)
        #expect(style.background == TextStyle.Background(color: Color(red: 0, green: 0, blue: 1), padding: 6, cornerRadius: 4, fit: .lines))
        let (_, plain) = try text("  - { text: Hi, style: { background: { color: black } } }")
        #expect(plain.verticalAlignment == .middle && plain.wrap && plain.background?.fit == .box, "the defaults are today's")
        #expect(failure("  - { text: Hi, style: { valign: center } }").first?.location.line == 6)
    }

    @Test func markupBecomesPlainTextAndRuns() throws {
        let (shown, style) = try text("""
              - text: "Now <b>half</b> <span color=\\"#ff0000\\" size=\\"10vmin\\"><i>price</i></span><br>&lt;today&gt; &amp; <u>u</u><s>s</s>"
                style: { markup: true }
            """)
        #expect(shown == "Now half price\n<today> & us")
        #expect(style.inline == [run(4, 8, .bold), run(9, 14, .color(Color(red: 1, green: 0, blue: 0))), run(9, 14, .size(36)),
                                 run(9, 14, .italic), run(25, 26, .underline), run(26, 27, .strikethrough)])
    }

    @Test func withoutMarkupTheTagsAreText() throws {
        let (shown, style) = try text("  - { text: \"<b>$90</b>\" }")
        #expect(shown == "<b>$90</b>" && style.inline.isEmpty)
    }

    /// A var's value is text even where the template allows markup: its tags are drawn as
    /// written, while the template's own tags around it style it.
    @Test func aVarsValueIsNeverMarkup() throws {
        let graph = try graph("""
            vars: { price: "<b>$90</b> & more" }
            overlays:
              - text: "<i>Only {{ price }}</i>"
                style: { markup: true }
            """)
        guard case .text(let shown, let style) = try #require(graph.overlays.first).content else { Issue.record("not a text"); return }
        #expect(shown == "Only <b>$90</b> & more")
        #expect(style.inline == [run(0, shown.utf8.count, .italic)])
    }

    @Test(arguments: [
        ("<blink>x</blink>", "unknown tag <blink>", 13),
        ("<h1>x</h1>", "unknown tag <h1>", 13),
        ("<b>x", "<b> is not closed", 12),
        ("<b><i>x</b></i>", "</b> closes <i>, which is still open", 19),
        ("x</b>", "</b> closes no tag", 13),
        ("<span colour=\\\"red\\\">x</span>", "<span> has no attribute 'colour'", 18),
        ("<span color=\\\"nope\\\">x</span>", "'nope' is not a colour", 26),
        ("<span size=\\\"10%\\\">x</span>", "'10%' is not a size: '%' cannot be used here: a font size has no axis for % to be of", 27),
        ("<b class=\\\"x\\\">x</b>", "<b> takes no attributes", 15),
        ("a & b", "'&' starts no entity", 14),
        ("a < b", "'<' starts a tag that does not end with '>'", 14),
    ])
    func markupErrorsPointAtTheirCharacter(written: String, message: String, column: Int) {
        let diagnostics = failure("""
              - text: "\(written)"
                style: { markup: true }
            """)
        #expect(diagnostics.map(\.message) == ["the text's markup does not read: " + message])
        #expect(diagnostics.first?.location.line == 6)
        #expect(diagnostics.first?.location.column == column, "\(written)")
    }

    @Test func markupCanBeADefault() throws {
        let graph = try graph("""
            defaults: { overlay: { style: { markup: true } } }
            overlays:
              - { text: "<b>on</b>" }
              - { text: "<b>off</b>", style: { markup: false } }
            """)
        let texts = graph.overlays.compactMap { if case .text(let text, let style) = $0.content { "\(text) \(style.inline.count)" } else { nil } }
        #expect(texts == ["on 1", "<b>off</b> 0"])
    }

    @Test func aSpansFontMustExist() {
        let diagnostics = failure("""
              - text: "<span font=\\"DejaVu Sans Mono\\">a</span> <span font=\\"Comic Sans\\">b</span>"
                style: { markup: true }
            """)
        #expect(diagnostics.map(\.message) == ["font family 'Comic Sans' is not available"])
        #expect(diagnostics.first?.location.line == 6 && diagnostics.first?.location.column == 66, "at the family's first character")
    }
}
