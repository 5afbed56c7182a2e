import CompositionGraph
import MediaFormat

/// An output whose background is not opaque (`transparent`, `#00000080`) keeps an alpha
/// channel from the background through every layer and overlay to the file. Its video is
/// fitted here: the container's first codec that carries alpha when none is given (ProRes
/// 4444 in MOV, VP9 in WebM and Matroska, RGBA PNG for sequences and APNG), that codec's
/// pixel format with alpha, and for ProRes a 4444 profile. A container or a codec that cannot
/// carry alpha is an error at the line that asks for it, before anything is rendered; the
/// render engine keeps alpha exactly when the pixel format has it.
extension ProjectDecoder {
    struct AlphaVideo {
        var codec: VideoCodec
        var pixelFormat: String
        var preset: String?
    }

    /// The video settings that keep the background's alpha, or nil when the background is
    /// opaque, the container is not known yet (`reel validate` without a path: the render fits
    /// it again to its file) or a problem was reported. `fitted` is the codec chosen so far.
    mutating func alphaVideo(_ fitted: VideoCodec, background node: NodeCursor?, in container: Container?,
                             given v: NodeCursor?) -> AlphaVideo? {
        guard let node, let text = node.string, let background = Color(parsing: text), !background.isOpaque,
              let container else { return nil }
        let codecs = container.alphaVideoCodecs
        let codec: VideoCodec
        if !target.presetCodecs, let given = v?["codec"] {
            // A codec the container cannot hold was reported already.
            guard given.string == fitted.rawValue else { return nil }
            guard codecs.contains(fitted) else {
                problems.report("\(fitted.rawValue) video has no alpha channel for the transparent background (\(text))", at: given.origin,
                                hint: codecs.isEmpty ? Self.alphaHint : "use \(codecs.map(\.rawValue).joined(separator: " or ")) in a "
                                    + "\(container.rawValue) file, or leave the codec out; or give the background an opaque colour")
                return nil
            }
            codec = fitted
        } else {
            guard let first = codecs.first else {
                let named = text.lowercased() == "transparent" ? "a transparent background" : "a transparent background (\(text))"
                let article = [.mp4, .m4a, .mp3, .ogg, .opus].contains(container) ? "an" : "a"
                problems.report("\(named) needs an output that keeps alpha, and \(article) \(container.rawValue) file cannot",
                                at: node.origin, hint: Self.alphaHint)
                return nil
            }
            codec = first
        }
        guard let pixelFormat = codec.alphaPixelFormat else { preconditionFailure("\(codec) is listed as carrying alpha") }
        if !target.presetCodecs, let given = v?["pixel_format"], let name = given.string, name != pixelFormat {
            problems.report("pixel format \(name) cannot keep the transparent background's alpha", at: given.origin,
                            hint: "leave it out: with a transparent background \(codec.rawValue) video is \(pixelFormat)")
        }
        guard codec == .prores else { return AlphaVideo(codec: codec, pixelFormat: pixelFormat, preset: nil) }
        let profiles = VideoCodec.proResAlphaProfiles
        if !target.presetCodecs, let given = v?["preset"], let name = given.string, !profiles.contains(name) {
            problems.report("ProRes profile \(name) has no alpha channel for the transparent background", at: given.origin,
                            hint: "use \(profiles.joined(separator: " or ")), or leave it out for 4444")
            return nil
        }
        return AlphaVideo(codec: codec, pixelFormat: pixelFormat, preset: target.presetCodecs ? profiles[0] : v?["preset"]?.string ?? profiles[0])
    }

    private static let alphaHint = "write \(Container.alphaOutputs) to keep alpha; or give the background an opaque colour (#rrggbb)"
}
