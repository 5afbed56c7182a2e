import Foundation

/// Compares `actual` with the snapshot file at `path`; with `REEL_RECORD=1` in the
/// environment (or when the file does not exist yet) writes it instead. Returns a
/// description of the difference, or nil when they match.
public func snapshotMismatch(_ actual: String, path: URL) -> String? {
    let record = ProcessInfo.processInfo.environment["REEL_RECORD"] == "1"
    if record || !FileManager.default.fileExists(atPath: path.path) {
        try? FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? actual.write(to: path, atomically: true, encoding: .utf8)
        return record ? nil : "snapshot \(path.lastPathComponent) was missing and has been recorded; check it in"
    }
    let expected = (try? String(contentsOf: path, encoding: .utf8)) ?? ""
    guard expected != actual else { return nil }
    let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
    for i in 0..<max(e.count, a.count) where (i < e.count ? e[i] : nil) != (i < a.count ? a[i] : nil) {
        return "\(path.lastPathComponent) differs at line \(i + 1):\n  expected: \(i < e.count ? String(e[i]) : "<end>")\n  actual:   \(i < a.count ? String(a[i]) : "<end>")\n(re-record with REEL_RECORD=1 if the change is intended)"
    }
    return "\(path.lastPathComponent) differs"
}

/// Every project file under `Examples/` (YAML and JSON), sorted.
public func exampleProjects() -> [URL] {
    let root = repositoryRoot.appendingPathComponent("Examples")
    let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
    return files.filter { ["yaml", "yml", "json"].contains($0.pathExtension) && !$0.path.contains("/media/") }
        .sorted { $0.path < $1.path }
}
