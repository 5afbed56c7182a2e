import Foundation
import ProjectFile
import Testing

/// A fresh temporary directory for one test.
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("reel-projectfile-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Loads text as a document, returning the error's diagnostics when it fails.
func loadFailure(_ text: String, format: Document.Format? = nil) -> ProjectError? {
    do {
        _ = try DocumentLoader.load(text: text, name: "test", format: format)
        return nil
    } catch {
        return error
    }
}

