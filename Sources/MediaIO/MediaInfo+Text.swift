import Foundation
import MediaTime

extension MediaInfo {
    /// The listing `reel probe` prints: one line for the container, one per stream, then
    /// metadata and chapters. Times are exact (`1001/30000`) with a clock reading beside them.
    public var text: String {
        var lines: [String] = []
        var head = "\(path): \(formatLongName) (\(format))"
        if isStillImage { head += ", still image" }
        head += ", duration " + (duration.map(Self.time) ?? "unknown") + ", start " + Self.time(startTime)
        if timeZero != startTime { head += ", time zero (first video frame) \(timeZero)" }
        if let bitRate { head += ", " + Self.bitRate(bitRate) }
        lines.append(head)
        for stream in streams { lines.append("  " + stream.text) }
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) { lines.append("  metadata \(key): \(value)") }
        for chapter in chapters {
            lines.append("  chapter \(chapter.id): \(Self.time(chapter.start)) – \(Self.time(chapter.end))"
                         + (chapter.title.map { " \"\($0)\"" } ?? ""))
        }
        return lines.joined(separator: "\n")
    }

    /// Pretty JSON with sorted keys (stable across runs), as `reel probe --json` prints it.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try! encoder.encode(self), as: UTF8.self)
    }

    static func time(_ t: MediaTime) -> String { "\(t) s (\(TimeNotation.clock(t)))" }
    static func bitRate(_ bps: Int) -> String { "\(bps / 1000) kb/s" }
}

extension StreamInfo {
    /// `stream 0: video h264 (High), 1920x1080, …`
    public var text: String {
        var parts = ["stream \(index): \(kind.rawValue) \(codec)" + (profile.map { " (\($0))" } ?? "")]
        if let video { parts.append(video.text) }
        if let audio { parts.append(audio.text) }
        if isAttachedPicture { parts.append("attached picture") }
        if let bitRate { parts.append(MediaInfo.bitRate(bitRate)) }
        if let startTime { parts.append("start \(startTime)") }
        if let duration { parts.append("duration " + MediaInfo.time(duration)) }
        if let frameCount { parts.append("\(frameCount) frames") }
        if let language = metadata["language"] { parts.append("language \(language)") }
        parts.append("time base \(timeBase)")
        return parts.joined(separator: ", ")
    }
}

extension VideoStreamInfo {
    public var text: String {
        var parts = ["\(width)x\(height)"]
        if let sampleAspectRatio, sampleAspectRatio != .one {
            parts.append("SAR \(sampleAspectRatio.numerator):\(sampleAspectRatio.denominator)")
        }
        if rotation != 0 { parts.append("rotation \(Self.degrees(rotation))° clockwise") }
        if displayWidth != width || displayHeight != height { parts.append("display \(displayWidth)x\(displayHeight)") }
        if let averageFrameRate { parts.append("\(averageFrameRate) fps") }
        if let realFrameRate, realFrameRate != averageFrameRate { parts.append("r \(realFrameRate) fps") }
        parts.append(isVariableFrameRate ? "VFR" : "CFR")
        parts.append(pixelFormat + (hasAlpha ? " (alpha)" : ""))
        let color = [colorRange, colorMatrix, colorPrimaries, colorTransfer].map { $0 ?? "?" }
        if color.contains(where: { $0 != "?" }) { parts.append("colour " + color.joined(separator: "/")) }
        if let fieldOrder { parts.append(fieldOrder) }
        return parts.joined(separator: ", ")
    }

    static func degrees(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.2f", locale: Locale(identifier: "en_US_POSIX"), value)
    }
}

extension AudioStreamInfo {
    public var text: String { "\(sampleRate) Hz, \(channels) ch (\(channelLayout)), \(sampleFormat)" }
}
