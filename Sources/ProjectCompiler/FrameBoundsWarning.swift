import CompositionGraph
import MediaTime
import PortableMath

extension CompileSession {
    /// Text (or its box) that runs outside the frame at every moment it is placed still or
    /// reaches a keyframe: cut off, whatever the animation does. A slide-in that starts
    /// outside the frame and ends inside it is no mistake, so only a layer that is never whole
    /// inside is reported.
    mutating func warnIfOutsideTheFrame(_ layer: OverlayLayer, origin: Origin) {
        guard case .text(let text, let style) = layer.content,
              let footprint = fonts?.footprint(of: text, style: style, width: layer.width, height: layer.height) else { return }
        let geometry = [layer.positionX, layer.positionY, layer.anchorX, layer.anchorY, layer.scale, layer.rotation]
        let times = Set([layer.timeRange.start] + geometry.flatMap { $0.keyframes.map(\.time) }.filter { layer.timeRange.contains($0) })
        let overhangs = times.sorted().map { (time: $0, pixels: overhang(layer, footprint, at: $0)) }
        guard let least = overhangs.min(by: { $0.pixels.total < $1.pixels.total }), least.pixels.total >= 1 else { return }
        let sides = least.pixels.sides.map { "\(Int($0.pixels.rounded())) px on the \($0.side)" }.joined(separator: ", ")
        problems.warn("this text runs outside the frame (\(size.width)x\(size.height)) by \(sides): it is cut off",
                      at: origin, hint: "make it smaller (style.size, or fit: shrink with a box), give it a width to wrap at, or move it")
    }

    /// How far the layer's footprint reaches past each edge of the frame at `t`.
    private func overhang(_ layer: OverlayLayer, _ f: TextFootprint, at t: MediaTime) -> (total: Double, sides: [(side: String, pixels: Double)]) {
        let (unitCosine, unitSine) = PortableMath.cosineAndSine(degrees: layer.rotation.value(at: t))
        let scale = layer.scale.value(at: t)
        let cosine = unitCosine * scale, sine = unitSine * scale
        let ax = layer.anchorX.value(at: t) * f.boxWidth, ay = layer.anchorY.value(at: t) * f.boxHeight
        let x = layer.positionX.value(at: t), y = layer.positionY.value(at: t)
        // The renderer's placement (`LayerPlacement.transform`): the anchor lands on the position.
        let corners = [(f.inkX, f.inkY), (f.inkX + f.inkWidth, f.inkY), (f.inkX, f.inkY + f.inkHeight), (f.inkX + f.inkWidth, f.inkY + f.inkHeight)]
            .map { (px, py) in (x + cosine * (px - ax) - sine * (py - ay), y + sine * (px - ax) + cosine * (py - ay)) }
        let w = Double(size.width), h = Double(size.height)
        let sides = [("left", -(corners.map(\.0).min() ?? 0)), ("right", (corners.map(\.0).max() ?? 0) - w),
                     ("top", -(corners.map(\.1).min() ?? 0)), ("bottom", (corners.map(\.1).max() ?? 0) - h)]
            .filter { $0.1 >= 1 }.map { (side: $0.0, pixels: $0.1) }
        return (sides.reduce(0) { $0 + $1.pixels }, sides)
    }
}
