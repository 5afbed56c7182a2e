import CompositionGraph
import MediaTime

extension PageWriter {
    /// The project's name, then the output: size, rate, duration, codecs, and what the
    /// timeline holds.
    mutating func writeHeader(title: String) {
        let vc = graph.videoComposition, output = graph.output
        let fps = vc.frameRate
        let fpsText = fps.isInteger ? fps.description : "\(Decimal.short(fps)) (\(fps))"
        let duration = graph.duration
        var facts: [(String, String)] = [
            ("size", "\(vc.renderSize.width)×\(vc.renderSize.height)"),
            ("fps", fpsText),
            ("duration", "\(TimeNotation.clock(duration)) · \(duration) s"),
            ("video", output.video.map(videoCodecText) ?? "none: audio only"),
            ("audio", audioCodecText(output.audio)),
            ("container", output.container?.rawValue ?? "from the output file's extension"),
        ]
        for key in output.metadata.keys.sorted() { facts.append((key, output.metadata[key]!)) }
        line("<header>")
        line("<h1>\(HTMLText.escape(title))</h1>")
        line("<dl class=\"facts\">")
        for (name, value) in facts {
            line("<div><dt>\(HTMLText.escape(name))</dt><dd>\(HTMLText.escape(value))</dd></div>")
        }
        line("<div><dt>background</dt><dd><span class=\"swatch\" style=\"background:\(vc.background)\"></span>\(vc.background)</dd></div>")
        line("</dl>")
        line("<p class=\"counts\">\(HTMLText.escape(countsText))</p>")
        line("</header>")
    }

    private func videoCodecText(_ v: OutputSettings.Video) -> String {
        var parts = [v.codec.rawValue]
        if let crf = v.crf { parts.append("crf \(crf)") }
        if let b = v.bitrate { parts.append(bitRateText(b)) }
        if let p = v.preset { parts.append(p) }
        parts.append(v.pixelFormat)
        return parts.joined(separator: " · ")
    }

    private func audioCodecText(_ a: OutputSettings.Audio) -> String {
        var parts = [a.codec.rawValue]
        if let b = a.bitrate { parts.append(bitRateText(b)) }
        parts.append("\(a.sampleRate) Hz")
        parts.append(a.channels == 1 ? "mono" : a.channels == 2 ? "stereo" : "\(a.channels) ch")
        return parts.joined(separator: " · ")
    }

    private func bitRateText(_ bitsPerSecond: Int) -> String {
        bitsPerSecond % 1000 == 0 ? "\(bitsPerSecond / 1000) kb/s" : "\(bitsPerSecond) b/s"
    }

    /// `4 tracks · 3 clips · 1 transition · 2 overlays`.
    private var countsText: String {
        let tracks = graph.composition.tracks
        let clips = tracks.reduce(0) { $0 + $1.segments.filter { $0.content != nil }.count }
        let transitions = transitionSpans().count
        func counted(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
        return [counted(tracks.count, "track"), counted(clips, "segment"), counted(graph.videoComposition.instructions.count, "instruction"),
                counted(transitions, "transition"), counted(graph.overlays.count, "overlay")].joined(separator: " · ")
    }
}
