import ProjectCompiler
import ProjectFile

/// What the renditions of one project say, each problem once. A project is opened once per
/// rendition, and most mistakes are the same in every one: a diagnostic every rendition gives
/// is said as it is; one only some give ends with the renditions it applies to
/// ("… (renditions square and tall)").
public enum RenditionFindings {
    /// The diagnostics of every rendition, each once, in source order.
    public static func merged(_ findings: [(rendition: String?, diagnostics: [Diagnostic])]) -> [Diagnostic] {
        var order: [Diagnostic] = []
        var renditions: [Diagnostic: [String]] = [:]
        for (rendition, diagnostics) in findings {
            for diagnostic in diagnostics {
                if renditions[diagnostic] == nil { order.append(diagnostic) }
                if let rendition, !renditions[diagnostic, default: []].contains(rendition) { renditions[diagnostic, default: []].append(rendition) }
            }
        }
        let all = findings.compactMap(\.rendition)
        return Diagnostic.sorted(order.map { diagnostic in
            let named = renditions[diagnostic] ?? []
            guard all.count > 1, named.count < all.count else { return diagnostic }
            var scoped = diagnostic
            scoped.message += " (\(scope(named)))"
            return scoped
        })
    }

    /// One error for every rendition's: each diagnostic once (`merged`), of the first failure's
    /// kind. `loaded` are the renditions that opened, whose warnings count too.
    public static func error(failures: [(rendition: String?, error: ProjectError)],
                             loaded: [(rendition: String?, project: ProjectPipeline.Loaded)]) -> ProjectError {
        let findings = failures.map { ($0.rendition, $0.error.diagnostics) } + loaded.map { ($0.rendition, $0.project.warnings) }
        var sources: [SourceText] = []
        for source in failures.flatMap(\.error.sources) + loaded.map(\.project.document.source)
        where !sources.contains(where: { $0.name == source.name }) {
            sources.append(source)
        }
        return ProjectError(failures[0].error.category, diagnostics: merged(findings), sources: sources)
    }

    /// The warnings of renditions that all opened, each once.
    public static func warnings(_ loaded: [(rendition: String?, project: ProjectPipeline.Loaded)]) -> String? {
        let warnings = merged(loaded.map { ($0.rendition, $0.project.warnings) })
        guard let first = loaded.first, !warnings.isEmpty else { return nil }
        return DiagnosticRenderer(sources: [first.project.document.source]).render(warnings)
    }

    /// "rendition tall", "renditions square and tall", "renditions a, b and c".
    static func scope(_ names: [String]) -> String {
        guard names.count > 1 else { return "rendition \(names[0])" }
        return "renditions " + names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
    }
}
