import CompositionGraph
import Foundation
import MediaTime

extension PageWriter {
    /// The video tracks, one row each, with the transitions drawn over the rows they join.
    mutating func writeVideoTracks() {
        let tracks = graph.composition.tracks.filter { $0.kind == .video }
        guard !tracks.isEmpty else { return }
        line("<div class=\"caption\">video tracks</div>")
        line("<div class=\"group\">")
        for track in tracks { writeTrack(track) }
        writeJoins(rows: tracks.map(\.id))
        line("</div>")
    }

    /// The audio tracks, one row each, with their volume curves.
    mutating func writeAudioTracks() {
        let tracks = graph.composition.tracks.filter { $0.kind == .audio }
        guard !tracks.isEmpty else { return }
        line("<div class=\"caption\">audio tracks</div>")
        for track in tracks { writeTrack(track) }
    }

    private mutating func writeTrack(_ track: CompositionTrack) {
        let filled = track.segments.filter { $0.content != nil }
        let mix = track.kind == .audio ? graph.audioMix.parameters(for: track.id) : nil
        let volume = mix?.volume
        let ducked = mix?.duck.map { duck in
            " · ducks \(Decimal.short(duck.depth)) dB under " + duck.keyTrackIDs.map { "track \($0)" }.joined(separator: ", ")
        } ?? ""
        let detail = track.kind == .video
            ? "track \(track.id) · \(filled.count) segment\(filled.count == 1 ? "" : "s")"
            : "track \(track.id) · " + (volume.map { "gain ≤ \(Decimal.short(VolumeCurve.top(of: $0)))" } ?? "not mixed") + ducked
        line("<div class=\"row \(track.kind.rawValue)\">")
        head(track.name, detail)
        line("<div class=\"lane\">")
        for run in track.runs { writeSegment(run, of: track) }
        if let volume { line(VolumeCurve.svg(volume, over: filled.map(\.target), scale: scale)) }
        if let duck = ducking[track.id] { line(VolumeCurve.svg(duck, over: filled.map(\.target), scale: scale, class: "duck")) }
        line("</div>")
        line("</div>")
    }

    /// One box per segment, or per speed ramp (its pieces together).
    private mutating func writeSegment(_ run: SegmentRun, of track: CompositionTrack) {
        let segment = run.segments.first!
        let range = run.target
        let timeline = "timeline " + exactSpan(range)
        switch segment.content {
        case nil:
            return // a gap: nothing drawn
        case .media(let reference, _)?:
            let source = run.source!
            var details = ["\(reference.name) (\(fileName(reference)))", "source " + exactSpan(source), timeline]
            var name = "<b>\(HTMLText.escape(reference.name))</b>"
            if let nested = reference.nested {
                // Its own timeline is in the folded listing at the bottom of the page.
                details.insert("nested project" + (nested.vars.isEmpty ? "" : " with \(nested.varsText)"), at: 1)
                name += "<span class=\"badge\">nested</span>"
            }
            if let speeds = run.speeds {
                details.append("speed ramp \(speeds.first) → \(speeds.last) in \(run.segments.count) pieces")
                name += "<span class=\"speed\">\(Decimal.short(speeds.first))→\(Decimal.short(speeds.last))×</span>"
            } else if let speed = segment.timeMapping?.speed, speed.isZero {
                details.append("freeze frame")
                name += "<span class=\"badge\">freeze</span>"
            } else if let speed = segment.timeMapping?.speed, speed != .one {
                details.append("speed \(speed)")
                name += "<span class=\"speed\">\(Decimal.short(speed))×</span>"
            }
            if segment.reversed {
                details.append("reversed")
                name += "<span class=\"badge\">reversed</span>"
            }
            let picture = track.kind == .video ? image(reference, at: source.start, class: "thumb") : ""
            line(box(track.kind.rawValue, range, details: details, name: name, picture: picture, second: clockSpan(source)))
        case .still(let reference)?:
            let kind = reference.kind == .svg ? "svg" : "image"
            let name = "<b>\(HTMLText.escape(reference.name))</b><span class=\"badge\">still \(kind)</span>"
            line(box("still", range, details: ["still \(kind) \(reference.name) (\(fileName(reference)))", timeline], name: name,
                     picture: image(reference, at: .zero, class: "thumb"), second: clockSpan(range)))
        case .color(let color)?:
            let ink = ColorText.isLight(color) ? "dark" : "light"
            line(box("color \(ink)", range, style: ";background:\(color)", details: ["colour \(color)", timeline],
                     name: "<b>\(color)</b><span class=\"badge\">colour</span>", second: clockSpan(range)))
        case .shader(let call)?:
            let file = URL(fileURLWithPath: call.path).lastPathComponent
            line(box("shader", range, details: ["GLSL \(file)", timeline],
                     name: "<b>\(HTMLText.escape(file))</b><span class=\"badge\">GLSL</span>", second: clockSpan(range)))
        }
    }

    /// A box over the rows of each transition's two tracks, labelled with its kind.
    private mutating func writeJoins(rows: [Int]) {
        let spans = transitionSpans()
        guard !spans.isEmpty else { return }
        var rowIndex: [Int: Int] = [:]
        for (i, id) in rows.enumerated() { rowIndex[id] = i }
        let pitch = PageStyle.videoRowHeight + PageStyle.rowGap
        line("<div class=\"joins\">")
        for span in spans {
            guard let a = rowIndex[span.transition.fromTrackID], let b = rowIndex[span.transition.toTrackID] else { continue }
            let top = min(a, b) * pitch, height = (abs(a - b) + 1) * pitch - PageStyle.rowGap
            let details = ["\(kindText(span.transition.kind)) " + exactSpan(span.range),
                           "from \(trackText(span.transition.fromTrackID)) to \(trackText(span.transition.toTrackID))"]
            // The label starts at the transition and runs on over the outgoing clip's row, which is
            // empty after it, away from the incoming clip's name and picture.
            let (arrow, place) = a < b ? ("↓", "upper") : ("↑", "lower")
            line("<div class=\"join\" style=\"\(scale.boxStyle(span.range));top:\(top)px;height:\(height)px\" title=\"\(tooltip(details))\"><span class=\"\(place)\">\(HTMLText.escape(kindText(span.transition.kind))) \(arrow)</span></div>")
        }
        line("</div>")
    }
}
