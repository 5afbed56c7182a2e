import Foundation

/// Where rendered segments are kept between renders when the front end names no folder.
public enum SegmentCache {
    /// `$REEL_CACHE_DIR`, else `$XDG_CACHE_HOME/reel/parts`, else `~/.cache/reel/parts`.
    public static func folder(environment: [String: String]) -> String {
        if let dir = environment["REEL_CACHE_DIR"], !dir.isEmpty { return dir }
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache").path
        return URL(fileURLWithPath: base).appendingPathComponent("reel/parts").path
    }
}
