import ProjectCompiler
import ProjectFile
import Testing

/// A mistake leaves out only what it causes: two mistakes in different places of a project are
/// each reported whether the other is there or not. Every pair of the mistakes below, each a
/// line of the project written wrong in place (so no line moves), must report exactly the
/// errors of the first alone and of the second alone.
@Suite struct IndependentMistakesTests {
    let project = PromoProjectText(file: "mistakes.yaml")

    /// The project; line numbers count after `PromoProjectText.head`'s three lines.
    static let lines = [
        "video:",
        "  - clips:",
        "      - { media: a, duration: 2s }",
        "      - { transition: crossfade, duration: 0.5s }",
        "      - { media: a, duration: 2s }",
        "      - { color: \"#ff0000\", duration: 2s }",
        "      - { media: b, from: 1s, duration: 1s }",
        "      # the end of the track",
        "  - clips:",
        "      - { media: b, duration: 3s, volume: 0.5 }",
        "overlays:",
        "  - { text: Hello, at: 1s, duration: 2s, position: [\"50%\", \"50%\"] }",
        "  - { image: logo, at: 0s, duration: 4s, size: [64, 64] }",
    ]

    /// Each mistake: the index in `lines` it rewrites, and the line it writes there.
    static let mistakes: [(name: String, line: Int, text: String)] = [
        ("an unknown media name", 6, "      - { media: nosuch, from: 1s, duration: 1s }"),
        ("a transition that ends its track", 7, "      - { transition: crossfade, duration: 0.5s }"),
        ("a misspelt key on a colour clip", 5, "      - { color: \"#ff0000\", durration: 2s }"),
        ("an unknown transition kind", 3, "      - { transition: crossfad, duration: 0.5s }"),
        ("a malformed time", 2, "      - { media: a, duration: 2ss }"),
        ("a volume that is a word", 9, "      - { media: b, duration: 3s, volume: loud }"),
        ("an overlay's malformed position", 11, "  - { text: Hello, at: 1s, duration: 2s, position: [\"50%\", \"50 %%\"] }"),
        ("an overlay naming an unknown picture", 12, "  - { image: logoo, at: 0s, duration: 4s, size: [64, 64] }"),
    ]

    /// The errors (not the notes) the project with `mistakes` applied reports, as
    /// "line:column message".
    func errors(_ chosen: [Int]) -> Set<String> {
        var lines = Self.lines
        for m in chosen { lines[Self.mistakes[m].line] = Self.mistakes[m].text }
        guard let failure = project.failure(lines.joined(separator: "\n") + "\n") else { return [] }
        return Set(failure.diagnostics.filter { $0.severity == .error }.map { "\($0.location.line):\($0.location.column) \($0.message)" })
    }

    @Test func theProjectWithoutMistakesIsValid() {
        #expect(errors([]).isEmpty)
    }

    @Test func eachMistakeAloneIsReported() {
        for m in Self.mistakes.indices {
            #expect(!errors([m]).isEmpty, "\(Self.mistakes[m].name) is not reported")
        }
    }

    @Test(arguments: Self.mistakes.indices.flatMap { a in Self.mistakes.indices.filter { $0 > a }.map { (a, $0) } })
    func twoMistakesReportWhatEachReportsAlone(pair: (Int, Int)) {
        let (a, b) = pair
        let alone = errors([a]).union(errors([b]))
        let together = errors([a, b])
        #expect(together == alone, """
            \(Self.mistakes[a].name) with \(Self.mistakes[b].name):
            missing: \(alone.subtracting(together).sorted())
            extra: \(together.subtracting(alone).sorted())
            """)
    }
}
