import CompositionGraph
import Foundation
import MediaTime

/// Writes the page into one string, section by section; the sections are extensions in the
/// files beside this one. Everything is appended in graph order, so the bytes are stable.
struct PageWriter {
    let graph: CompositionGraph
    let scale: TimelineScale
    /// The ducking gain of ducked tracks, by track ID.
    let ducking: [Int: Animation]
    let thumbnail: (MediaReference, MediaTime) -> Thumbnail?
    private(set) var html = ""

    init(graph: CompositionGraph, ducking: [Int: Animation] = [:], thumbnail: @escaping (MediaReference, MediaTime) -> Thumbnail?) {
        self.graph = graph
        self.scale = TimelineScale(graph: graph)
        self.ducking = ducking
        self.thumbnail = thumbnail
    }

    mutating func line(_ text: String) {
        html += text
        html += "\n"
    }

    mutating func writeDocument(title: String) {
        line("<!DOCTYPE html>")
        line("<html lang=\"en\">")
        line("<head>")
        line("<meta charset=\"utf-8\">")
        line("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        line("<meta name=\"generator\" content=\"reel graph --html\">")
        line("<title>\(HTMLText.escape(title)) · timeline</title>")
        line("<style>")
        html += PageStyle.css
        line("</style>")
        line("</head>")
        line("<body>")
        writeHeader(title: title)
        line("<div class=\"scroll\">")
        line("<div class=\"board\" style=\"min-width:\(PageStyle.headWidth + scale.minimumWidth + PageStyle.rightPadding)px\">")
        writeGridLines()
        writeRuler()
        writeInstructions()
        writeVideoTracks()
        writeAudioTracks()
        writeOverlays()
        line("</div>")
        line("</div>")
        writeLegend()
        writeListing()
        line("</body>")
        line("</html>")
    }

    /// The head cell of a row: a name and a smaller second line.
    mutating func head(_ name: String, _ detail: String) {
        line("<div class=\"head\"><b>\(HTMLText.escape(name))</b><small>\(HTMLText.escape(detail))</small></div>")
    }

    /// A file's name without its folder (the page does not depend on where the project lives).
    func fileName(_ reference: MediaReference) -> String { URL(fileURLWithPath: reference.path).lastPathComponent }

    /// `00:00:01.000–00:00:11.000`.
    func clockSpan(_ range: TimeRange) -> String {
        TimeNotation.clock(range.start) + "–" + TimeNotation.clock(range.end)
    }

    /// `00:00:01.000–00:00:11.000 [1, 11)`: clock and exact seconds, for hover details.
    func exactSpan(_ range: TimeRange) -> String { clockSpan(range) + " " + range.description }

    /// A box on a lane over `range`: a name line (HTML), an optional picture, and a second
    /// line of text; `details` show on hover.
    func box(_ classes: String, _ range: TimeRange, style: String = "", details: [String], name: String,
             picture: String = "", second: String) -> String {
        "<div class=\"box \(classes)\" style=\"\(scale.boxStyle(range))\(style)\" title=\"\(tooltip(details))\">"
            + "<div class=\"name\">\(name)</div>\(picture)<span class=\"range\">\(HTMLText.escape(second))</span></div>"
    }

    /// An `<img>` of the thumbnail, or nothing.
    func image(_ reference: MediaReference, at time: MediaTime, class name: String) -> String {
        guard let picture = thumbnail(reference, time) else { return "" }
        return "<img class=\"\(name)\" src=\"\(HTMLText.escape(picture.dataURI))\" alt=\"\">"
    }
}

/// Hover details: lines joined for a `title` attribute, each escaped.
func tooltip(_ lines: [String]) -> String { lines.map(HTMLText.escape).joined(separator: "&#10;") }
