import Foundation
import MediaTime
import TimelinePage

/// The review page of `reel diff --html`: one self-contained HTML file (no request leaves it)
/// with both timelines and their changed ranges, the causes, before/after stills of each
/// changed video range with a slider and a difference view, and the loudness of both sides
/// over each changed audio range.
public enum DiffPage {
    /// One compared moment: the frame shown then on each side, as PNG bytes (nil: that side
    /// has no frame there, its timeline is shorter).
    public struct Still: Sendable {
        public var time: MediaTime
        public var label: String
        public var old: [UInt8]?
        public var new: [UInt8]?

        public init(time: MediaTime, label: String, old: [UInt8]?, new: [UInt8]?) {
            self.time = time
            self.label = label
            self.old = old
            self.new = new
        }
    }

    /// What the page shows of one changed range besides its causes.
    public struct RangeMedia: Sendable {
        public var stills: [Still]
        /// Integrated loudness of each side's mix over the range, LUFS (nil inside: silent);
        /// nil: the range's audio does not change.
        public var loudness: (old: Double?, new: Double?)?

        public init(stills: [Still], loudness: (old: Double?, new: Double?)?) {
            self.stills = stills
            self.loudness = loudness
        }
    }

    /// One rendition's difference and, for each of its changed ranges, what the page shows of it.
    public struct Rendition: Sendable {
        public var name: String?
        public var difference: ProjectDifference
        /// `media[i]` goes with `difference.changed[i]`.
        public var media: [RangeMedia]

        public init(name: String?, difference: ProjectDifference, media: [RangeMedia]) {
            self.name = name
            self.difference = difference
            self.media = media
        }
    }

    /// The page of `renditions` (one, or each of a project's), `old` and `new` as given.
    public static func html(old: String, new: String, renditions: [Rendition]) -> String {
        let e = HTMLText.escape
        let title = "reel diff: \(old) → \(new)"
        var body = "<header><h1>\(e(title))</h1></header>"
        for (k, r) in renditions.enumerated() {
            let d = r.difference
            body += "<article class=\"rendition\">" + (r.name.map { "<h2 class=\"rendition-name\">rendition \(e($0))</h2>" } ?? "")
            body += "<p class=\"summary\">\(e(d.summary))</p>"
            if !d.everything.isEmpty { body += "<p class=\"everything\">Everything changes: \(codes(d.everything))</p>" }
            if !d.fileOnly.isEmpty { body += "<p class=\"file-only\">The file changes, not its frames or sound: \(codes(d.fileOnly))</p>" }
            body += timelines(d, anchor: "r\(k + 1)-range-")
            for (i, range) in d.changed.enumerated() {
                body += section("r\(k + 1)-range-\(i + 1)", range, r.media.indices.contains(i) ? r.media[i] : RangeMedia(stills: [], loudness: nil))
            }
            if d.isIdentical { body += "<p class=\"none\">No frame and no sound changes.</p>" }
            body += "</article>"
        }
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
            <title>\(e(title))</title><style>\(css)</style></head>
            <body>\(body)<script>\(script)</script></body></html>

            """
    }

    private static func codes(_ causes: [Cause]) -> String {
        causes.map { "<code>\(HTMLText.escape($0.path))</code>" + ($0.note.map { " " + HTMLText.escape($0) } ?? "") }.joined(separator: ", ")
    }

    /// Both sides' timelines on one scale (the longer one's), the changed ranges marked on each.
    private static func timelines(_ d: ProjectDifference, anchor: String) -> String {
        let scale = max(d.oldDuration, d.duration)
        func percent(_ t: MediaTime) -> String { String(format: "%.3f", t.seconds / scale.seconds * 100) }
        func bar(_ name: String, _ length: MediaTime) -> String {
            var marks = ""
            for (i, c) in d.changed.enumerated() {
                guard let shown = c.range.intersection(TimeRange(start: .zero, end: length)) else { continue }
                let kind = [c.video ? "video" : nil, c.audio ? "audio" : nil].compactMap { $0 }.joined(separator: " ")
                marks += "<a class=\"mark \(kind)\" href=\"#\(anchor)\(i + 1)\" style=\"left:\(percent(shown.start))%;width:\(percent(shown.duration))%\" "
                    + "title=\"\(TimeNotation.clock(c.range.start))–\(TimeNotation.clock(c.range.end))\"></a>"
            }
            if name == "old", let removed = d.removed {
                marks += "<span class=\"mark removed\" style=\"left:\(percent(removed.start))%;width:\(percent(removed.duration))%\" "
                    + "title=\"removed: \(TimeNotation.clock(removed.start))–\(TimeNotation.clock(removed.end))\"></span>"
            }
            return "<div class=\"timeline \(name)\"><span class=\"side\">\(name) · \(TimeNotation.clock(length))</span>"
                + "<div class=\"track\"><div class=\"length\" style=\"width:\(percent(length))%\"></div>\(marks)</div></div>"
        }
        let ticks = stride(from: 0, through: Int(scale.seconds.rounded(.down)), by: max(1, Int(scale.seconds / 10)))
            .map { "<i style=\"left:\(percent(MediaTime(seconds: $0)))%\">\($0) s</i>" }.joined()
        return "<section class=\"timelines\">\(bar("old", d.oldDuration))\(bar("new", d.duration))"
            + "<div class=\"ruler\">\(ticks)</div><p class=\"legend\"><span class=\"mark video\"></span> video changed "
            + "<span class=\"mark audio\"></span> audio changed <span class=\"mark removed\"></span> removed</p></section>"
    }

    private static func section(_ id: String, _ c: ProjectDifference.ChangedRange, _ media: RangeMedia) -> String {
        let e = HTMLText.escape
        let what = [c.video ? "video" : nil, c.audio ? "audio" : nil].compactMap { $0 }.joined(separator: " and ")
        var html = "<section class=\"range\" id=\"\(id)\"><h2>\(TimeNotation.clock(c.range.start))–\(TimeNotation.clock(c.range.end)) \(what)</h2>"
        html += "<ul class=\"causes\">" + c.causes.map { "<li><code>\(e($0.path))</code>\($0.note.map { " " + e($0) } ?? "")</li>" }.joined() + "</ul>"
        if !media.stills.isEmpty {
            html += "<div class=\"stills\">"
            for still in media.stills {
                html += "<figure class=\"compare\"><figcaption>\(e(still.label)) · \(TimeNotation.clock(still.time))</figcaption>"
                html += "<div class=\"frame\">" + picture(still.old, "before", "old") + picture(still.new, "after", "new") + "</div>"
                html += "<div class=\"controls\"><span>old</span><input type=\"range\" min=\"0\" max=\"100\" value=\"50\" aria-label=\"old and new\">"
                    + "<span>new</span><label><input type=\"checkbox\" class=\"difference\"> difference</label></div></figure>"
            }
            html += "</div>"
        }
        if let loudness = media.loudness {
            html += "<table class=\"loudness\"><tr><th>loudness of the mix</th><th>old</th><th>new</th></tr>"
                + "<tr><td>integrated over the range</td><td>\(lufs(loudness.old))</td><td>\(lufs(loudness.new))</td></tr></table>"
        }
        return html + "</section>"
    }

    private static func picture(_ png: [UInt8]?, _ role: String, _ side: String) -> String {
        guard let png else { return "<div class=\"\(role) absent\">no \(side) frame: the \(side) timeline ends earlier</div>" }
        return "<img class=\"\(role)\" alt=\"\(side)\" src=\"data:image/png;base64,\(Data(png).base64EncodedString())\">"
    }

    private static func lufs(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "silent" }
        return String(format: "%.1f LUFS", value)
    }

    static let css = """
        :root{color-scheme:dark;--ink:#e6e8ee;--muted:#8d93a3;--page:#121419;--video:#ff5c7a;--audio:#4cc2ff}
        body{margin:0;padding:0 20px 40px;background:var(--page);color:var(--ink);font:14px/1.4 system-ui,"DejaVu Sans",sans-serif}
        h1{font-size:20px;margin:16px 0 4px;overflow-wrap:anywhere}h2{font-size:16px;margin:0 0 6px;font-variant-numeric:tabular-nums}
        .summary{font-size:16px;margin:0 0 6px}.rendition-name{margin-top:18px;font-size:18px}.everything,.file-only{color:#f2b233}
        code{background:#ffffff14;padding:1px 4px;border-radius:3px}
        .timelines{margin:16px 0 24px;max-width:1100px}
        .timeline{display:flex;align-items:center;gap:10px;margin:6px 0}
        .side{width:150px;flex:none;color:var(--muted);font-variant-numeric:tabular-nums}
        .track{position:relative;flex:1;height:28px}
        .length{position:absolute;top:0;bottom:0;left:0;background:#2a2f3b;border-radius:4px}
        .mark{position:absolute;display:inline-block;border-radius:3px;opacity:.9}
        .track .mark{top:3px;bottom:3px;min-width:2px}
        .mark.video{background:var(--video)}.mark.audio{background:var(--audio)}
        .mark.removed{background:repeating-linear-gradient(45deg,#8d93a3 0 4px,transparent 4px 8px)}
        .track .mark.video.audio{background:linear-gradient(var(--video) 55%,var(--audio) 55%)}
        .legend .mark{position:static;width:12px;height:12px;vertical-align:-2px;margin-left:10px}
        .ruler{position:relative;height:18px;margin-left:160px;color:var(--muted);font-size:11px}
        .ruler i{position:absolute;font-style:normal;white-space:nowrap;border-left:1px solid #ffffff30;padding-left:3px}
        .range{border-top:1px solid #2e3340;padding:14px 0}
        .causes{margin:0 0 10px;padding-left:20px}
        .stills{display:flex;flex-wrap:wrap;gap:14px}
        .compare{margin:0;width:min(480px,100%)}
        figcaption{color:var(--muted);margin-bottom:4px;font-variant-numeric:tabular-nums}
        .frame{position:relative;line-height:0;background:#000}
        .frame img{width:100%;display:block}
        .frame .after{position:absolute;inset:0;clip-path:inset(0 0 0 50%)}
        .frame.difference .after{clip-path:none!important;mix-blend-mode:difference}
        .absent{min-height:120px;line-height:1.4;padding:20px;color:var(--muted);background:#1c1f27}
        .frame .after.absent{position:absolute}
        .controls{display:flex;align-items:center;gap:8px;margin-top:4px;color:var(--muted)}
        .controls input[type=range]{flex:1}
        .loudness{border-collapse:collapse;margin-top:10px}
        .loudness td,.loudness th{border:1px solid #2e3340;padding:4px 10px;text-align:left;font-variant-numeric:tabular-nums}
        """

    static let script = """
        for (const f of document.querySelectorAll('figure.compare')) {
          const frame = f.querySelector('.frame'), after = f.querySelector('.after');
          const slider = f.querySelector('input[type=range]'), diff = f.querySelector('input.difference');
          slider.addEventListener('input', () => { after.style.clipPath = 'inset(0 0 0 ' + slider.value + '%)'; });
          diff.addEventListener('change', () => { frame.classList.toggle('difference', diff.checked); slider.disabled = diff.checked; });
        }
        """
}
