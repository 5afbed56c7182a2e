import CompositionGraph
import Foundation
import MediaTime
import ProjectCompiler

/// A compiled project as an interchange timeline, the inverse of the import: each clip's
/// record range is where it lands on the timeline up to the cut, where the next transition
/// starts (Reel's transition becomes one that starts at the cut, `in_offset` 0, and runs
/// `out_offset` into the outgoing clip's handle, as an EDL dissolve does); its source range
/// starts at its `from` plus its media's start timecode. What editing systems cannot receive
/// from Reel is a warning.
public enum TimelineExport {
    public static func timeline(_ project: Project, layout: TimelineLayout,
                                starts: [(name: String, timecode: String)] = []) throws(InterchangeError) -> (InterchangeTimeline, [ImportWarning]) {
        for given in starts where !project.media.contains(where: { $0.name == given.name }) {
            let known = project.media.prefix(20).map(\.name).joined(separator: ", ")
            throw InterchangeError("a start timecode (\(given.timecode)) is given for media '\(given.name)', which the project does not have",
                                   hint: known.isEmpty ? "the project has no media" : "its media: \(known)", category: .usage,
                                   input: .mediaStart(given.name))
        }
        var export = Exporter(project: project, layout: layout, starts: starts)
        var tracks: [InterchangeTrack] = []
        for (i, track) in project.videoTracks.enumerated() {
            tracks.append(try export.track(.video, name: track.name ?? "", items: track.items.map(\.anyClip), placed: layout.video[i], index: i))
        }
        for (i, track) in project.audioTracks.enumerated() {
            tracks.append(try export.track(.audio, name: track.name ?? "", items: track.items.map(\.anyClip), placed: layout.audio[i], index: i))
        }
        for (i, overlay) in project.overlays.enumerated() {
            export.warn("overlay \(i + 1) is not exported: editing systems receive no Reel overlays", path: "overlays[\(i)]", origin: overlay.origin.location.line)
        }
        let markers = project.markers.enumerated().map { i, m in
            InterchangeMarker(at: m.at, duration: m.duration, name: m.name, color: m.color, place: .path("markers[\(i)]", in: project.file))
        }
        return (InterchangeTimeline(name: fileName(project.file), rate: project.output.fps, tracks: tracks, markers: markers), export.warnings)
    }
}

/// A track's items without their clips: enough to find its gaps.
private enum ItemShape { case clip, transition, gap(MediaTime) }

private extension Project {
    func trackItems(_ kind: InterchangeTrack.Kind, _ index: Int) -> [ItemShape] {
        kind == .video ? videoTracks[index].items.map(\.shape) : audioTracks[index].items.map(\.shape)
    }
}

/// What the exporter needs of a video or audio clip.
struct AnyClip {
    var name: String?
    var media: String?
    var color: Color?
    /// The GLSL file of a clip a shader draws.
    var shader: String? = nil
    var timing: ClipTiming
    var mute: Bool
    var loop: Bool
    var line: Int
    /// How many overlays the clip holds (`overlays:`).
    var overlays = 0
}

private extension TrackItem {
    var shape: ItemShape {
        switch self {
        case .clip: .clip
        case .transition: .transition
        case .gap(let d, _): .gap(d)
        }
    }

    var anyClip: AnyClip? {
        guard case .clip(let c) = self else { return nil }
        switch c {
        case let v as VideoClip:
            var clip = AnyClip(name: v.name, media: nil, color: nil, timing: v.timing, mute: v.mute, loop: false, line: v.origin.location.line,
                               overlays: v.overlays.count)
            switch v.source {
            case .media(let m): clip.media = m
            case .color(let c): clip.color = c
            case .shader(let call): clip.shader = URL(fileURLWithPath: call.path).lastPathComponent
            }
            return clip
        case let a as AudioClip:
            return AnyClip(name: a.name, media: a.media, color: nil, timing: a.timing, mute: false, loop: a.loop, line: a.origin.location.line)
        default:
            return nil
        }
    }
}

private struct Exporter {
    let project: Project
    let layout: TimelineLayout
    let starts: [(name: String, timecode: String)]
    var warnings: [ImportWarning] = []

    mutating func warn(_ message: String, path: String, origin line: Int) {
        warnings.append(ImportWarning(message, at: Place(file: project.file, line: line > 0 ? line : nil, path: path)))
    }

    func start(of media: String) throws(InterchangeError) -> MediaTime {
        if let given = starts.first(where: { $0.name == media }) {
            let timecode = Timecode(rate: project.output.fps, dropFrame: given.timecode.contains(";"))
            do { return timecode.time(frames: try timecode.frames(given.timecode)) } catch {
                throw InterchangeError("the start timecode given for media '\(given.name)' (\(given.timecode)) is not usable: \(error.message)",
                                       category: .usage, input: .mediaStart(given.name))
            }
        }
        guard let facts = layout.media[media]?.facts else { return .zero }
        do { return try MediaResolver.start(of: facts, rate: project.output.fps) } catch {
            throw InterchangeError("the start timecode of media '\(media)' is not usable: \(error.message)", hint: "give it a start timecode", remedy: [.mediaStart(media)])
        }
    }

    mutating func track(_ kind: InterchangeTrack.Kind, name: String, items: [AnyClip?], placed: [TimelineLayout.Placed],
                        index: Int) throws(InterchangeError) -> InterchangeTrack {
        var result: [InterchangeItem] = []
        var cursor = MediaTime.zero
        let trackPath = "\(kind == .video ? "video" : "audio")[\(index)]"
        for (n, p) in placed.enumerated() {
            guard let clip = items[p.item] else { continue }
            let path = "\(trackPath).clips[\(p.item)]"
            let place = Place(file: project.file, line: clip.line > 0 ? clip.line : nil, path: path)
            let end = n + 1 < placed.count ? (placed[n + 1].transitionIn?.range.start ?? p.target.end) : p.target.end
            if clip.overlays > 0 {
                let overlays = clip.overlays == 1 ? "the overlay" : "the \(clip.overlays) overlays"
                warn("\(overlays) of clip '\(clip.name ?? clip.media ?? clip.shader ?? "")' \(clip.overlays == 1 ? "is" : "are") not exported: editing systems receive no Reel overlays",
                     path: path, origin: clip.line)
            }
            if p.target.start > cursor { result.append(.gap(p.target.start - cursor, place)) }
            if let t = p.transitionIn {
                result.append(.transition(InterchangeTransition(kind: t.transition.kind.rawValue, inOffset: .zero, outOffset: t.range.duration, place: place)))
            }
            let record = TimeRange(start: p.target.start, end: end)
            if let shader = clip.shader {
                warn("clip '\(clip.name ?? shader)' is drawn by the GLSL file \(shader), which editing systems cannot run: exported as a gap", path: path, origin: clip.line)
                result.append(.gap(record.duration, place))
                cursor = end
                continue
            }
            let source: ClipSource
            var sourceStart = MediaTime.zero
            if let color = clip.color {
                source = .color(color.description)
            } else {
                let media = clip.media ?? ""
                let reference = layout.media[media]
                source = .media(SourceMedia(key: media, path: reference?.path, names: [media]))
                sourceStart = try start(of: media) + (p.source?.start ?? .zero)
                if p.source == nil { warn("clip '\(clip.name ?? media)' shows a still image: exported as a clip of its file", path: path, origin: clip.line) }
            }
            if kind == .video && !clip.mute && reference(clip)?.facts.hasAudio == true {
                warn("the own audio of clip '\(clip.name ?? clip.media ?? "")' is not exported: editing systems take sound from audio tracks", path: path, origin: clip.line)
            }
            if clip.timing.fadeIn != nil || clip.timing.fadeOut != nil { warn("the fades of clip '\(clip.name ?? clip.media ?? "")' are not exported", path: path, origin: clip.line) }
            if let key = clip.timing.effects.keyNeedingSourceTime {
                warn("the '\(key)' of clip '\(clip.name ?? clip.media ?? "")' is not exported: exported as its source from the start at speed \(clip.timing.speed)", path: path, origin: clip.line)
            }
            if clip.loop { warn("clip '\(clip.name ?? clip.media ?? "")' loops: exported as one clip of its length, reading past its 'to'", path: path, origin: clip.line) }
            result.append(.clip(InterchangeClip(name: clip.name ?? clip.media ?? "", source: source,
                                                sourceRange: TimeRange(start: sourceStart, duration: record.duration), speed: clip.timing.speed, place: place)))
            cursor = end
        }
        // Gaps after the last clip keep the track's length.
        let trailing = project.trackItems(kind, index).dropFirst((placed.last?.item ?? -1) + 1)
        for case .gap(let d) in trailing { result.append(.gap(d, Place(file: project.file, line: nil, path: trackPath))) }
        return InterchangeTrack(kind: kind, name: name, items: result)
    }

    private func reference(_ clip: AnyClip) -> MediaReference? { clip.media.flatMap { layout.media[$0] } }
}
