import CompositionGraph
import LookKernels
import Looks
import MediaTime
@testable import RenderEngine
import TestSupport

// Small helpers to write graphs and plans by hand in tests.

extension MediaReference {
    /// A reference to a real file with the facts the front end would record for it.
    static func probed(_ name: String, _ path: String) throws -> MediaReference {
        MediaReference(name: name, path: path, facts: try MediaFactsReader().facts(forFileAt: path))
    }
}

func layer(_ trackID: Int, size: PixelSize, fit: Fit = .contain, opacity: Animation = .constant(1),
           crop: CropAnimation = .none, transform: LayerTransform? = nil) -> LayerInstruction {
    LayerInstruction(trackID: trackID, fit: fit, transform: transform ?? .identity(for: size), opacity: opacity, crop: crop)
}

/// A solid Y′CbCr picture.
func solidFrame(width: Int, height: Int, _ color: YUVColor) -> YUVFrame {
    let f = YUVFrame(width: width, height: height)
    f.fill(color)
    return f
}

/// A plan of the given layers at time zero.
func plan(_ layers: [PlannedLayer], background: Color = .black) -> FramePlan {
    FramePlan(index: 0, time: .zero, background: background, layers: layers)
}

func planned(_ content: PlannedLayer.Content, _ instruction: LayerInstruction, source: PixelSize, render: PixelSize,
             at t: MediaTime = .zero, alpha: Int = 256) -> PlannedLayer {
    PlannedLayer(trackID: instruction.trackID, content: content, placement: LayerPlacement(layer: instruction, sourceSize: source, renderSize: render, at: t), alpha: alpha)
}

let testRef = MediaReference.fake("a", path: "/a.mp4", kind: .video)

/// A filter with constant `numbers` (by parameter name; the others at their defaults) and `others` (colours, LUT files).
func filter(_ look: Look, _ numbers: [String: Double] = [:], _ others: [String: LayerFilter.Value] = [:]) -> LayerFilter {
    var values = others.merging(numbers.mapValues { .number(.constant($0)) }) { $1 }
    for parameter in look.parameters where values[parameter.name] == nil {
        if case .number(let value, _) = parameter.kind { values[parameter.name] = .number(.constant(value)) }
    }
    return LayerFilter(look, values)
}
