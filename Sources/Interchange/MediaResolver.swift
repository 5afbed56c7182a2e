import CompositionGraph
import FilePaths
import Foundation
import MediaTime

/// How `reel import` finds the files behind the names an EDL or OpenTimelineIO file uses.
public struct MediaOptions: Sendable {
    /// `--media-dir`: files matched by clip name, reel name or source file name (with or without extension).
    public var directory: String?
    /// `--media NAME=PATH`: NAME is a clip, reel or file name the timeline uses.
    public var explicit: [(name: String, path: String)]
    /// `--media-start NAME=TC`: the start timecode of a file that has none.
    public var starts: [(name: String, timecode: String)]

    public init(directory: String? = nil, explicit: [(name: String, path: String)] = [], starts: [(name: String, timecode: String)] = []) {
        self.directory = directory
        self.explicit = explicit
        self.starts = starts
    }
}

/// A source of the timeline as a media entry of the project.
public struct ResolvedMedia: Sendable {
    /// The entry's name in `media:`.
    public var name: String
    /// Absolute, or as the timeline gave it when no file was found.
    public var path: String
    public var found: Bool
    /// The media time of the source's timecode 0: its start timecode (`--media-start`, the
    /// file's own, else 00:00:00:00) as a time.
    public var start: MediaTime
    /// Where the start came from, for the project's comments.
    public var startOrigin: String?
    public var facts: MediaFacts?
}

/// Matches each source to a file and learns its start timecode (through `MediaFactsProvider`,
/// so the module needs no FFmpeg). Every name left without a file is a warning at its first use.
struct MediaResolver {
    let options: MediaOptions
    let facts: any MediaFactsProvider
    let rate: Rational
    let dropFrame: Bool
    private(set) var warnings: [ImportWarning] = []
    private(set) var resolved: [String: ResolvedMedia] = [:]
    private(set) var order: [String] = []
    private var takenNames: Set<String> = []
    /// The `--media` and `--media-start` names some source of the timeline answered to.
    private(set) var usedNames: Set<String> = []
    /// Every name a source of the timeline answers to, in order of first use.
    private(set) var sourceNames: [String] = []
    private let directoryFiles: [String]

    init(options: MediaOptions, facts: any MediaFactsProvider, rate: Rational, dropFrame: Bool) {
        self.options = options
        self.facts = facts
        self.rate = rate
        self.dropFrame = dropFrame
        directoryFiles = options.directory.flatMap { try? FileManager.default.contentsOfDirectory(atPath: $0) }?.sorted() ?? []
    }

    /// The entry for `source`, made at its first use (`place`).
    mutating func media(for source: SourceMedia, at place: Place) throws(InterchangeError) -> ResolvedMedia {
        if let known = resolved[source.key] { return known }
        for name in source.names where !sourceNames.contains(name) { sourceNames.append(name) }
        var found: String?
        var name: String?
        if let pair = options.explicit.first(where: { p in source.names.contains(p.name) || p.name == source.key }) {
            found = absolutePath(pair.path)
            name = pair.name
            usedNames.insert(pair.name)
            guard FileManager.default.fileExists(atPath: found!) else {
                throw InterchangeError("the file given for media '\(pair.name)' does not exist: \(pair.path)", hint: "check the path",
                                      category: .missingFile, input: .media(pair.name))
            }
        } else if let path = source.path, path.hasPrefix("/"), FileManager.default.fileExists(atPath: path) {
            found = path
        } else if let directory = options.directory, let match = match(source.names) {
            found = (absolutePath(directory) as NSString).appendingPathComponent(match)
        }
        // Several names (clip names of one reel) may lead to one file: one entry.
        for key in order where found != nil {
            if let same = resolved[key], same.found, same.path == found {
                resolved[source.key] = same
                return same
            }
        }
        let path = found ?? source.path.map { p in options.directory.map { ($0 as NSString).appendingPathComponent(fileName(p)) } ?? p }
            ?? (options.directory.map { ($0 as NSString).appendingPathComponent(source.names.first ?? source.key) } ?? (source.names.first ?? source.key))
        if found == nil {
            warnings.append(ImportWarning("no file found for '\(source.names.first ?? source.key)': written as \(path), starting at 00:00:00:00", at: place,
                                          remedy: [.media(source.names.first ?? source.key), .mediaFolder]))
        }
        let entry = uniqueName(name ?? Self.entryName(fromPath: path))
        var media = ResolvedMedia(name: entry, path: path, found: found != nil, start: .zero, startOrigin: nil, facts: nil)
        if let found {
            do { media.facts = try facts.facts(forFileAt: found) } catch {
                throw InterchangeError("media file \(found) cannot be read: \(error)", at: place, category: .invalidInput)
            }
        }
        try learnStart(&media, names: source.names + [entry], at: place)
        resolved[source.key] = media
        order.append(source.key)
        return media
    }

    /// A media file or start timecode given for a name that no source of the timeline answers to
    /// is a mistake (a typo would otherwise leave a clip without its file or its start, silently).
    func checkAllOptionNamesUsed() throws(InterchangeError) {
        for input in options.explicit.map({ InterchangeInput.media($0.name) }) + options.starts.map({ .mediaStart($0.name) }) {
            let name: String
            switch input {
            case .media(let given), .mediaStart(let given): name = given
            default: continue
            }
            if !usedNames.contains(name) { throw unused(input, name) }
        }
    }

    private func unused(_ input: InterchangeInput, _ name: String) -> InterchangeError {
        let known = sourceNames.isEmpty ? "none" : sourceNames.prefix(20).joined(separator: ", ") + (sourceNames.count > 20 ? ", …" : "")
        return InterchangeError("\(input) is given, but the timeline has no clip, reel or file called '\(name)'",
                                hint: "the names it uses: \(known)", category: .usage, input: input)
    }

    /// A file of `--media-dir` named like one of `names`, with or without extension.
    private func match(_ names: [String]) -> String? {
        for name in names {
            if let exact = directoryFiles.first(where: { $0 == name }) { return exact }
            let stem = (name as NSString).deletingPathExtension
            if let same = directoryFiles.first(where: { ($0 as NSString).deletingPathExtension == name || ($0 as NSString).deletingPathExtension == stem }) {
                return same
            }
        }
        return nil
    }

    private mutating func learnStart(_ media: inout ResolvedMedia, names: [String], at place: Place) throws(InterchangeError) {
        if let given = options.starts.first(where: { names.contains($0.name) }) {
            usedNames.insert(given.name)
            do {
                media.start = Timecode(rate: rate, dropFrame: dropFrame).time(frames: try Timecode(rate: rate, dropFrame: dropFrame || given.timecode.contains(";")).frames(given.timecode))
            } catch {
                throw InterchangeError("the start timecode given for media '\(given.name)' (\(given.timecode)) is not usable: \(error.message)",
                                       category: .usage, input: .mediaStart(given.name))
            }
            media.startOrigin = "the given timecode \(given.timecode)"
            return
        }
        guard let facts = media.facts, facts.startTimecode != nil else { return }
        do {
            media.start = try Self.start(of: facts, rate: rate)
            media.startOrigin = "the file's timecode \(facts.startTimecode!)"
        } catch {
            warnings.append(ImportWarning("the start timecode '\(facts.startTimecode!)' of \(media.path) is not usable (\(error.message)): taken as 00:00:00:00", at: place,
                                          remedy: [.mediaStart(media.name)]))
        }
    }

    /// The media time of a file's start timecode, counted at its own frame rate (`rate` when it
    /// has none); zero without a timecode.
    static func start(of facts: MediaFacts, rate: Rational) throws(Timecode.ParseError) -> MediaTime {
        guard let text = facts.startTimecode else { return .zero }
        let fileRate = facts.frameRate.flatMap { OTIONode.nearestSimple($0) } ?? rate
        let timecode = Timecode(rate: fileRate, dropFrame: text.contains(";") && Timecode.dropFrameIsDefined(at: fileRate))
        return timecode.time(frames: try timecode.frames(text))
    }

    private mutating func uniqueName(_ base: String) -> String {
        var name = base, n = 2
        while takenNames.contains(name) { name = "\(base)_\(n)"; n += 1 }
        takenNames.insert(name)
        return name
    }

    /// A media name from a file name: its stem with characters outside `[A-Za-z0-9_-]` as `_`,
    /// starting with a letter or `_` (the project format's rule).
    static func entryName(fromPath path: String) -> String {
        var stem = fileName(path)
        if let dot = stem.lastIndex(of: "."), stem[stem.index(after: dot)...].contains(where: \.isLetter), stem.distance(from: dot, to: stem.endIndex) <= 6 {
            stem = String(stem[..<dot])
        }
        var name = ""
        for c in stem {
            let kept = c.isASCII && (c.isLetter || c.isNumber || c == "_" || c == "-")
            if kept { name.append(c) } else if !name.isEmpty && name.last != "_" { name.append("_") }
        }
        while name.count > 1 && name.last == "_" { name.removeLast() }
        if name.isEmpty || !(name.first!.isLetter || name.first == "_") { name = "m_" + name }
        return String(name.prefix(200))
    }
}
