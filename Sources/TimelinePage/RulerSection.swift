import MediaTime

extension PageWriter {
    /// Faint vertical lines at the labelled ticks, behind every row.
    mutating func writeGridLines() {
        line("<div class=\"grid\" aria-hidden=\"true\">")
        for tick in Ruler.ticks(scale) where tick.isMajor {
            line("<i style=\"left:\(scale.position(tick.time))%\"></i>")
        }
        line("</div>")
    }

    /// The time ruler: clock labels at the major ticks.
    mutating func writeRuler() {
        let step = Ruler.step(pixelsPerSecond: scale.pixelsPerSecond).step
        line("<div class=\"row ruler\">")
        head("time", "ticks every \(Decimal.short(step)) s")
        line("<div class=\"lane\">")
        for tick in Ruler.ticks(scale) {
            let left = scale.position(tick.time)
            if tick.isMajor {
                line("<span class=\"tick major\" style=\"left:\(left)%\">\(TimeNotation.clock(tick.time))</span>")
            } else {
                line("<span class=\"tick\" style=\"left:\(left)%\"></span>")
            }
        }
        line("</div>")
        line("</div>")
    }
}
