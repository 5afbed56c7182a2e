import MediaTime

/// Why a render stopped, with what the user needs to act on it.
public enum RenderError: Error, CustomStringConvertible, Equatable {
    /// A media file failed while rendering.
    case media(path: String, sourceTime: MediaTime, timelineTime: MediaTime, reason: String)
    /// The output could not be written.
    case output(path: String, reason: String)
    /// The graph asks for something this build or this file cannot do; found before rendering.
    case invalid(String)
    /// A media file the graph names does not exist.
    case missingFile(String, name: String)
    /// Stopped by a signal or `cancel()`.
    case cancelled

    public var description: String {
        switch self {
        case .media(let path, let source, let timeline, let reason):
            return "error: \(path) at \(TimeNotation.clock(source)) (timeline \(TimeNotation.clock(timeline))): \(reason)"
        case .output(let path, let reason):
            return "error: cannot write \(path): \(reason)"
        case .invalid(let message):
            return "error: \(message)"
        case .missingFile(let path, let name):
            return "error: media '\(name)' is missing: no file at \(path); check the path in the project's media list"
        case .cancelled:
            return "render cancelled; no output written"
        }
    }

    /// The process exit status for this error (the foundation's codes, 1 for a failure
    /// while rendering, 130 for a cancel).
    public var exitCode: Int32 {
        switch self {
        case .media, .output: 1
        case .invalid: 65
        case .missingFile: 66
        case .cancelled: 130
        }
    }
}
