import CompositionGraph
import Foundation
import Interchange
import MediaTime
import ProjectCompiler
import ProjectFile
import TestSupport

/// The shared fixtures (../shared/testdata beside the clone), or nil when absent.
func fixtureFolder(_ name: String) -> URL? {
    let folder = repositoryRoot.appendingPathComponent("../shared/testdata/\(name)/tests/sample_data").standardizedFileURL
    return FileManager.default.fileExists(atPath: folder.path) ? folder : nil
}

/// A scratch folder removed at the end of the process's tests.
func scratchFolder() -> String {
    let path = MediaFactory.directory.appendingPathComponent("interchange-\(UUID().uuidString)").path
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// The project without comments.
func body(_ text: String) -> String {
    text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
        line.range(of: "  # ").map { String(line[..<$0.lowerBound]) } ?? String(line)
    }.joined(separator: "\n")
}

/// Imports `path` to `folder/name.yaml`, loads the project (schema, decoding, compiling) with
/// the placeholder facts an export uses, and returns both.
func importAndLoad(_ path: String, rate: Rational?, folder: String, name: String,
                   media: any MediaFactsProvider = FakeMediaFacts.noFiles) throws -> (ProjectImport.Result, ProjectPipeline.Loaded) {
    let project = folder + "/" + name + ".yaml"
    let result = try ProjectImport.run(path: path, rate: rate, options: MediaOptions(), facts: media, projectPath: project)
    try result.text.write(toFile: project, atomically: true, encoding: .utf8)
    let loaded = try ProjectPipeline.load(path: project, media: AbsentMediaFacts(base: media), fonts: nil)
    return (result, loaded)
}
