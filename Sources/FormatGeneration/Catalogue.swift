import CompositionGraph
import Looks
import MediaFormat
import ProjectCompiler

/// One list of named things in the project format, as its Swift declaration has it: what one
/// of them is called in messages, where it is declared, and the names in order.
struct Catalogue: Sendable {
    /// `transition`, `look`.
    let noun: String
    /// The declaration: `Transition.Kind (Sources/ProjectCompiler/Project.swift)`.
    let source: String
    let names: [String]
    /// Other tools' names for some of them (`PeerNames`), for did-you-mean.
    var aliases: [String: String] = [:]

    static let looks = Catalogue(noun: "look", source: "Look.all (Sources/Looks)", names: Look.all.map(\.name))
    static let transitions = Catalogue(noun: "transition", source: "Transition.Kind (Sources/ProjectCompiler/Project.swift) and TransitionCatalogue (Sources/TransitionKernels)",
                                       names: Transition.Kind.allCases.map(\.rawValue), aliases: PeerNames.transitions)
    static let easings = Catalogue(noun: "easing", source: "Easing.named (Sources/CompositionGraph/Animation.swift)", names: Easing.named.map(\.name))
    static let entrances = Catalogue(noun: "entrance", source: "NamedAnimation.all (Sources/ProjectCompiler/NamedAnimations.swift)",
                                     names: NamedAnimation.names(.enter), aliases: PeerNames.entrances)
    static let exits = Catalogue(noun: "exit", source: entrances.source, names: NamedAnimation.names(.exit), aliases: PeerNames.exits)
    static let motions = Catalogue(noun: "motion", source: entrances.source, names: NamedAnimation.names(.motion), aliases: PeerNames.motions)
    static let namedAnimations = Catalogue(noun: "named animation", source: entrances.source,
                                           names: NamedAnimation.all.map { "\($0.key.rawValue): \($0.name)" })
    static let fits = Catalogue(noun: "fit", source: "Fit (Sources/CompositionGraph/Graph.swift)", names: Fit.allCases.map(\.rawValue), aliases: PeerNames.fits)
    static let maskModes = Catalogue(noun: "mask mode", source: "MaskMatte.Channel (Sources/CompositionGraph/LayerMask.swift)",
                                     names: MaskMatte.Channel.allCases.map(\.rawValue))
    static let containers = Catalogue(noun: "container", source: "Container (Sources/MediaFormat/MediaFormat.swift)",
                                      names: Container.allCases.map(\.rawValue))
    static let videoCodecs = Catalogue(noun: "video codec", source: "VideoCodec (Sources/MediaFormat/MediaFormat.swift)",
                                       names: VideoCodec.allCases.map(\.rawValue))
    static let presets = Catalogue(noun: "preset", source: "VideoCodec.presets (Sources/MediaFormat/MediaFormat.swift)",
                                   names: VideoCodec.allCases.flatMap(\.presets).reduce(into: []) { if !$0.contains($1) { $0.append($1) } })
    static let audioCodecs = Catalogue(noun: "audio codec", source: "AudioCodec (Sources/MediaFormat/MediaFormat.swift)",
                                       names: AudioCodec.allCases.map(\.rawValue))
}

/// `a, b, or c`; `a or b`.
func listed(_ items: [String], or word: String = "or") -> String {
    guard items.count > 2 else { return items.joined(separator: " \(word) ") }
    return items.dropLast().joined(separator: ", ") + ", \(word) " + items[items.count - 1]
}
