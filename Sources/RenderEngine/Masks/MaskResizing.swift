import CompositionGraph

extension LayerMask {
    /// The same mask on a frame scaled by `x` horizontally and `y` vertically (a preset's
    /// render size): horizontal lengths scale by `x`, vertical ones by `y`, corner radius
    /// and feather by `y` (as `GraphResizing` scales lengths by the height ratio).
    func scaled(x kx: Double, y ky: Double) -> LayerMask {
        var m = self
        m.feather = feather.scaled(by: ky)
        func box(_ b: MaskBox) -> MaskBox {
            MaskBox(x: b.x.scaled(by: kx), y: b.y.scaled(by: ky), width: b.width.scaled(by: kx), height: b.height.scaled(by: ky))
        }
        switch source {
        case .rect(let b, let radius): m.source = .rect(box(b), cornerRadius: radius.scaled(by: ky))
        case .ellipse(let b): m.source = .ellipse(box(b))
        case .path(let path, let dx, let dy):
            let commands = path.commands.map { command -> MaskPath.Command in
                switch command {
                case .move(let x, let y): .move(x * kx, y * ky)
                case .line(let x, let y): .line(x * kx, y * ky)
                case .cubic(let x1, let y1, let x2, let y2, let x, let y): .cubic(x1 * kx, y1 * ky, x2 * kx, y2 * ky, x * kx, y * ky)
                case .close: .close
                }
            }
            m.source = .path(MaskPath(commands: commands), offsetX: dx.scaled(by: kx), offsetY: dy.scaled(by: ky))
        case .matte: break
        }
        return m
    }
}
