import AtomicFiles
import FilePaths
import FileSafety
import Foundation
import Interchange
import MediaIO
import MediaTime
import ProjectCompiler
import ProjectFile
import RenderEngine

/// A project's timeline written for an editing system (`reel export`).
public struct ExportedTimeline {
    public var timeline: InterchangeTimeline
    /// What the editing system cannot receive, and what was done instead.
    public var warnings: [ImportWarning]
    /// Media not on this machine: exported by their paths, starting at 00:00:00:00.
    public var missingMedia: [String]

    /// `cut.edl: 12 clips on 2 tracks, 1 warning`.
    public func summary(output: String) -> String {
        "\(output): \(counted(timeline.tracks.reduce(0) { $0 + $1.clipPlacements.count }, "clip")) on \(counted(timeline.tracks.count, "track")), "
            + counted(warnings.count + missingMedia.count, "warning")
    }
}

extension ProjectImport.Result {
    /// `project.yaml: 12 clips on 2 tracks, 3 media (1 not found), 0 warnings`.
    public func summary(output: String) -> String {
        "\(output): \(counted(timeline.tracks.reduce(0) { $0 + $1.clipPlacements.count }, "clip")) on \(counted(timeline.tracks.count, "track")), "
            + "\(media.count) media (\(media.filter { !$0.found }.count) not found), \(counted(warnings.count, "warning"))"
    }
}

extension Workspace {
    /// Compiles the project at `projectPath` (media that are missing are no error: they are
    /// exported by path) and writes its timeline to `output`, an `.edl` (the video track
    /// `videoTrack`, 0 = the bottom one) or else an `.otio` file, never over a file it reads.
    /// `starts` gives media without a start timecode one (name, timecode).
    public func exportTimeline(projectPath: String, vars: VarInputs, varsFile: String?, varsInput: String?, to output: String,
                               videoTrack: Int, starts: [(String, String)]) throws -> ExportedTimeline {
        let facts = AbsentMediaFacts(base: media)
        let loaded = try ProjectPipeline.load(path: projectPath, overrides: vars.overrides, overrideSources: vars.sources, rendition: vars.rendition,
                                              media: facts, fonts: nil, remote: remote, paths: mediaRoots)
        try refuseUnsafeOutputs([output], project: projectPath, varsFile: varsFile, varsInput: varsInput, graph: loaded.graph, exampleName: "cut.otio")
        var (timeline, warnings) = try TimelineExport.timeline(loaded.project, layout: loaded.layout, starts: starts)
        let text: String
        if output.lowercased().hasSuffix(".edl") {
            let (edl, more) = try EDLWriter.text(timeline, videoTrack: videoTrack)
            (text, warnings) = (edl, warnings + more)
        } else {
            text = OTIOWriter.json(timeline)
        }
        try PartialFile.write(Array(text.utf8), to: output, sync: false)
        return ExportedTimeline(timeline: timeline, warnings: warnings, missingMedia: facts.missing)
    }
}

/// A cut from an editing system written as a Reel project (`reel import`).
public enum TimelineImporting {
    /// Reads the OpenTimelineIO file or EDL at `file` (an EDL at `rate`, nil: its own) and
    /// writes it as the project `output` (YAML, or JSON for `.json`), its media found as
    /// `options` say, never over the timeline or a media file it names (`mediaRole` says how
    /// the user gave a media file of that name, for the refusal).
    public static func importTimeline(_ file: String, rate: Rational?, options: MediaOptions, to output: String,
                                      mediaRole: (String) -> String = { "the media file given for \($0)" }) throws -> ProjectImport.Result {
        let inputs = [ReadFile(path: file, role: "the imported timeline")] + options.explicit.map { ReadFile(path: $0.path, role: mediaRole($0.name)) }
        try refuseUnsafeOutputs([output], reading: inputs, exampleName: "project.yaml")
        let result = try ProjectImport.run(path: file, rate: rate, options: options, facts: MediaFactsReader(), projectPath: absolutePath(output))
        try PartialFile.write(Array(result.text.utf8), to: output, sync: false)
        return result
    }
}
