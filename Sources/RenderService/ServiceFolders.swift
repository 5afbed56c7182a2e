import Foundation
import MediaFormat

/// The service's folder (`--data DIR`): the database, the outputs, the segment cache, and the
/// media root when none is given.
struct ServiceFolders: Sendable {
    let root: String
    /// The folders posted projects may read: those given, else `DIR/media`.
    let mediaRoots: [String]

    init(root: String, mediaRoots: [String]) throws {
        let url = URL(fileURLWithPath: root).standardizedFileURL
        self.root = url.path
        self.mediaRoots = mediaRoots.isEmpty ? [url.appendingPathComponent("media").path] : mediaRoots
        // Given media roots must be there already (a typo is an error, not a new empty folder).
        for folder in [self.root, outputs, cache] + (mediaRoots.isEmpty ? self.mediaRoots : []) {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
    }

    var database: String { root + "/reel.sqlite" }
    var outputs: String { root + "/outputs" }
    var cache: String { root + "/cache" }

    func output(of id: String, container: Container) -> String { "\(outputs)/\(id).\(container.rawValue)" }
}
