import MediaTime

/// Why a render stopped, with what the user needs to act on it. What each case means for
/// the process (its exit status) is the command line's business.
public enum RenderError: Error, CustomStringConvertible, Equatable {
    /// A media file failed while rendering.
    case media(path: String, sourceTime: MediaTime, timelineTime: MediaTime, reason: String)
    /// The output could not be written.
    case output(path: String, reason: String)
    /// The output cannot be created, found before any frame: no such folder, no permission,
    /// another process writing it now.
    case unwritable(path: String, reason: String)
    /// The graph or the output settings ask for something this build or these files cannot
    /// do; found before rendering.
    case invalidSettings(String)
    /// A media file the graph names does not exist.
    case missingFile(String, name: String)
    /// A media file is no longer the file the project was checked against.
    case changedSinceChecked(String, name: String)
    /// Stopped by `cancel()`.
    case cancelled
    /// A segment has no part to join (the place names the segment).
    case partMissing(String, path: String)
    /// A segment's part cannot be joined: truncated, damaged, or made for other content.
    case partUnusable(String, path: String, reason: String)

    public var description: String {
        switch self {
        case .media(let path, let source, let timeline, let reason):
            return "error: \(path) at \(TimeNotation.clock(source)) (timeline \(TimeNotation.clock(timeline))): \(reason)"
        case .output(let path, let reason), .unwritable(let path, let reason):
            return "error: cannot write \(path): \(reason)"
        case .invalidSettings(let message):
            return "error: \(message)"
        case .missingFile(let path, let name):
            return "error: media '\(name)' is missing: no file at \(path); check the path in the project's media list"
        case .changedSinceChecked(let path, let name):
            return "error: media '\(name)' (\(path)) changed after the project was checked (its size or modification time differs); "
                + "run the command again so it is checked as it is now"
        case .cancelled:
            return "render cancelled; no output written"
        case .partMissing(let place, let path):
            return "error: \(place) has no rendered part (\(path)); render that segment into the parts folder first"
        case .partUnusable(let place, let path, let reason):
            return "error: the part of \(place) cannot be joined: \(reason) (\(path)); delete it and render that segment again"
        }
    }
}
