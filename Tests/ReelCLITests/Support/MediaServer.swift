import Foundation
import TestSupport

/// `media_server.py` on 127.0.0.1, serving the files of a folder (with paths that answer 404 or
/// 500, stall, trickle, redirect in a loop or to ftp:, serve a web page, want a password, or
/// send a truncated or compressed body; see the script), for as long as the value lives.
final class MediaServer {
    private let script: LoopbackScript
    var port: Int { script.port }

    init(serving folder: String) throws {
        script = try LoopbackScript("Tests/ReelCLITests/Support/media_server.py", arguments: [folder])
    }

    /// `http://127.0.0.1:PORT`.
    var base: String { "http://127.0.0.1:\(port)" }

    /// The requests so far, one line each: `GET PATH if-none-match=… if-modified-since=…`.
    var requests: [String] { script.lines }

    /// The requests for one path.
    func requests(for path: String) -> [String] { requests.filter { $0.hasPrefix("GET \(path) ") } }
}
