import CompositionGraph
import FilePaths
import Foundation
import MediaFormat
import ProjectCompiler
import ProjectDiff
import ProjectFile
import RenderEngine

/// What `reel diff` is asked: the two sides (a project file, or `REV:PATH` for a file as of a
/// git revision), the var values both take, and which renditions to compare.
public struct DiffRequest: Sendable {
    public var old: String
    public var new: String
    /// `--set` values and `--rendition` (nil: each project's first, if it has renditions).
    public var vars: VarInputs
    /// Compare every rendition either side has.
    public var allRenditions: Bool
    /// Where a render keeps its segments: only their digests are read (nil: none).
    public var cacheFolder: String?

    public init(old: String, new: String, vars: VarInputs = VarInputs(), allRenditions: Bool = false, cacheFolder: String? = nil) {
        self.old = old
        self.new = new
        self.vars = vars
        self.allRenditions = allRenditions
        self.cacheFolder = cacheFolder
    }
}

/// A side that could not be opened: which one, as given, and why.
public struct DiffSideError: Error, CustomStringConvertible {
    public var side: String
    public var input: String
    public var underlying: any Error
    /// The scratch copy of a git revision's project file, which messages name as `input`.
    var scratchFile: String?

    /// `the old side (HEAD~1:promo.yaml):` and the error's own message, the revision's file named as given.
    public var description: String {
        let message = ErrorText.message(for: underlying)
        return "the \(side) side (\(input)):\n" + (scratchFile.map { message.replacingOccurrences(of: $0, with: input) } ?? message)
    }
}

/// One side of a comparison, opened: the project as compiled and its render's plan.
public struct ComparedSide {
    public let input: String
    public let loaded: ProjectPipeline.Loaded
    public let session: ExportSession
    public let side: DiffSide
}

/// The comparison of one rendition (nil: a project without renditions).
public struct RenditionComparison {
    public let rendition: String?
    public let old: ComparedSide
    public let new: ComparedSide
    public let difference: ProjectDifference
}

/// Two projects compared, rendition by rendition, without rendering. Holds the scratch copies
/// of a git revision's files (for stills) until it is closed.
public final class ProjectComparison {
    public let renditions: [RenditionComparison]
    private let revisions: [GitRevisionFiles]

    init(renditions: [RenditionComparison], revisions: [GitRevisionFiles]) {
        self.renditions = renditions
        self.revisions = revisions
    }

    deinit { close() }

    /// Removes the scratch copies of git revisions' files.
    public func close() { for r in revisions { r.remove() } }

    /// The outputs of every rendition would be byte-identical.
    public var isIdentical: Bool { renditions.allSatisfy(\.difference.isIdentical) }
}

extension Workspace {
    /// Opens both sides of `request` and compares them. Throws `DiffSideError` naming the side
    /// at fault, or `ProjectError` (`.usage`) for a rendition neither side has.
    public func compare(_ request: DiffRequest) throws -> ProjectComparison {
        var revisions: [GitRevisionFiles] = []
        func document(_ input: String, side: String) throws -> (Document, GitRevisionFiles?) {
            var git: GitRevisionFiles?
            do {
                var path = input
                if let (revision, file) = Self.revision(in: input) {
                    git = try GitRevisionFiles(revision: revision, path: file)
                    revisions.append(git!)
                    path = git!.projectFile
                }
                return (try DocumentLoader.load(path: path), git)
            } catch {
                throw DiffSideError(side: side, input: input, underlying: error, scratchFile: git?.projectFile)
            }
        }
        do {
            let (oldDocument, oldGit) = try document(request.old, side: "old")
            let (newDocument, newGit) = try document(request.new, side: "new")
            let names: [String?]
            if request.allRenditions {
                let all = Renditions.names(in: newDocument.root) + Renditions.names(in: oldDocument.root)
                names = all.isEmpty ? [nil] : all.enumerated().filter { !all[..<$0.offset].contains($0.element) }.map(\.element)
            } else {
                names = [request.vars.rendition]
            }
            let digests = MediaDigests(file: request.cacheFolder.map { $0 + "/digests.json" })
            let compared = try names.map { name -> RenditionComparison in
                var vars = request.vars
                vars.rendition = name
                let old = try open(oldDocument, input: request.old, side: "old", git: oldGit, vars: vars, digests: digests, cache: request.cacheFolder)
                let new = try open(newDocument, input: request.new, side: "new", git: newGit, vars: vars, digests: digests, cache: request.cacheFolder)
                return RenditionComparison(rendition: name, old: old, new: new, difference: ProjectDifference(old: old.side, new: new.side))
            }
            return ProjectComparison(renditions: compared, revisions: revisions)
        } catch {
            for r in revisions { r.remove() }
            throw error
        }
    }

    /// `REV:PATH` when `input` is no file and has a revision before its first colon.
    static func revision(in input: String) -> (revision: String, path: String)? {
        guard !FileManager.default.fileExists(atPath: input), let colon = input.firstIndex(of: ":"), colon != input.startIndex else { return nil }
        let path = String(input[input.index(after: colon)...])
        return path.isEmpty ? nil : (String(input[..<colon]), path)
    }

    private func open(_ document: Document, input: String, side: String, git: GitRevisionFiles?, vars: VarInputs,
                      digests: MediaDigests, cache: String?) throws -> ComparedSide {
        do {
            let resolver: (any ProjectPathResolver)? = git ?? mediaRoots
            let loaded = try ProjectPipeline.load(document, overrides: vars.overrides, overrideSources: vars.sources, rendition: vars.rendition,
                                                  renditionInput: vars.renditionInput, media: media, fonts: CatalogFonts(), remote: remote, paths: resolver)
            let facts = DiffFacts(resolver: resolver, digests: digests).facts(of: document, rendition: vars.rendition, overrides: vars.overrides)
            // Remembered for the plan below, and for the next render.
            digests.save()
            let session = try ExportSession(graph: loaded.graph, options: ExportOptions(outputPath: loaded.graph.output.path ?? "", partsFolder: cache ?? Self.scratchParts))
            let graph = session.graph
            let container = graph.output.container?.rawValue ?? URL(fileURLWithPath: graph.output.path ?? "").pathExtension
            let segments = session.plan.segments.map { DiffSide.Segment(timeRange: $0.timeRange, key: $0.key, audioKey: $0.audioKey) }
            let side = DiffSide(facts: facts, project: loaded.project, layout: loaded.layout, graph: graph, segments: segments,
                                audioKey: graph.hasAudio ? session.plan.audioKey + "\n" + container : nil)
            return ComparedSide(input: input, loaded: loaded, session: session, side: side)
        } catch {
            throw DiffSideError(side: side, input: input, underlying: error, scratchFile: git?.projectFile)
        }
    }

    /// A parts folder that is never written: a plan keyed by bytes needs one named.
    private static var scratchParts: String { FileManager.default.temporaryDirectory.appendingPathComponent("reel-diff-parts").path }
}

/// The facts a diff reads causes from (`DocumentFacts`): the document as its rendition and
/// vars make it, and the digest of every file its values name, nested projects within.
struct DiffFacts {
    let resolver: (any ProjectPathResolver)?
    let digests: MediaDigests

    func facts(of document: Document, rendition: String?, overrides: [VarOverride], depth: Int = 0) -> DocumentFacts {
        let root = document.root
        let chosen = (rendition ?? Renditions.names(in: root).first).flatMap { Renditions.select($0, in: root) } ?? (root, [])
        var vars = VarsSubstitution(document: chosen.root)
        _ = vars.override(chosen.vars + overrides)
        let substituted = vars.apply(to: chosen.root).node
        let projectFile = document.source.name
        var files: [String: String] = [:], nested: [String: DocumentFacts] = [:]
        for (path, text) in DocumentFacts.strings(in: substituted) {
            guard let file = self.file(text, in: projectFile, nested: depth > 0), let digest = try? digests.digest(of: file) else { continue }
            files[path] = digest
            let ext = (file as NSString).pathExtension.lowercased()
            // A nested project: what differs inside it (as far as nesting goes in a render).
            if ["yaml", "yml", "json"].contains(ext), depth < 8, let inner = try? DocumentLoader.load(path: file), inner.root["reel"] != nil {
                nested[path] = facts(of: inner, rendition: nil, overrides: [], depth: depth + 1)
            }
        }
        return DocumentFacts(written: chosen.root, substituted: substituted, vars: vars.values, files: files, nested: nested)
    }

    /// The file a string value names, if it names one that is there (of an image sequence: its pattern).
    private func file(_ text: String, in project: String, nested: Bool) -> String? {
        guard !text.isEmpty, text.count < 4096, !text.contains("\n"), !text.contains("://") else { return nil }
        let path: String
        if let resolver {
            guard case .success(let p) = resolver.file(text, in: project, nested: nested) else { return nil }
            path = p
        } else {
            path = absolutePath(text, from: (project as NSString).deletingLastPathComponent)
        }
        if let files = ImageSequencePattern.files(of: path) { return files.isEmpty ? nil : path }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue, path != project else { return nil }
        return path
    }
}

extension ProjectComparison {
    /// Each rendition's changed ranges and summary (under its name when there are several).
    public var text: String {
        renditions.map { r in
            renditions.count > 1 ? "rendition \(r.rendition ?? "-"):\n" + r.difference.text : r.difference.text
        }.joined(separator: "\n")
    }

    /// The differences as `reel diff --json` prints them (`DifferenceJSON`).
    public var json: String { DifferenceJSON.text(renditions.map { ($0.rendition, $0.difference) }) }
}
