import Foundation

/// This run's folder in the system's temporary folder, removed at exit.
private let root: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("atomic-files-\(UUID().uuidString)")
    atexit { try? FileManager.default.removeItem(at: root) }
    return url
}()

/// A new folder of a test's own.
func newFolder() throws -> URL {
    let url = root.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// The names in `folder`, sorted.
func names(_ folder: URL) throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() }
