import CompositionGraph
import FilePaths
import Foundation
import RegularFiles
import MediaTime

/// `reel import`: an EDL or OpenTimelineIO file → a Reel project text a person would have
/// written (named media, clips with from/to in timecode, transitions, gaps, markers), with
/// every warning. Source times become media times through each file's start timecode.
public enum ProjectImport {
    public struct Result: Sendable {
        /// The project file's text (YAML, or JSON).
        public var text: String
        public var warnings: [ImportWarning]
        public var timeline: InterchangeTimeline
        public var media: [ResolvedMedia]
    }

    /// The largest EDL read (an EDL of `EDLParser.maxEvents` events is far smaller).
    static let maxEDLBytes = 16 << 20

    /// Reads `path` (`.edl` or `.otio`); `rate` is the EDL's frame rate (24 if nil; OTIO files carry theirs).
    public static func read(path: String, rate: Rational?) throws(InterchangeError) -> (InterchangeTimeline, [ImportWarning]) {
        switch RegularFile.problem(at: path) {
        case .missing?: throw InterchangeError("no such file: \(path)", hint: "check the path", category: .missingFile)
        case let problem?: throw InterchangeError("cannot read \(path): \(problem)", hint: "name the EDL or OTIO file itself", category: .missingFile)
        case nil: break
        }
        switch (path as NSString).pathExtension.lowercased() {
        case "edl":
            guard let handle = FileHandle(forReadingAtPath: path) else {
                throw InterchangeError("no such file: \(path)", hint: "check the path", category: .missingFile)
            }
            defer { try? handle.close() }
            let data = (try? handle.read(upToCount: maxEDLBytes + 1)) ?? Data()
            guard data.count <= maxEDLBytes else {
                throw InterchangeError("the EDL is larger than \(maxEDLBytes >> 20) MiB: more than a Reel project holds", at: .line(1, in: path))
            }
            guard let text = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .isoLatin1) else {
                throw InterchangeError("the EDL is not text", at: .line(1, in: path))
            }
            return try EDLReader.read(text: text, file: path, rate: rate)
        case "otio":
            if rate != nil { throw InterchangeError("a frame rate is for EDLs: an OpenTimelineIO file carries its rates", category: .usage, input: .frameRate) }
            return try OTIOReader.read(path: path)
        default:
            throw InterchangeError("'\(path)' is neither an EDL (.edl) nor an OpenTimelineIO file (.otio)", category: .usage)
        }
    }

    /// Imports `path` as the project at `projectPath` (whose extension picks YAML or JSON).
    public static func run(path: String, rate: Rational?, options: MediaOptions, facts: any MediaFactsProvider,
                           projectPath: String) throws(InterchangeError) -> Result {
        let (timeline, readWarnings) = try read(path: path, rate: rate)
        var writer = ProjectWriter(timeline: timeline, resolver: MediaResolver(options: options, facts: facts, rate: timeline.rate, dropFrame: timeline.dropFrame),
                                   projectDirectory: absolutePath((projectPath as NSString).deletingLastPathComponent))
        let root = try writer.document()
        try writer.resolver.checkAllOptionNamesUsed()
        let warnings = (readWarnings + writer.resolver.warnings + writer.warnings).enumerated()
            .sorted { ($0.element.place.line ?? 0, $0.offset) < ($1.element.place.line ?? 0, $1.offset) }.map(\.element)
        let kind = path.lowercased().hasSuffix(".edl") ? "CMX 3600 EDL at \(ProjectWriter.fpsText(timeline.rate)) fps" : "OpenTimelineIO"
        let text: String
        if projectPath.lowercased().hasSuffix(".json") {
            text = ProjectText.json(root)
        } else {
            let header = ["Imported by reel import from \(fileName(path)) (\(kind)).", timeline.name.map { "Title: \($0)" }].compactMap { $0 }
                + warnings.map { "warning: \($0.place.shortDescription): \($0.message)" }
            text = ProjectText.yaml(root, header: header)
        }
        return Result(text: text, warnings: warnings, timeline: timeline, media: writer.resolver.order.compactMap { writer.resolver.resolved[$0] })
    }
}

extension Place {
    /// Without the file: `line 12`, `tracks.children[0]`.
    var shortDescription: String { line.map { "line \($0)" } ?? path ?? "" }
}
