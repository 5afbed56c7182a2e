/// Reel's version, the one every front end and the render engine read: `reel --version`, the
/// webhooks' `User-Agent`, and part of every segment's key (a new version renders again).
public enum ReelVersion {
    public static let current = "0.3.0"
}
