import Digest
import Foundation
import ProjectFile

/// Credentials in a media URL (`https://user:secret@host/clip.mp4`) are sent to the server,
/// never shown or stored: messages and progress lines show `https://***@host/clip.mp4`, and
/// the cache's index keys such a URL by its redacted form and a digest of the whole URL (two
/// credentials may be given different files).
enum RemoteURL {
    /// `url` with its user and password (if any) replaced by `***`.
    static func redacted(_ url: String) -> String { URLCredentials.redacted(url) }

    /// The key of `url` in the cache's index: the URL itself when it has no credentials.
    static func indexKey(_ url: String) -> String {
        let shown = redacted(url)
        guard shown != url else { return url }
        var digest = SHA256()
        digest.update(url)
        return shown + " (credentials " + digest.hexDigest().prefix(16) + ")"
    }
}
