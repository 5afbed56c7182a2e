import Batch
import Foundation
import ProjectCompiler
import ProjectFile
import Testing
import TestSupport

/// `BatchPlan` refuses, before any render, a row whose output is a file the batch reads and rows
/// that write one file, however the paths are spelt (`cannotWrite`: exit status 73). Media are the fake
/// `FakeMediaFacts.anyFile` (nothing needs to exist); outputs are compared where they would land.
struct OutputSafetyPlanTests {
    /// The plan for `rows` (CSV) of `BatchPlanTests.project`, in a fresh folder with `out/` and
    /// `linked` → `out`, `top` → the folder itself; the project file is `dir/project.yaml`.
    func plan(_ rows: String, output: String) throws -> (BatchPlan, String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reel-batchsafety-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir + "/linked", withDestinationPath: dir + "/out")
        try FileManager.default.createSymbolicLink(atPath: dir + "/top", withDestinationPath: dir)
        try BatchPlanTests.project.write(toFile: dir + "/project.yaml", atomically: true, encoding: .utf8)
        try rows.write(toFile: dir + "/rows.csv", atomically: true, encoding: .utf8)
        try Data("earlier render".utf8).write(to: URL(fileURLWithPath: dir + "/out/a.mp4"))
        #expect(link(dir + "/out/a.mp4", dir + "/out/b.mp4") == 0)
        let document = try DocumentLoader.load(path: dir + "/project.yaml")
        let data = try BatchData.load(path: dir + "/rows.csv", input: "--data")
        let plan = BatchPlan.make(project: document, data: data,
                                  output: try OutputTemplate(dir + "/" + output), stamp: "test") { document, values, rendition throws(ProjectError) in
            try ProjectPipeline.load(document, overrides: values, rendition: rendition, media: FakeMediaFacts.anyFile, fonts: nil)
        }
        return (plan, dir)
    }

    func messages(_ plan: BatchPlan) -> [Int: String] {
        Dictionary(uniqueKeysWithValues: plan.rejected.map { ($0.row, $0.error.diagnostics.map(\.message).joined(separator: " | ")) })
    }

    @Test func anOutputThatIsAnInputOfAnyRowIsRefused() throws {
        let (plan, dir) = try plan("""
        folder,name,clip
        out,own.mp4,out/own.mp4
        out,theirs.mp4,
        out,fine.mp4,linked/theirs.mp4
        top,rows.csv,
        top,project.yaml,
        """, output: "{{ folder }}/{{ name }}")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let m = messages(plan)
        #expect(plan.jobs.map(\.row) == [3])
        #expect(m[1] == "row 1: will not write \(dir)/out/own.mp4: it is \(dir)/out/own.mp4, row 1's video 'clip'; "
                + "writing it would destroy what is being read. Choose another output file")
        #expect(m[2]?.hasPrefix("row 2: will not write \(dir)/out/theirs.mp4: it is another path to \(dir)/linked/theirs.mp4, row 3's video 'clip'") == true, "\(m[2] ?? "")")
        #expect(m[4]?.hasPrefix("row 4: will not write \(dir)/top/rows.csv: it is another path to \(dir)/rows.csv, the rows file (--data)") == true, "\(m[4] ?? "")")
        #expect(m[5]?.hasPrefix("row 5: will not write \(dir)/top/project.yaml: it is another path to \(dir)/project.yaml, the project file") == true, "\(m[5] ?? "")")
        #expect(plan.rejected.allSatisfy { $0.error.category == .cannotWrite })
    }

    @Test func rowsWritingOneFileThroughOtherPathsAreBothRefused() throws {
        // a and b are hard links of one earlier render; linked/c and out/c land in one place.
        let (plan, dir) = try plan("""
        folder,name
        out,a.mp4
        out,b.mp4
        linked,c.mp4
        out,c.mp4
        out,d.mp4
        """, output: "{{ folder }}/{{ name }}")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let m = messages(plan)
        #expect(plan.jobs.map(\.row) == [5])
        #expect(m[1] == "row 1: writes \(dir)/out/a.mp4, as row 2 (\(dir)/out/b.mp4) does")
        #expect(m[2] == "row 2: writes \(dir)/out/b.mp4, as row 1 (\(dir)/out/a.mp4) does")
        #expect(m[3] == "row 3: writes \(dir)/linked/c.mp4, as row 4 (\(dir)/out/c.mp4) does")
        #expect(m[4] == "row 4: writes \(dir)/out/c.mp4, as row 3 (\(dir)/linked/c.mp4) does")
        #expect(plan.rejected.allSatisfy { $0.error.category == .cannotWrite })
    }
}
