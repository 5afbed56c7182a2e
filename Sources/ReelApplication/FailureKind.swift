import AtomicFiles
import FileSafety
import Interchange
import MediaIO
import OverlayRendering
import ProjectFile
import RenderEngine

/// What kind of failure an error is: what a front end maps to its own status (the command
/// line to an exit status, a service to an HTTP status). The libraries' errors say what went
/// wrong; this says whose move it is.
public enum FailureKind: Sendable {
    /// Something went wrong while rendering (the message names the media file and time).
    case failure
    /// The request itself is malformed (an option, a field).
    case usage
    /// An invalid project, row, timeline, part or media file.
    case invalidInput
    case missingFile
    /// An output that may not be written (a file the work reads) or cannot be.
    case cannotWrite
    /// A remote media file cannot be fetched now; the same request may succeed later.
    case tryLater
    case cancelled

    /// The kind of a library error; `.failure` for one this layer does not know.
    public init(of error: any Error) {
        self = switch error {
        case let error as ProjectError:
            switch error.category {
            case .usage: .usage
            case .invalidProject: .invalidInput
            case .missingFile: .missingFile
            case .unavailable: .tryLater
            case .cannotWrite: .cannotWrite
            case .cancelled: .cancelled
            }
        case let error as RenderError:
            switch error {
            case .media, .output: .failure
            case .invalidSettings, .changedSinceChecked, .partUnusable: .invalidInput
            case .missingFile, .partMissing: .missingFile
            case .unwritable: .cannotWrite
            case .cancelled: .cancelled
            }
        case let error as MediaError:
            switch error.kind {
            case .fileNotFound, .notAFile: .missingFile
            case .writingFailed: .cannotWrite
            default: .invalidInput
            }
        case let error as InterchangeError:
            switch error.category {
            case .invalidInput: .invalidInput
            case .missingFile: .missingFile
            case .usage: .usage
            }
        case let error as DiffSideError: FailureKind(of: error.underlying)
        case let error as GitRevisionError: error.missing ? .missingFile : .failure
        case is OutputRefusal, is FileWriteError: .cannotWrite
        case is RenderRequestError, is MediaRootError: .usage
        case is OverlayError: .invalidInput
        default: .failure
        }
    }
}
