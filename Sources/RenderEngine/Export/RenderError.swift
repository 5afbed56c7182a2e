import MediaTime

/// Why a render stopped, with what the user needs to act on it.
public enum RenderError: Error, CustomStringConvertible, Equatable {
    /// A media file failed while rendering.
    case media(path: String, sourceTime: MediaTime, timelineTime: MediaTime, reason: String)
    /// The output could not be written.
    case output(path: String, reason: String)
    /// The graph asks for something this build or this file cannot do; found before rendering.
    case invalid(String)
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
        case .cancelled:
            return "render cancelled; no output written"
        }
    }
}
