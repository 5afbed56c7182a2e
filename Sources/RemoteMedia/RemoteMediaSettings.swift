import NetworkPolicy
import ProjectFile
import Foundation

/// Where the media cache is and how fetching behaves.
public struct RemoteMediaSettings: Sendable {
    /// The cache folder (safe to delete: it is filled again on the next run that is online).
    public var folder: String
    /// Use only the cache; never reach the network.
    public var offline: Bool
    /// How messages name the switch that turns `offline` on (a front end's option), as in
    /// "offline mode forbids fetching it".
    public var offlineSwitch = "offline mode"
    /// Seconds without data before an attempt fails; also the span the minimum rate is
    /// measured over.
    public var idleTimeout: Double
    /// Bytes a second: an attempt that brings fewer over `idleTimeout` seconds fails (0: none).
    public var minimumRate: Int64 = 1 << 10
    /// Seconds one URL's fetch may take, its attempts and the waits between them included.
    public var deadline: Double = 3600
    /// Attempts for a server error (5xx, 408, 429), a timeout, a cut or refused connection.
    public var attempts = 3
    /// Seconds before the second attempt; each later wait doubles.
    public var firstBackoff = 0.5
    /// The least recently used files are evicted beyond this many bytes.
    public var maxBytes: Int64
    /// The largest file fetched (a bigger one is refused at its headers, or once it passes).
    public var maxDownloadBytes: Int64 = 1 << 30
    /// The addresses downloads may connect to (a service's media stay off loopback, private and
    /// link-local addresses); nil: any.
    public var addressPolicy: AddressPolicy?

    public init(folder: String, offline: Bool, idleTimeout: Double = 30, maxBytes: Int64 = 2 << 30) {
        self.folder = folder
        self.offline = offline
        self.idleTimeout = idleTimeout
        self.maxBytes = maxBytes
    }

    /// From the environment: `REEL_MEDIA_CACHE_DIR` (else `$XDG_CACHE_HOME/reel/media`, else
    /// `~/.cache/reel/media`), `REEL_OFFLINE=1`, `REEL_FETCH_TIMEOUT` (seconds, 30 by default),
    /// `REEL_MEDIA_CACHE_MAX` (bytes, with an optional K, M or G; 2G by default),
    /// `REEL_FETCH_MAX` (the largest file fetched, the same way; 1G by default),
    /// `REEL_FETCH_MIN_RATE` (bytes a second, the same way; 1K by default, 0 for none),
    /// `REEL_FETCH_DEADLINE` (seconds; 3600 by default). Throws a message for a malformed value.
    public static func fromEnvironment(_ environment: [String: String], offline: Bool) throws(SettingsError) -> RemoteMediaSettings {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let folder = value("REEL_MEDIA_CACHE_DIR") ?? URL(fileURLWithPath: value("XDG_CACHE_HOME")
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache").path).appendingPathComponent("reel/media").path
        var settings = RemoteMediaSettings(folder: folder, offline: offline || value("REEL_OFFLINE").map { $0 != "0" } ?? false)
        /// The variable `name` read by `parse`; nil when unset, a `SettingsError` saying `rule` when malformed.
        func setting<T>(_ name: String, _ rule: String, _ parse: (String) -> T?) throws(SettingsError) -> T? {
            guard let text = value(name) else { return nil }
            guard let parsed = parse(text) else { throw SettingsError("\(name) must be \(rule), not '\(text)'") }
            return parsed
        }
        func seconds(upTo limit: Double) -> (String) -> Double? { { Double($0).flatMap { $0 > 0 && $0 <= limit ? $0 : nil } } }
        if let v = try setting("REEL_FETCH_TIMEOUT", "a number of seconds from 0 to 3600", seconds(upTo: 3600)) { settings.idleTimeout = v }
        if let v = try setting("REEL_MEDIA_CACHE_MAX", "a number of bytes like 500M or 2G", byteCount) { settings.maxBytes = v }
        if let v = try setting("REEL_FETCH_MAX", "a number of bytes like 500M or 2G", { byteCount($0).flatMap { $0 > 0 ? $0 : nil } }) {
            settings.maxDownloadBytes = v
        }
        if let v = try setting("REEL_FETCH_MIN_RATE", "a number of bytes a second like 1K or 100K (0 for none)", byteCount) { settings.minimumRate = v }
        if let v = try setting("REEL_FETCH_DEADLINE", "a number of seconds from 0 to 86400", seconds(upTo: 86400)) { settings.deadline = v }
        return settings
    }

    /// `1048576`, `500K`, `500M`, `2G`.
    static func byteCount(_ text: String) -> Int64? { ByteCount.parse(text) }
}

/// A malformed setting in the environment.
public struct SettingsError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
