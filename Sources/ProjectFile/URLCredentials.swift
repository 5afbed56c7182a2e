import Foundation

/// Credentials written in a URL (`https://user:secret@host/clip.mp4`) are for its server
/// alone: what Reel prints or stores shows `https://***@host/clip.mp4`.
public enum URLCredentials {
    /// A scheme only where a run of scheme characters starts, so a long text is read in one
    /// pass (a project's line may be 600 KB).
    private static let userinfo = try! NSRegularExpression(pattern: "(?<![A-Za-z0-9+.-])([A-Za-z][A-Za-z0-9+.-]*://)[^/?#\\s]*@")

    /// `text` with the user and password of every URL in it replaced by `***`.
    public static func redacted(_ text: String) -> String {
        guard text.contains("@") else { return text }
        return userinfo.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "$1***@")
    }
}
