/// What editly, Shotstack, Creatomate and gl-transitions call the named things Reel has under
/// other words, for did-you-mean (the schema's `x-aliases`). A name that is Reel's once case,
/// `-`, `_` and spaces are ignored (`wipeLeft`, `CrossZoom`, `easeOutExpo`) needs no entry.
public enum PeerNames {
    /// Transitions between clips.
    public static let transitions: [String: String] = withSpeeds([
        "fade": "crossfade", "dissolve": "crossfade", "cross-dissolve": "crossfade", "mix": "crossfade",
        "fadeblack": "fade-through-black", "fade-to-black": "fade-through-black", "dip-to-black": "fade-through-black",
        "fadewhite": "fade-through-white", "fade-to-white": "fade-through-white", "dip-to-white": "fade-through-white",
        "reveal": "wipe-right", "zoom": "simple-zoom", "circular-wipe": "circle-open", "squash": "squeeze",
        "carousel-left": "push-left", "carousel-right": "push-right", "carousel-up": "push-up", "carousel-down": "push-down",
        "directional-left": "directional", "directional-right": "directional", "directional-up": "directional", "directional-down": "directional",
    ])

    /// Clips' named moves: Shotstack's effects slide the picture, which Reel calls a pan.
    public static let motions: [String: String] = withSpeeds([
        "slide-left": "pan-left", "slide-right": "pan-right", "slide-up": "pan-up", "slide-down": "pan-down",
        "zoom": "zoom-in", "pan": "pan-left",
    ])

    /// Entrances: Shotstack's `transition.in`, Creatomate's animations.
    public static let entrances: [String: String] = withSpeeds([
        "reveal": "wipe-right", "zoom": "grow", "scale": "grow", "text-typewriter": "typewriter",
        "carousel-left": "slide-left", "carousel-right": "slide-right", "carousel-up": "slide-up", "carousel-down": "slide-down",
    ])

    /// Exits: Shotstack's `transition.out`.
    public static let exits: [String: String] = withSpeeds([
        "reveal": "wipe-right", "zoom": "shrink", "scale": "shrink", "text-typewriter": "typewriter",
        "carousel-left": "slide-left", "carousel-right": "slide-right", "carousel-up": "slide-up", "carousel-down": "slide-down",
    ])

    /// Fits: Shotstack's `crop` fills the frame and crops, as `cover`; CSS's `scale-down` is at most 1:1.
    public static let fits: [String: String] = ["crop": "cover", "stretch": "fill", "letterbox": "contain", "fit": "contain", "original": "none"]

    /// Shotstack's names come in slow and fast forms too (`fadeSlow`, `wipeLeftFast`): both mean the name without them.
    private static func withSpeeds(_ names: [String: String]) -> [String: String] {
        names.reduce(into: names) { all, entry in
            for speed in ["-slow", "-fast"] { all[entry.key + speed] = entry.value }
        }
    }
}
