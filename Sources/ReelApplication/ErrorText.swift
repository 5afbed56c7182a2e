import Foundation
import Interchange
import ProjectCompiler
import ProjectFile
import RenderEngine

/// What a person reads of an error, the same in a terminal and on the preview page: a
/// project error's diagnostics (each with its line and caret) and their tally, else the
/// error's own description after `error:`.
public enum ErrorText {
    public static func message(for error: any Error) -> String {
        switch error {
        case let error as ProjectError:
            error.description + (error.diagnostics.count > 1 ? "\n" + DiagnosticRenderer.tally(error.diagnostics) : "")
        case let error as RenderError:
            error.description
        case let error as InterchangeError:
            error.description
        case let error as DiffSideError:
            error.description
        default:
            "error: \(error)"
        }
    }

    /// A loaded project's warnings as `reel validate` prints them.
    public static func warnings(_ loaded: ProjectPipeline.Loaded) -> String {
        DiagnosticRenderer(sources: [loaded.document.source]).render(loaded.warnings)
    }

    /// The warnings as errors, for a front end whose user asked warnings to fail the work
    /// (as CI does); each hint ends with `why` (what made them errors). Nil without warnings.
    public static func warningsAsErrors(_ loaded: ProjectPipeline.Loaded, why: String) -> ProjectError? {
        guard !loaded.warnings.isEmpty else { return nil }
        return ProjectError(.invalidProject, diagnostics: loaded.warnings.map {
            var error = $0
            error.severity = .error
            error.hint = [$0.hint, why].compactMap { $0 }.joined(separator: "; ")
            return error
        }, sources: [loaded.document.source])
    }
}
