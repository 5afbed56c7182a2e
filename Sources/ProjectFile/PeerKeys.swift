/// The keys editly, Shotstack, Creatomate and Remotion users type first, where Reel says it
/// another way: an unknown key among them is answered with Reel's key (did-you-mean) or with
/// Reel's way when it has no one key for it. Values are PeerNames' (ProjectCompiler), in the
/// schema's `x-aliases`.
import Foundation

enum PeerKeys {
    /// What is said for `key` where the schema refused it, by the kind of item at `path`
    /// (a clip of a track, an overlay): Reel's key, if one stands for it, and why.
    static func answer(for key: String, at path: String) -> (key: String?, hint: String)? {
        // The item's path, with or without the key.
        let itemPath = path.hasSuffix("." + key) ? String(path.dropLast(key.count + 1)) : path
        let item = itemPath.range(of: #"(clips|overlays)\[\d+\]$"#, options: .regularExpression).map { String(itemPath[$0].prefix { $0 != "[" }) }
        switch (item, key) {
        case (_, "length"): return ("duration", "Shotstack's and Creatomate's length is Reel's duration (a clip can end at its source's to: instead)")
        case (_, "start"), (_, "time"): return ("at", "a place on the timeline is at: (a clip's from: is where its source starts)")
        case ("clips", "src"), ("clips", "source"), ("clips", "asset"):
            return ("media", "name the file once under media: (media: { intro: intro.mp4 }) and write media: intro on the clip; a colour clip is color:, a shader clip glsl:")
        case ("overlays", "src"), ("overlays", "source"), ("overlays", "asset"):
            return (nil, "name the file once under media: and write image: name (or svg: name) on the overlay; a text overlay is text:")
        case ("clips", "effect"): return ("motion", "Shotstack's effect is Reel's motion: effect: zoomIn is motion: zoom-in")
        case ("overlays", "effect"), (_, "animation"), (_, "animations"):
            return ("enter", "an overlay moves in with enter: and out with exit: (slide-left, pop, wipe-right…), or with keyframes")
        case ("clips", "trim"): return ("from", "Shotstack's trim is Reel's from: (where the source starts)")
        case ("overlays", "volume"): return (nil, "an overlay has no sound: play sound on an audio track (audio:) or from a clip, whose volume: sets it")
        case (_, "filter"): return ("filters", "filters: is a list of looks: filters: [{ type: color, saturation: 0 }]")
        case (_, "kind") where path.hasSuffix(".transition"):
            return (nil, "a transition item names its kind as the value of transition: and takes its parameters beside it: "
                + "- { transition: circle-open, duration: 1s, smoothness: 0.3 } (kind: is a default_transition's)")
        default: return nil
        }
    }
}
