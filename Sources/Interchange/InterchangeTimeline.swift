import MediaTime

/// A timeline as an editing system handed it over (an EDL or an OpenTimelineIO file), in
/// OpenTimelineIO's terms: tracks of clips, gaps and transitions that take no time of their
/// own. Times are exact; source times are those of the source's own clock (its timecode),
/// not yet times into a media file.
public struct InterchangeTimeline: Sendable {
    public var name: String?
    /// The timeline's frame rate: the EDL's (`--fps`) or the one most record ranges use.
    public var rate: Rational
    /// Drop-frame timecode was used (EDL `FCM: DROP FRAME`).
    public var dropFrame: Bool
    /// Bottom to top for video; audio tracks in order.
    public var tracks: [InterchangeTrack]
    /// On the timeline, in time order.
    public var markers: [InterchangeMarker]

    public init(name: String?, rate: Rational, dropFrame: Bool = false, tracks: [InterchangeTrack], markers: [InterchangeMarker]) {
        self.name = name
        self.rate = rate
        self.dropFrame = dropFrame
        self.tracks = tracks
        self.markers = markers
    }
}

public struct InterchangeTrack: Sendable {
    public enum Kind: String, Sendable { case video = "Video", audio = "Audio" }
    public var kind: Kind
    public var name: String
    public var items: [InterchangeItem]

    public init(kind: Kind, name: String, items: [InterchangeItem]) {
        self.kind = kind
        self.name = name
        self.items = items
    }

    /// Where each clip sits on the track (OpenTimelineIO's `range_in_parent`: transitions take no time).
    public var clipPlacements: [(clip: InterchangeClip, record: TimeRange)] {
        var cursor = MediaTime.zero
        var result: [(InterchangeClip, TimeRange)] = []
        for item in items {
            switch item {
            case .clip(let c):
                result.append((c, TimeRange(start: cursor, duration: c.sourceRange.duration)))
                cursor += c.sourceRange.duration
            case .gap(let d, _): cursor += d
            case .transition: break
            }
        }
        return result
    }
}

public enum InterchangeItem: Sendable {
    case clip(InterchangeClip)
    case gap(MediaTime, Place)
    case transition(InterchangeTransition)
}

/// What a clip shows.
public enum ClipSource: Sendable, Hashable {
    case media(SourceMedia)
    /// A solid colour (`#rrggbb`), as OpenTimelineIO's `SolidColor` generator.
    case color(String)
}

/// A source as the file names it. `key` tells sources apart (a file path, else a clip or reel
/// name); `names` are what it may be found by (`--media NAME=PATH`, files in `--media-dir`).
public struct SourceMedia: Sendable, Hashable {
    public var key: String
    /// A file path or URL the file gives, if any.
    public var path: String?
    /// Clip name, reel name, file name: in the order they are tried.
    public var names: [String]

    public init(key: String, path: String?, names: [String]) {
        self.key = key
        self.path = path
        self.names = names
    }
}

public struct InterchangeClip: Sendable {
    public var name: String
    public var source: ClipSource
    /// In the source's clock; its duration is the clip's length on the track (as in
    /// OpenTimelineIO, also when `speed` is not 1: the source read is `duration × speed`).
    public var sourceRange: TimeRange
    public var speed: Rational
    public var place: Place

    public init(name: String, source: ClipSource, sourceRange: TimeRange, speed: Rational = .one, place: Place) {
        self.name = name
        self.source = source
        self.sourceRange = sourceRange
        self.speed = speed
        self.place = place
    }
}

/// A transition centred on the cut between the items around it: it starts `inOffset` before
/// the cut and ends `outOffset` after it (OpenTimelineIO's offsets).
public struct InterchangeTransition: Sendable {
    /// The Reel transition it becomes (`crossfade`, `wipe-right`, …).
    public var kind: String
    public var inOffset: MediaTime
    public var outOffset: MediaTime
    public var place: Place

    public init(kind: String, inOffset: MediaTime, outOffset: MediaTime, place: Place) {
        self.kind = kind
        self.inOffset = inOffset
        self.outOffset = outOffset
        self.place = place
    }
}

public struct InterchangeMarker: Sendable, Hashable {
    public var at: MediaTime
    public var duration: MediaTime
    public var name: String
    public var color: String?
    public var place: Place

    public init(at: MediaTime, duration: MediaTime, name: String, color: String?, place: Place) {
        self.at = at
        self.duration = duration
        self.name = name
        self.color = color
        self.place = place
    }
}

/// Where an item came from: an EDL line or an OpenTimelineIO JSON path.
public struct Place: Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var path: String?

    public static func line(_ line: Int, in file: String) -> Place { Place(file: file, line: line, path: nil) }
    public static func path(_ path: String, in file: String) -> Place { Place(file: file, line: nil, path: path) }

    /// `cut.edl:12`, `cut.otio: tracks.children[0].children[3]`.
    public var description: String {
        if let line { return "\(file):\(line)" }
        return "\(file): \(path ?? "")"
    }
}

/// Something the file holds that Reel does not express, and what was done instead.
public struct ImportWarning: Sendable, Hashable, CustomStringConvertible {
    public var place: Place
    public var message: String
    /// Values that, given, would do better (a front end says how its user gives them).
    public var remedy: [InterchangeInput]

    public init(_ message: String, at place: Place, remedy: [InterchangeInput] = []) {
        self.place = place
        self.message = message
        self.remedy = remedy
    }

    public var description: String { "\(place): warning: \(message)" }
}
