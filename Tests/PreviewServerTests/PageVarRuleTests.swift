import Foundation
@testable import PreviewServer
import ProjectFile
import TestSupport
import Testing

/// What a var's value set on the page may name (the project's folder; URLs of its default's site).
struct PageVarRuleTests {
    let folder = MediaFactory.directory.appendingPathComponent("page-vars-\(UUID().uuidString)").path

    func declaration(_ name: String) throws -> VarDeclaration {
        let document = try DocumentLoader.load(text: """
        vars:
          picture: { type: path, default: media/a.png }
          remote: { type: path, default: "https://media.example/a.mp4" }
          title: Hello
          size: { type: number, default: 3 }
        """, name: "project.yaml")
        return try #require(VarsSubstitution(document: document.root).declaration(name))
    }

    @Test func filesInTheFolderOnly() throws {
        try FileManager.default.createDirectory(atPath: folder + "/media", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder + "/media/etc", withDestinationPath: "/etc")
        let picture = try declaration("picture")
        for allowed in ["media/b.png", "./b.png", "media/../b.png", "new/folder/b.png", folder + "/b.png", "media/a.png"] {
            #expect(PageVarRule.problem(allowed, declaration: picture, folder: folder) == nil, "\(allowed)")
        }
        for refused in ["/etc/passwd", "../b.png", "media/../../b.png", "media/etc/passwd", "nope/../../b.png"] {
            #expect(PageVarRule.problem(refused, declaration: picture, folder: folder)?.contains("outside the project's folder") == true, "\(refused)")
        }
        // Untyped and string vars may name files too; numbers, colours, times, booleans cannot.
        #expect(PageVarRule.problem("/etc/passwd", declaration: try declaration("title"), folder: folder) != nil)
        #expect(PageVarRule.problem("/etc/passwd", declaration: try declaration("size"), folder: folder) == nil)
    }

    @Test func urlsOfTheSiteOfTheDefaultOnly() throws {
        let remote = try declaration("remote")
        for allowed in ["https://media.example/b.mp4", "HTTPS://MEDIA.EXAMPLE:443/c/d.mp4"] {
            #expect(PageVarRule.problem(allowed, declaration: remote, folder: folder) == nil, "\(allowed)")
        }
        for refused in ["http://media.example/b.mp4", "https://media.example:8443/b.mp4", "https://127.0.0.1/b.mp4", "ftp://media.example/b"] {
            #expect(PageVarRule.problem(refused, declaration: remote, folder: folder)?.contains("(https://media.example:443)") == true, "\(refused)")
        }
        #expect(PageVarRule.problem("http://127.0.0.1/x.mp4", declaration: try declaration("picture"), folder: folder)?.contains("which is not a URL") == true)
    }
}
