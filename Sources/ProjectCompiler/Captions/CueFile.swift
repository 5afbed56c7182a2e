import Foundation
import RegularFiles
import ProjectFile

/// A cue file of a caption track, read by its extension: `.srt` (SubRip), `.vtt` (WebVTT) or
/// `.json` (a speech recogniser's word list, see `WordListReader`).
enum CueFile {
    static let extensions = ["srt", "vtt", "json"]
    /// A recogniser's word list of a long talk is several megabytes.
    static let limits = LoadLimits(maxFileBytes: 16 << 20, maxNodes: 1_000_000)

    enum Failure: Error {
        case missing
        /// The problems, and the text they point into (for quoting the line).
        case invalid([Diagnostic], SourceText?)
    }

    /// The cues in time order. `name` is the path used in messages; `documentPath` the key of
    /// the project that names the file.
    static func read(path: String, name: String, documentPath: String) throws(Failure) -> (cues: [Cue], source: SourceText) {
        let kind = URL(fileURLWithPath: path).pathExtension.lowercased()
        func invalid(_ message: String, hint: String? = nil, source: SourceText? = nil) -> Failure {
            .invalid([Diagnostic(location: SourceLocation(file: name, line: 1, column: 1), path: documentPath, message: message, hint: hint)], source)
        }
        guard extensions.contains(kind) else {
            throw invalid("'\(name)' is not a cue file Reel reads", hint: "use a .srt, .vtt or .json (word list) file")
        }
        if case .notAFile(let kind)? = RegularFile.problem(at: path) { throw invalid("'\(name)' is \(kind), not a cue file", hint: "name the .srt, .vtt or .json file itself") }
        guard let data = FileManager.default.contents(atPath: path) else { throw .missing }
        guard data.count <= limits.maxFileBytes else { throw invalid("the cue file is larger than \(limits.maxFileBytes >> 20) MiB, the limit for cue files") }
        guard let text = String(validating: [UInt8](data), as: UTF8.self) else {
            throw invalid("the cue file is not UTF-8 text", hint: "convert it to UTF-8 (iconv -f LATIN1 -t UTF-8)")
        }
        let source = SourceText(name: name, text: text)
        var wordList: Node?
        if kind == "json" {
            do {
                wordList = try DocumentLoader.load(text: text, name: name, format: .json, limits: limits).root
            } catch {
                throw .invalid(error.diagnostics.map { var d = $0; d.path = documentPath; return d }, source)
            }
        }
        do throws(CueProblem) {
            let cues: [Cue]
            switch kind {
            case "srt": cues = try SubRipReader.read(NumberedLines(text: text, file: name))
            case "vtt": cues = try WebVTTReader.read(NumberedLines(text: text, file: name))
            default: cues = try wordList.map(WordListReader.read) ?? []
            }
            return (cues.sorted { $0.start < $1.start }, source)
        } catch {
            throw .invalid([Diagnostic(location: error.location, path: documentPath, message: error.message, hint: error.hint)], source)
        }
    }
}
