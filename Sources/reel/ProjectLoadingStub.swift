// TEMPORARY: the lead replaces this file with Sources/reel/ProjectLoading.swift (the real
// project → graph step) and deletes it. Until then `reel render` reads a composition graph
// saved as JSON (the graph types are Codable), which is enough to exercise the renderer.
import ArgumentParser
import CompositionGraph
import Foundation

func loadGraph(projectPath: String, sets: [String: String]) throws -> CompositionGraph {
    guard sets.isEmpty else {
        throw ValidationError("--set needs the project compiler, which this build does not have yet")
    }
    guard let data = FileManager.default.contents(atPath: projectPath) else {
        FileHandle.standardError.write(Data("error: no file at \(projectPath)\n".utf8))
        throw ExitCode(66)
    }
    do {
        return try JSONDecoder().decode(CompositionGraph.self, from: data)
    } catch {
        FileHandle.standardError.write(Data("error: \(projectPath) is not a composition graph in JSON: \(error)\n".utf8))
        throw ExitCode(65)
    }
}
