import Batch
import CompositionGraph
import Foundation
import MediaTime
import ProjectCompiler
import ProjectFile
import TestSupport
import Testing

struct BatchPlanTests {
    static let project = """
    reel: 1
    vars:
      name: { type: string, default: Widget, max_length: 20 }
      price: { type: number, default: 1, minimum: 0 }
      colour: { type: color, default: "#ff3366" }
      clip: { type: path, default: clip.mp4 }
    output: { size: [160, 90], fps: 25, metadata: { title: "{{ name }} {{ price }}" } }
    media: { clip: "{{ clip }}" }
    video:
      - clips:
          - color: "{{ colour }}"
            duration: 1
          - media: clip
            duration: 1
    """

    func makePlan(_ dataName: String, _ data: String, output: String = "out/{{ id }}.mp4", shard: BatchShard = .all) throws -> BatchPlan {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reel-batchplan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let dataPath = dir.appendingPathComponent(dataName).path
        try data.write(toFile: dataPath, atomically: true, encoding: .utf8)
        let document = try DocumentLoader.load(text: Self.project, name: "project.yaml", format: .yaml)
        let rows = try BatchData.load(path: dataPath)
        return BatchPlan.make(project: document, data: rows, output: try OutputTemplate(output),
                              stamp: "test", shard: shard) { document, values, rendition throws(ProjectError) in
            try ProjectPipeline.load(document, overrides: values, rendition: rendition, media: FakeMediaFacts.anyFile, fonts: nil)
        }
    }

    @Test func everyBadRowIsReportedWithItsNumberAndColumn() throws {
        let plan = try makePlan("rows.csv", """
        id,name,price,colour,clip
        a,Alpha,1.5,#000000,clip.mp4
        b,Beta,cheap,blurple,clip.mp4
        c,Gamma,2,white,missing.mp4
        d,A name far too long for its var,3,red,clip.mp4
        e,Epsilon,4,blue,clip.mp4
        """)
        #expect(plan.jobs.map(\.row) == [1, 5])
        #expect(plan.jobs.map(\.outputPath) == ["out/a.mp4", "out/e.mp4"])
        #expect(plan.rejected.map(\.row) == [2, 3, 4])
        let row2 = plan.rejected[0].error
        #expect(row2.diagnostics.map { "\($0.location): \($0.message)" } == [
            "\(row2.diagnostics[0].location.file):3:8: row 2: var 'price' expects a number such as 1; got 'cheap'",
            ##"\##(row2.diagnostics[0].location.file):3:14: row 2: var 'colour' expects a colour: "#rgb", "#rgba", "#rrggbb", "#rrggbbaa" or black, white, transparent, red, green, blue, yellow, gray; got 'blurple'"##,
        ])
        // The rendered message quotes the CSV line with a caret under the bad value.
        #expect(row2.description.contains("b,Beta,cheap,blurple,clip.mp4"))
        #expect(plan.rejected[1].error.category == .missingFile)
        #expect(plan.rejected[1].error.diagnostics.first?.message.hasPrefix("row 3: ") == true)
        #expect(plan.rejected[2].error.diagnostics.map(\.message) == ["row 4: var 'name' takes at most 20 characters; got 31 ('A name far too long for its var')"])
    }

    @Test func jsonAndJsonLinesRowsAreTypedValues() throws {
        let json = try makePlan("rows.json", #"[{"id": "a", "price": 2}, {"id": "b", "price": "2"}, 7]"#)
        #expect(json.jobs.map(\.row) == [1])
        #expect(json.rejected.map { $0.error.diagnostics.map(\.message) } == [
            [#"row 2: var 'price' expects a number such as 1; got the text "2""#],
            ["row 3: this row is 7, not an object of var names and values"],
        ])
        let lines = try makePlan("rows.jsonl", "{\"id\": \"a\", \"name\": \"Ä\"}\n\n{\"id\": \"b\", \"colour\": 5}\n{broken\n")
        #expect(lines.jobs.map(\.row) == [1])
        #expect(lines.rejected.map(\.row) == [2, 3])
        // Locations count lines in the whole file.
        #expect(lines.rejected[0].error.diagnostics.first?.location.line == 3)
        #expect(lines.rejected[1].error.diagnostics.first?.location.line == 4)
    }

    /// A blank cell of a colour, number or path var leaves its default, as a blank spreadsheet
    /// cell would; a blank text cell is the empty text.
    @Test func blankCellsOfTypedVarsKeepTheirDefaults() throws {
        let plan = try makePlan("rows.csv", "id,name,price,colour,clip\nblank,, ,,\n")
        #expect(plan.rejected.isEmpty, "\(plan.rejected.map(\.error.description))")
        let job = try #require(plan.jobs.first)
        #expect(job.values.map(\.name) == ["name"]) // id only names the output
        #expect(job.values.last?.text == "")
        let graph = try ProjectPipeline.load(try DocumentLoader.load(text: Self.project, name: "project.yaml", format: .yaml),
                                             overrides: job.values, media: FakeMediaFacts.anyFile, fonts: nil).graph
        #expect(graph.output.metadata["title"] == " 1")
        #expect(graph.composition.tracks[0].segments[0].content == .color(Color(red: 1, green: 0.2, blue: 0.4, alpha: 1)))
    }

    @Test func outputNamesMustBeUniqueAndSafe() throws {
        let plan = try makePlan("rows.csv", "id,name\nsame,A\nsame,B\nother,C\nx/y,D\n")
        #expect(plan.jobs.map(\.row) == [3])
        #expect(plan.rejected.map(\.row) == [1, 2, 4])
        #expect(plan.rejected[0].error.diagnostics.map(\.message) == ["row 1: writes out/same.mp4, as row 2 does"])
        #expect(plan.rejected[2].error.diagnostics.first?.message.contains("cannot be part of a file name") == true)
        // {{ row }} and the vars' defaults fill the template too.
        let numbered = try makePlan("rows.csv", "price\n1\n2\n", output: "out/{{ row }}-{{ name }}-{{ price }}.mp4")
        #expect(numbered.jobs.map(\.outputPath) == ["out/1-Widget-1.mp4", "out/2-Widget-2.mp4"])
        #expect(throws: ProjectError.self) { try OutputTemplate("out/{{ 1x }}.mp4") }
    }

    @Test func shardsCoverEveryRowOnceWithTheSameJobs() throws {
        let data = "id,colour\na,red\nb,red\nc,blurple\nd,blue\ne,red\nf,red\ng,green\n"
        let whole = try makePlan("rows.csv", data)
        var seen: [Int] = []
        for k in 0..<3 {
            let part = try makePlan("rows.csv", data, shard: BatchShard(index: k, count: 3))
            let rows = part.jobs.map(\.row) + part.rejected.map(\.row)
            #expect(rows.allSatisfy { ($0 - 1) % 3 == k })
            seen += rows
            for job in part.jobs {
                #expect(whole.jobs.first { $0.row == job.row }?.contentHash == job.contentHash)
                #expect(whole.jobs.first { $0.row == job.row }?.outputPath == job.outputPath)
            }
        }
        #expect(seen.sorted() == Array(1...7))
        #expect(whole.rejected.map(\.row) == [3])
        // One row per shard when there are as many shards as rows.
        #expect(try makePlan("rows.csv", data, shard: BatchShard(index: 4, count: 7)).jobs.map(\.row) == [5])
    }

    @Test func shardParsing() {
        #expect(BatchShard.parse("2/4") == .success(BatchShard(index: 2, count: 4)))
        for bad in ["4/4", "-1/4", "1/0", "1", "a/b", "1/2/3", ""] {
            guard case .failure(let problem) = BatchShard.parse(bad) else { Issue.record("\(bad) parsed"); continue }
            #expect(problem.text == bad && problem.message.hasPrefix("shard \(bad): "))
        }
    }

    @Test func twoRowsWritingOneFileAreRefusedInEveryShardAndWhenOneIsInvalid() throws {
        let data = "id,colour\nsame,red\nsame,blurple\nother,red\n"
        let whole = try makePlan("rows.csv", data)
        #expect(whole.jobs.map(\.row) == [3])
        #expect(whole.rejected.map(\.row) == [1, 2])
        let first = try makePlan("rows.csv", data, shard: BatchShard(index: 0, count: 2))
        #expect(first.jobs.map(\.row) == [3])
        #expect(first.rejected.map(\.row) == [1])
        #expect(first.rejected[0].error.diagnostics.map(\.message) == ["row 1: writes out/same.mp4, as row 2 does"])
    }

    @Test func anOutputThatAnotherShardsRowReadsIsRefused() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reel-batchshard-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let footage = dir.appendingPathComponent("footage.mp4").path
        try Data("footage".utf8).write(to: URL(fileURLWithPath: footage))
        // Row 1 reads footage.mp4; row 2 (in the other shard) would write it.
        let data = "id,clip\none,\(footage)\nfootage,clip.mp4\n"
        for shard in [BatchShard.all, BatchShard(index: 1, count: 2)] {
            let plan = try makePlan("rows.csv", data, output: dir.path + "/{{ id }}.mp4", shard: shard)
            #expect(plan.rejected.map(\.row) == [2], "shard \(shard)")
            #expect(plan.rejected.first?.error.diagnostics.first?.message.contains("will not write \(footage)") == true)
        }
    }

    /// A spreadsheet carries columns a template does not use: the row renders, and one
    /// warning names the column, with the var it looks like.
    @Test func aColumnThatIsNeitherAVarNorInTheOutputIsIgnoredWithAWarning() throws {
        let plan = try makePlan("rows.csv", "id,nmae\na,x\nb,y\n")
        #expect(plan.rejected.isEmpty && plan.jobs.count == 2)
        #expect(plan.warnings.map(\.message) == ["column 'nmae' is not a var of the project nor used by the output template: ignored"])
        #expect(plan.warnings.first?.severity == .warning)
        #expect(plan.warnings.first?.hint == "'nmae' looks like the var 'name': rename the column to use it")
    }

    @Test func theContentHashFollowsTheValues() throws {
        let plan = try makePlan("rows.csv", "id,name\na,X\nb,X\nc,Y\n")
        let hashes = plan.jobs.map(\.contentHash)
        #expect(hashes[0] == hashes[1])
        #expect(hashes[0] != hashes[2])
        #expect(hashes.allSatisfy { $0.count == 64 })
    }
}

/// The template example's rows: four render, row 4 (colour "blurple") is reported and skipped.
struct TemplateExampleTests {
    @Test func rowsCsvHasFourGoodRowsAndOneBadColour() throws {
        let folder = repositoryRoot.appendingPathComponent("Examples/template")
        let projectPath = folder.appendingPathComponent("project.yaml").path
        let document = try DocumentLoader.load(path: projectPath)
        let rows = try BatchData.load(path: folder.appendingPathComponent("rows.csv").path)
        let plan = BatchPlan.make(project: document, data: rows, output: try OutputTemplate("out/{{ id }}.mp4"), stamp: "test") { document, values, rendition throws(ProjectError) in
            try ProjectPipeline.load(document, overrides: values, overrideSources: [rows.source], rendition: rendition, media: FakeMediaFacts.anyFile, fonts: nil)
        }
        #expect(plan.jobs.map(\.outputPath) == ["out/widget.mp4", "out/deluxe.mp4", "out/chinese.mp4", "out/gadget.mp4"])
        #expect(plan.rejected.map(\.row) == [4])
        let diagnostic = try #require(plan.rejected.first?.error.diagnostics.first)
        #expect(diagnostic.message.hasPrefix("row 4: var 'colour' expects a colour"))
        #expect(diagnostic.message.hasSuffix("got 'blurple'"))
        #expect(diagnostic.location.line == 5)
        #expect(diagnostic.location.column == 24)
        #expect(plan.jobs.map(\.values.count) == [5, 5, 5, 5])
    }
}

/// `--output` templates: each value fills one name, substituted once.
struct OutputTemplateEscapeTests {
    func path(_ template: String, _ values: [String: String]) throws -> Result<String, OutputTemplate.TemplateProblem> {
        try OutputTemplate(template).path(row: 3, values: values)
    }

    @Test func valuesCannotLeaveTheirFolder() throws {
        for value in ["../x", "/etc/passwd", "a/b", "..", ".", "a\nb", "a\rb", "a\u{0}b", "\t"] {
            guard case .failure(let problem) = try path("out/{{ id }}.mp4", ["id": value]) else {
                Issue.record("\(value.debugDescription) was accepted")
                continue
            }
            #expect(problem.message.contains("cannot be part of a file name"))
        }
        // A value may not complete a '..' either.
        guard case .failure(let problem) = try path("out/..{{ a }}/{{ id }}.mp4", ["a": "", "id": "x"]) else {
            Issue.record("'..' made of two values was accepted")
            return
        }
        #expect(problem.message.contains("make a '..' component"))
        // Literal dots in the template are the template's business.
        #expect(try path("../out/{{ id }}.mp4", ["id": "x"]).get() == "../out/x.mp4")
    }

    /// `{{ name | slug }}` makes a file-name-safe form of any value, even one that could not
    /// be part of a file name as it is; a broken filter is refused before any row.
    @Test func slugMakesAnyValueAFileName() throws {
        #expect(try path("out/{{ name | slug }}-{{ row }}.mp4", ["name": "Crème Brûlée / 2 for 1!"]).get() == "out/creme-brulee-2-for-1-3.mp4")
        #expect(throws: ProjectError.self) { try OutputTemplate("out/{{ name | slgu }}.mp4") }
    }

    @Test func valuesAreNotExpandedAgain() throws {
        #expect(try path("out/{{ id }}.mp4", ["id": "{{ row }}"]).get() == "out/{{ row }}.mp4")
        #expect(try path("out/{{ a }}{{ b }}.mp4", ["a": "{", "b": "{ row }}"]).get() == "out/{{ row }}.mp4")
        #expect(try path("out/{{ id }}-{{ row }}.mp4", ["id": "..x", "row": "ignored"]).get() == "out/..x-3.mp4")
    }
}
