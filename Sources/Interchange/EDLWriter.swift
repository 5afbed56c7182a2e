import MediaTime

/// An interchange timeline as a CMX 3600 EDL: one video track (the one asked for) and up to
/// four audio tracks as channels A, A2, A3, A4, non-drop-frame timecode at the timeline's rate,
/// record times from 01:00:00:00. A transition is the classic pair of events: a zero-length cut
/// on the outgoing source, then `D` (or `W001`/`W002` for wipes) with its length on the
/// incoming one. Speed is an `M2` line; names and paths go in `* FROM CLIP NAME:` and
/// `* SOURCE FILE:` notes; markers are `* LOC:` notes. Reel names of sources (`REEL`) are the
/// media names cut to 8 characters.
public enum EDLWriter {
    public static func text(_ timeline: InterchangeTimeline, videoTrack: Int) throws(InterchangeError) -> (String, [ImportWarning]) {
        let rate = timeline.rate
        let timecode = Timecode(rate: rate, dropFrame: false)
        let recordStart = 3600 * timecode.nominalRate
        var warnings: [ImportWarning] = []
        var out = "TITLE: \(timeline.name ?? "Reel")\nFCM: NON-DROP FRAME\n"
        var number = 0
        func frames(_ t: MediaTime, _ what: String, _ place: Place) -> Int64 {
            if let n = timecode.frames(at: t) { return n }
            let n = (t.value * rate).rounded
            warnings.append(ImportWarning("\(what) \(t) s is not a whole frame at \(rate) fps: rounded to a frame", at: place))
            return n
        }
        func tc(_ n: Int64) -> String { timecode.string(frames: n) }
        let videos = timeline.tracks.enumerated().filter { $0.element.kind == .video }
        let audios = timeline.tracks.filter { $0.kind == .audio }
        guard videoTrack < max(videos.count, 1) else {
            throw InterchangeError("there is no video track \(videoTrack + 1): the project has \(videos.count) video tracks", category: .usage,
                                   input: .videoTrack)
        }
        for (i, track) in videos where i != videos[videoTrack].offset {
            warnings.append(ImportWarning("video track '\(track.name)' is not exported: an EDL holds one video track", at: .path("video", in: timeline.name ?? ""),
                                          remedy: [.videoTrack]))
        }
        if audios.count > 4 { warnings.append(ImportWarning("only the first 4 audio tracks are exported: an EDL has 4 audio channels", at: .path("audio", in: timeline.name ?? ""))) }
        let chosen = videos.isEmpty ? [] : [(videos[videoTrack].element, "V")]
        let channelNames = ["A", "A2", "A3", "A4"]
        let exported = chosen + audios.prefix(4).enumerated().map { ($1, channelNames[$0]) }
        var markers = timeline.markers
        for (track, channel) in exported {
            var cursor = MediaTime.zero
            var previous: (reel: String, sourceOut: Int64, name: String)?
            for (i, item) in track.items.enumerated() {
                switch item {
                case .gap(let d, _): cursor += d
                case .transition: break
                case .clip(let c):
                    let reel: String, note: [String]
                    switch c.source {
                    case .color: (reel, note) = ("BL", [])
                    case .media(let m): (reel, note) = (reelName(m.key), m.path.map { ["* SOURCE FILE: \($0)"] } ?? [])
                    }
                    let sourceIn = frames(c.sourceRange.start, "the source in of '\(c.name)'", c.place)
                    let length = frames(c.sourceRange.duration, "the length of '\(c.name)'", c.place)
                    let recordIn = recordStart + frames(cursor, "the record in of '\(c.name)'", c.place)
                    let sourceOut = sourceIn + frames(c.sourceRange.duration * c.speed, "the source length of '\(c.name)'", c.place)
                    number += 1
                    let id = String(format3(number))
                    var transition = "C   "
                    var names = "* FROM CLIP NAME: \(c.name)\n"
                    if i > 0, case .transition(let t) = track.items[i - 1], let previous {
                        names = "* FROM CLIP NAME: \(previous.name)\n* TO CLIP NAME: \(c.name)\n"
                        let code = t.kind == "crossfade" ? "D" : t.kind == "wipe-right" ? "W001" : t.kind == "wipe-down" ? "W002" : "D"
                        if code == "D" && t.kind != "crossfade" {
                            warnings.append(ImportWarning("the \(t.kind) transition before '\(c.name)' is exported as a dissolve (D)", at: t.place))
                        }
                        out += event(id, previous.reel, channel, "C   ", previous.sourceOut, previous.sourceOut, recordIn, recordIn, tc)
                        transition = "\(code.padding(4)) \(format3(Int(frames(t.outOffset, "a transition", t.place))))"
                    }
                    out += event(id, reel, channel, transition, sourceIn, sourceOut, recordIn, recordIn + length, tc)
                    if c.speed != .one {
                        let fps = c.speed * rate
                        let text = ProjectWriter.decimal(fps).map { $0.contains(".") ? $0 : $0 + ".0" } ?? String(fps.doubleValue)
                        if ProjectWriter.decimal(fps) == nil { warnings.append(ImportWarning("the speed of '\(c.name)' (\(c.speed)) is rounded in the M2 line", at: c.place)) }
                        out += "M2   \(reel.padding(8)) \(text.leftPadding(5))  \(tc(sourceIn))\n"
                    }
                    out += names + note.map { $0 + "\n" }.joined()
                    if channel == "V" {
                        for m in markers where m.at >= cursor && m.at < cursor + c.sourceRange.duration {
                            out += "* LOC: \(tc(recordStart + frames(m.at, "a marker", c.place))) \(m.color ?? "RED") \(m.name)\n"
                        }
                        markers.removeAll { $0.at >= cursor && $0.at < cursor + c.sourceRange.duration }
                    }
                    previous = (reel, sourceOut, c.name)
                    cursor += c.sourceRange.duration
                }
            }
        }
        for m in markers { warnings.append(ImportWarning("marker '\(m.name)' is not on a clip of the video track: not exported", at: .path("markers", in: timeline.name ?? ""))) }
        return (out, warnings)
    }

    private static func event(_ id: String, _ reel: String, _ channel: String, _ transition: String, _ si: Int64, _ so: Int64,
                              _ ri: Int64, _ ro: Int64, _ tc: (Int64) -> String) -> String {
        "\(id)  \(reel.padding(8)) \(channel.padding(5)) \(transition.padding(8)) \(tc(si)) \(tc(so)) \(tc(ri)) \(tc(ro))\n"
    }

    /// A reel name: the media name without spaces, at most 8 characters.
    static func reelName(_ name: String) -> String {
        let cleaned = String(name.map { $0 == " " ? "_" : $0 }.prefix(8))
        return cleaned.isEmpty ? "AX" : cleaned
    }

    private static func format3(_ n: Int) -> String { n < 10 ? "00\(n)" : n < 100 ? "0\(n)" : "\(n)" }
}

private extension String {
    func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
    func leftPadding(_ width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
