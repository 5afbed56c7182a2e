import JSONSchema
import ProjectFile

/// `out/{{ id }}.mp4`: a file name made from a row's values. `{{ name }}` takes
/// the value of a var (or of a data column that is not a var), `{{ row }}` the 1-based row
/// number; filters apply as in the project (`{{ name | slug }}`). A value that would leave its folder (holding `/`, or being `.` or `..`) is refused.
public struct OutputTemplate: Sendable {
    public let text: String
    /// How messages name the template: the input it came from as the caller's user knows it
    /// (a command-line option, a request field), else "the output template".
    public let input: String
    private let references: [VarsSubstitution.Reference]

    public init(_ text: String, input: String = "the output template") throws(ProjectError) {
        references = VarsSubstitution.references(in: text)
        if let bad = references.first(where: { $0.name == nil }) {
            throw ProjectError(.usage, Diagnostic(location: .commandLine(input), path: "",
                message: "'\(bad.text)' in \(input) is not a var reference", hint: "write {{ name }} or {{ row }}"))
        }
        if let bad = references.first(where: { $0.filterProblem != nil }), let problem = bad.filterProblem {
            throw ProjectError(.usage, Diagnostic(location: .commandLine(input), path: "",
                message: "\(bad.text) in \(input): \(problem.message)", hint: problem.hint))
        }
        self.text = text
        self.input = input
    }

    /// Where a problem with the template itself is reported: the input it came from.
    public var location: SourceLocation { .commandLine(input) }

    /// Names the template uses (`row` included).
    public var names: Set<String> { Set(references.compactMap(\.name)) }

    /// The first name the template uses that is none of `known` (the project's vars, the data's
    /// columns, `rendition` when it has renditions) nor `row`: checked once for the whole
    /// batch, with the name it was likely meant to be.
    public func unknownName(known: Set<String>) -> TemplateProblem? {
        let candidates = known.union(["row"])
        guard let name = references.compactMap(\.name).first(where: { !candidates.contains($0) }) else { return nil }
        return TemplateProblem(message: "\(input) \(text) uses {{ \(name) }}, which is neither a var of the project nor a column of the data",
                               hint: Suggestion.didYouMean(name, among: candidates.sorted())
                                   ?? "known names: " + candidates.sorted().joined(separator: ", "))
    }

    /// The path for row `row` with these values (text of each value by name); or the
    /// problem, as a message.
    public func path(row: Int, values: [String: String]) -> Result<String, TemplateProblem> {
        var result = ""
        var written = ""
        var cursor = text.startIndex
        for reference in references {
            result += text[cursor..<reference.range.lowerBound]
            written += text[cursor..<reference.range.lowerBound] + "\u{1}"
            cursor = reference.range.upperBound
            let name = reference.name ?? ""
            let value: String
            if name == "row" {
                value = String(row)
            } else if var given = values[name] {
                for filter in reference.filters {
                    switch filter.apply(to: given, locale: nil) {
                    case .success(let text): given = text
                    case .failure(let problem): return .failure(TemplateProblem(message: "\(reference.text) in \(input): \(problem.message)", hint: problem.hint))
                    }
                }
                if let problem = VarPathRule.problem(inside: given) {
                    return .failure(TemplateProblem(message: "the value of '\(name)' ('\(given.debugDescription.dropFirst().dropLast())') \(problem), so it cannot be part of a file name in \(input) \(text)",
                                                    hint: "a value used in \(input) may not hold '/' or control characters, or be or make '.' or '..'"))
                }
                value = given
            } else {
                return .failure(TemplateProblem(message: "\(input) \(text) uses {{ \(name) }}, which is neither a var of the project nor a column of the data",
                                                hint: "known names: " + (values.keys.sorted() + ["row"]).joined(separator: ", ")))
            }
            result += value
        }
        result += text[cursor...]
        written += text[cursor...]
        if let component = VarPathRule.madeComponent(result: result, template: written) {
            return .failure(TemplateProblem(message: "the values in \(input) \(text) make a '\(component)' component: \(result)",
                                            hint: "a value used in \(input) may not hold '/' or control characters, or be or make '.' or '..'"))
        }
        guard !result.isEmpty else { return .failure(TemplateProblem(message: "\(input) gives an empty file name", hint: nil)) }
        return .success(result)
    }

    public struct TemplateProblem: Error, Sendable {
        public var message: String
        public var hint: String?
    }
}
