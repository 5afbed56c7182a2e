extension PageWriter {
    /// What the colours mean.
    mutating func writeLegend() {
        let ducking: [(String, String)] = graph.audioMix.tracks.contains { $0.duck != nil } ? [("curve duck", "ducking gain")] : []
        let keys: [(String, String)] = [
            ("box video", "video clip (picture at its in-point)"), ("box still", "still image or SVG"), ("box audio", "audio clip"),
            ("join", "transition"), ("band layered", "instruction with several layers"), ("curve", "volume"),
            ("box overlay", "overlay"),
        ] + ducking
        line("<ul class=\"legend\">")
        for (classes, text) in keys { line("<li><span class=\"key \(classes)\"></span>\(text)</li>") }
        line("<li>gaps are empty; hover a box for exact times</li>")
        line("</ul>")
    }

    /// The text listing of `reel graph`, folded.
    mutating func writeListing() {
        line("<details class=\"listing\"><summary>Text listing (<code>reel graph</code>)</summary>")
        line("<pre>" + HTMLText.escape(graph.listing) + "</pre>")
        line("</details>")
    }
}
