import CompositionGraph
import Foundation
import MediaTime
import ProjectFile
import RegularFiles

/// Media that are Reel projects (pre-compositions): a `media:` entry whose file ends in
/// `.yaml`, `.yml` or `.json` is compiled as a project of its own, once for each set of
/// `vars:` its clips pass, and used as a video whose picture is the nested project's output
/// size, whose duration is its timeline's and whose sound is its mix.
enum NestedProjects {
    static func isProjectFile(_ path: String) -> Bool {
        guard RemoteMediaAddress.scheme(of: path) == nil else { return false }
        return ["yaml", "yml", "json"].contains((path as NSString).pathExtension.lowercased())
    }

    /// The name a clip's variant (its vars) of a nested project is compiled under, shown in
    /// listings and exports: `intro(title="Spring Sale")`. No media name holds a parenthesis, and the
    /// values are quoted, so two sets of vars never get one name.
    static func variantName(_ name: String, vars: [VarOverride]) -> String {
        vars.isEmpty ? name : "\(name)(" + vars.map { "\($0.name)=" + jsonStringLiteral($0.text ?? "") }.sorted().joined(separator: ", ") + ")"
    }

    static func isVariantName(_ name: String) -> Bool { name.contains("(") }

    /// `main.yaml → intro.yaml`: a chain of project files, by file name, for messages.
    static func chainText(_ files: [String]) -> String {
        files.map { ($0 as NSString).lastPathComponent }.joined(separator: " → ")
    }

    /// One path for one file however it is written (so a cycle is seen through `./`, `..`, links).
    static func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
    }

    /// What a nested project is as media: a video of its output, with its mix as its sound.
    static func facts(of graph: CompositionGraph, stamp: FileStamp) -> MediaFacts {
        let audio = graph.output.audio
        let layout = audio.channels == 1 ? "mono" : audio.channels == 2 ? "stereo" : "\(audio.channels) channels"
        let hasPicture = graph.output.video != nil
        return MediaFacts(kind: hasPicture ? .video : .audio, naturalSize: hasPicture ? graph.videoComposition.renderSize : nil,
                          duration: graph.duration, frameRate: hasPicture ? graph.videoComposition.frameRate : nil,
                          audio: graph.hasAudio ? AudioFacts(sampleRate: audio.sampleRate, channels: audio.channels, layout: layout) : nil,
                          stamp: stamp)
    }
}

extension CompileSession {
    /// Compiles every nested project the clips use, once per media name and vars, and points
    /// each clip at its variant: a clip passing vars gets a media name of its own (the entry
    /// copied under it), so the rest of the compiler sees plain video media.
    mutating func resolveNestedProjects() {
        // Most projects nest none: then no clip need be looked at.
        guard project.media.contains(where: { $0.path.map(NestedProjects.isProjectFile) == true }) else { return }
        var compiled: [String: String] = [:]
        for t in project.videoTracks.indices {
            for i in project.videoTracks[t].items.indices {
                guard case .clip(var clip) = project.videoTracks[t].items[i], case .media(let name) = clip.source,
                      let entry = project.mediaEntry(named: name), let path = entry.path, NestedProjects.isProjectFile(path) else { continue }
                let variant = NestedProjects.variantName(name, vars: clip.vars)
                if compiled[variant] == nil {
                    compiled[variant] = variant
                    if let reference = nestedReference(entry, path, vars: clip.vars, at: clip.origin) { references[variant] = reference }
                    if variant != name { project.media.append(MediaEntry(name: variant, path: path, location: entry.location)) }
                }
                clip.source = .media(variant)
                project.videoTracks[t].items[i] = .clip(clip)
            }
        }
        for track in project.audioTracks {
            for case .clip(let clip) in track.items where compiled[clip.media] == nil {
                guard let entry = project.mediaEntry(named: clip.media), let path = entry.path, NestedProjects.isProjectFile(path) else { continue }
                compiled[clip.media] = clip.media
                if let reference = nestedReference(entry, path, vars: [], at: clip.origin) { references[clip.media] = reference }
            }
        }
    }

    /// The entry's project (the file at `path`) compiled with `vars`; nil after reporting why it
    /// cannot be (a cycle, a missing file, the nested project's own errors, each with the chain of files).
    private mutating func nestedReference(_ entry: MediaEntry, _ path: String, vars: [VarOverride], at origin: Origin) -> MediaReference? {
        let above = ancestors + [project.file]
        let chain = NestedProjects.chainText(above + [path])
        let target = NestedProjects.canonical(path)
        if above.contains(where: { NestedProjects.canonical($0) == target }) {
            problems.report("nested projects form a cycle: \(chain)", at: origin,
                            hint: "a project cannot contain itself; use another project or media here")
            return nil
        }
        let stamp: FileStamp
        do {
            let file = try RegularFile.stamp(at: path)
            stamp = FileStamp(size: file.size, modified: file.modified)
        } catch {
            let mediaOrigin = Origin(location: entry.location, path: "media.\(entry.name)")
            switch error {
            case .missing:
                missingFile = true
                problems.report("nested project '\(entry.name)' not found: \(path) (\(chain))", at: mediaOrigin,
                                hint: "check the path; it is relative to the project file")
            case .notAFile, .unreadable:
                problems.report("nested project '\(entry.name)' (\(path)) cannot be read: \(error) (\(chain))", at: mediaOrigin)
            }
            return nil
        }
        do {
            let loaded = try ProjectPipeline.load(path: path, overrides: vars, media: media, fonts: fonts, remote: remote,
                                                  paths: paths, ancestors: above)
            let given = Dictionary(vars.map { ($0.name, $0.text ?? "") }, uniquingKeysWith: { $1 })
            return MediaReference(name: entry.name, path: path, facts: NestedProjects.facts(of: loaded.graph, stamp: stamp),
                                  nested: NestedProject(graph: loaded.graph, vars: given))
        } catch {
            switch error.category {
            case .missingFile: missingFile = true
            case .unavailable: unavailable = true
            case .cancelled: cancelled = true
            default: break
            }
            cueSources += error.sources.filter { source in !cueSources.contains { $0.name == source.name } }
            let prefix = "in nested project "
            let known = problems.diagnostics
            problems.append(contentsOf: error.diagnostics.map { d in
                var d = d
                if !d.message.hasPrefix(prefix) { d.message = prefix + chain + ": " + d.message }
                return d
            }.filter { !known.contains($0) }) // the same mistake met again with other vars
            return nil
        }
    }
}
