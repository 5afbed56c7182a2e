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

func yaml(_ text: String) throws -> Node { try DocumentLoader.load(text: text, name: "test.yaml", format: .yaml).root }
func json(_ text: String) throws -> Node { try DocumentLoader.load(text: text, name: "test.json", format: .json).root }

/// Runs `body` and returns how long it took, in seconds.
func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}
