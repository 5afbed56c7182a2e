import CompositionGraph

extension CompositionGraph {
    /// The same picture at another render size: positions and pixel sizes scale by the
    /// height ratio (the width ratio for the horizontal ones), `fit` boxes follow by
    /// themselves, and layers shown 1:1 (`fit: none`) and overlays scale with the frame.
    func resized(to size: PixelSize) -> CompositionGraph {
        let old = videoComposition.renderSize
        let kx = Double(size.width) / Double(old.width), ky = Double(size.height) / Double(old.height)
        let k = ky
        var g = self
        g.videoComposition.renderSize = size
        g.videoComposition.instructions = videoComposition.instructions.map { instruction in
            var i = instruction
            i.layers = instruction.layers.map { layer in
                var l = layer
                l.transform.positionX = layer.transform.positionX.scaled(by: kx)
                l.transform.positionY = layer.transform.positionY.scaled(by: ky)
                if layer.fit == .none {
                    l.transform.scaleX = layer.transform.scaleX.scaled(by: k)
                    l.transform.scaleY = layer.transform.scaleY.scaled(by: k)
                }
                l.mask = layer.mask?.scaled(x: kx, y: ky)
                return l
            }
            return i
        }
        g.overlays = overlays.map { overlay in
            var o = overlay
            o.positionX = overlay.positionX.scaled(by: kx)
            o.positionY = overlay.positionY.scaled(by: ky)
            o.scale = overlay.scale.scaled(by: k)
            return o
        }
        return g
    }
}
