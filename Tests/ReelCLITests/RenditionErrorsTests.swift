import Foundation
@testable import reel
import TestSupport
import Testing

/// A project with renditions is opened once per rendition, but its problems are said once:
/// a mistake every rendition has reads as it would without renditions, counted once; one that
/// only some renditions have names them.
@Suite struct RenditionErrorsTests {
    func project(_ name: String, square: String) throws -> String {
        let dir = MediaFactory.directory.appendingPathComponent("rendition-errors")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent(name)
        try """
            reel: 1
            vars: { fit: { type: string, default: contain } }
            output: { size: [160, 90], fps: 25 }
            renditions:
              wide: {}
              square: \(square)
              tall: { size: [90, 160] }
            video:
              - clips:
                  - color: "#ff0000"
                    durration: 2s
                    fit: "{{ fit }}"
            """.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    func occurrences(_ text: String, in whole: String) -> Int { whole.components(separatedBy: text).count - 1 }

    @Test func aMistakeOfEveryRenditionIsSaidOnce() throws {
        let path = try project("every.yaml", square: "{ size: [90, 90] }")
        let report = try Validate.parse([path]).check()
        #expect(report.status == 65)
        #expect(occurrences("error: unknown key 'durration'", in: report.errors) == 1, "\(report.errors)")
        #expect(!report.errors.contains("(rendition"), "\(report.errors)")
        #expect(report.errors.hasSuffix("\n1 error"), "one mistake, one error: \(report.errors)")
        #expect(report.output.isEmpty)
        let render = try ReelCommand.run(["render", path, "-o", path + ".mp4"])
        #expect(render.status == 65)
        #expect(occurrences("error: unknown key 'durration'", in: render.standardError) == 1, "\(render.standardError)")
    }

    @Test func aMistakeOfSomeRenditionsNamesThem() throws {
        let path = try project("some.yaml", square: "{ size: [90, 90], vars: { fit: crop } }")
        let report = try Validate.parse([path]).check()
        #expect(report.status == 65)
        #expect(occurrences("unknown key 'durration'", in: report.errors) == 1, "\(report.errors)")
        let fit = report.errors.split(separator: "\n").filter { $0.contains("'crop'") || $0.contains("\"crop\"") }
        #expect(fit.count == 1 && fit[0].hasSuffix("(rendition square)"), "\(report.errors)")
        #expect(report.errors.hasSuffix("2 errors"), "\(report.errors)")
    }
}
