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

/// Runs `body` and returns the CPU time it took on this thread, in seconds: unlike wall
/// time, it does not grow when other tests run in parallel on the same cores.
func seconds(_ body: () throws -> Void) rethrows -> Double {
    func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
    let start = now()
    try body()
    return now() - start
}
