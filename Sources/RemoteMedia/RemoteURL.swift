import Digest
import Foundation

/// Credentials in a media URL (`https://user:secret@host/clip.mp4`) are sent to the server,
/// never shown or stored: messages and progress lines show `https://***@host/clip.mp4`, and
/// the cache's index keys such a URL by its redacted form and a digest of the whole URL (two
/// credentials may be given different files).
enum RemoteURL {
    private static let userinfo = try! NSRegularExpression(pattern: "([A-Za-z][A-Za-z0-9+.-]*://)[^/?#\\s]*@")

    /// `url` with its user and password (if any) replaced by `***`.
    static func redacted(_ url: String) -> String { redactedText(url) }

    /// `text` with the credentials of every URL in it replaced by `***`.
    static func redactedText(_ text: String) -> String {
        userinfo.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "$1***@")
    }

    /// The key of `url` in the cache's index: the URL itself when it has no credentials.
    static func indexKey(_ url: String) -> String {
        let shown = redacted(url)
        guard shown != url else { return url }
        var digest = SHA256()
        digest.update(url)
        return shown + " (credentials " + digest.hexDigest().prefix(16) + ")"
    }
}
