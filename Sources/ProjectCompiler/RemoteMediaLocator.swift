import Foundation

/// Turns the URL of a remote media file into a local copy (the command line's cache), so that
/// everything after the compiler (probing, content keys, rendering) reads a local file.
public protocol RemoteMediaLocator: Sendable {
    /// The local file that holds the media at `url` (an `http://` or `https://` URL).
    func localCopy(of url: String) throws(RemoteMediaFailure) -> String
}

/// Why a remote media file has no local copy.
public struct RemoteMediaFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The server says there is no such file (HTTP 404, 410), or offline with no cached copy.
        case notFound
        /// It could not be fetched now: a server error, a timeout, a refused or cut connection.
        case unavailable
        /// The URL does not give a media file Reel takes, and asking again will not change
        /// that: a redirect loop or one to another scheme, a web page, a file over the size limit.
        case unusable
        /// The fetch was stopped (Ctrl-C, SIGTERM).
        case cancelled
    }

    public var kind: Kind
    /// What went wrong, naming the URL and the HTTP status or the timeout.
    public var message: String
    public var hint: String?

    public init(_ kind: Kind, _ message: String, hint: String? = nil) {
        self.kind = kind
        self.message = message
        self.hint = hint
    }

    public var description: String { message }
}

/// Which `media:` values are URLs: text that starts with a scheme and `://`.
public enum RemoteMediaAddress {
    /// The schemes Reel fetches.
    public static let fetchedSchemes: Set<String> = ["http", "https"]

    /// The scheme of `text` (lowercased) when it is written as a URL, else nil (a file path).
    public static func scheme(of text: String) -> String? {
        guard let colon = text.range(of: "://") else { return nil }
        let scheme = text[..<colon.lowerBound]
        guard let first = scheme.first, first.isASCII, first.isLetter,
              scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else { return nil }
        return scheme.lowercased()
    }

    /// True for the `http://` and `https://` URLs Reel fetches.
    public static func isRemote(_ text: String) -> Bool { scheme(of: text).map(fetchedSchemes.contains) ?? false }

    /// What is wrong with a URL before anything is fetched, or nil.
    static func problem(_ text: String) -> (message: String, hint: String)? {
        guard let scheme = scheme(of: text) else { return nil }
        guard fetchedSchemes.contains(scheme) else {
            return ("'\(scheme)://' media cannot be read: Reel fetches only http:// and https:// URLs",
                    "download the file and name its path, or serve it over HTTP(S)")
        }
        guard let url = URL(string: text), let host = url.host, !host.isEmpty else {
            return ("'\(text)' is not a valid URL", "write it as https://host/path/file.mp4, with spaces and other special characters percent-encoded")
        }
        return nil
    }
}
