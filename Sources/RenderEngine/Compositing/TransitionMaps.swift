import CompositionGraph
import Foundation
import OverlayRendering
import TransitionKernels

/// The pictures transitions take as parameters (`luma`'s `luminance_map`), drawn once a
/// process at the frame's size, stretched as gl-transitions stretches a texture over the
/// frame, and kept by file and size. `prepare` draws every one before the first frame, so a
/// picture that cannot be read stops the render at its start, naming the file.
final class TransitionMaps: @unchecked Sendable {
    static let shared = TransitionMaps()

    private struct Key: Hashable {
        var sourceKey: String
        var size: PixelSize
    }

    private let lock = NSLock()
    private var pictures: [Key: TransitionPicture] = [:]

    /// Draws every picture the graph's transitions (and its nested projects') take.
    static func prepare(_ graph: CompositionGraph) throws(RenderError) {
        let size = graph.videoComposition.renderSize
        for instruction in graph.videoComposition.instructions {
            for mix in instruction.transitions.compactMap(\.mix) {
                for case .picture(let ref) in mix.parameters.values { _ = try shared.picture(of: ref, size: size) }
            }
        }
        for ref in graph.mediaReferences { if let nested = ref.nested { try prepare(nested.graph) } }
    }

    /// `ref` stretched over `size`, premultiplied R′G′B′A floats.
    func picture(of ref: MediaReference, size: PixelSize) throws(RenderError) -> TransitionPicture {
        let key = Key(sourceKey: ref.sourceKey, size: size)
        lock.lock()
        defer { lock.unlock() }
        if let known = pictures[key] { return known }
        let still: StillPicture
        do {
            still = try StillPicture(path: ref.path)
        } catch {
            throw .media(path: ref.path, sourceTime: .zero, timelineTime: .zero, reason: "\(error)")
        }
        let stride = 4 * size.width
        var bgra = [UInt8](repeating: 0, count: stride * size.height)
        bgra.withUnsafeMutableBytes { still.draw(into: $0.baseAddress!, width: size.width, height: size.height, stride: stride) }
        let picture = TransitionPicture(width: size.width, height: size.height)
        for i in 0..<(size.width * size.height) {
            let p = 4 * i
            picture.pixels[i] = SIMD4(Float(bgra[p + 2]), Float(bgra[p + 1]), Float(bgra[p]), Float(bgra[p + 3])) / 255
        }
        pictures[key] = picture
        return picture
    }
}
