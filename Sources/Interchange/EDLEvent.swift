import MediaTime

/// One event of a CMX 3600 EDL: its line (`002  TST  V  D  010  src-in src-out rec-in rec-out`)
/// in frame counts, and the notes that follow it (`* FROM CLIP NAME:`, `M2`, `AUD`, `* LOC:`…).
struct EDLEvent {
    var number: String
    var reel: String
    var video: Bool
    /// Audio channels 1…4.
    var audio: [Int]
    /// `C`, `D`, `W001`, `K`…
    var transition: String
    /// The transition's length in frames (D, W, K).
    var transitionFrames: Int64?
    var sourceIn: Int64, sourceOut: Int64, recordIn: Int64, recordOut: Int64
    var line: Int
    var clipName: String?
    var toClipName: String?
    var sourceFile: String?
    /// From `M2`: frames per second the source plays at, with its line.
    var motion: (fps: Rational, line: Int)?
    var locators: [(frames: Int64, color: String?, name: String, line: Int)] = []
    /// Notes Reel cannot act on (colour decisions, effects), with their lines.
    var unsupported: [(note: String, line: Int)] = []

    var isZeroLength: Bool { sourceIn == sourceOut && recordIn == recordOut }
    var recordFrames: Int64 { recordOut - recordIn }
}

extension EDLEvent {
    /// The channel field: `V`, `A`, `A2`, `AA`, `B` (picture and first sound), `AA/V`, `A2/V`, `NONE`.
    static func channels(_ field: String) -> (video: Bool, audio: [Int])? {
        if field == "B" { return (true, [1]) }
        var video = false
        var audio: [Int] = []
        for part in field.split(separator: "/") {
            switch part {
            case "V": video = true
            case "A", "A1": audio.append(1)
            case "AA": audio += [1, 2]
            case "A2", "A3", "A4": audio.append(Int(String(part.dropFirst()))!)
            case "NONE": break
            default: return nil
            }
        }
        return video || !audio.isEmpty || field == "NONE" ? (video, audio) : nil
    }

    /// `D` dissolves, `W001` wipes, `K` keys: the transitions that blend the previous source into this one.
    var isTransition: Bool { transition != "C" }
}
