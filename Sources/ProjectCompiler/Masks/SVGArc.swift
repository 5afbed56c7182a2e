import CompositionGraph
import Foundation
import PortableMath

/// An SVG elliptical arc (`A rx ry rotation large-arc sweep x y`) as cubic Béziers, by the
/// SVG specification's endpoint-to-centre conversion (appendix B.2.4), in pieces of at most
/// a quarter turn.
enum SVGArc {
    static func cubics(from start: (x: Double, y: Double), to end: (x: Double, y: Double), radii: (x: Double, y: Double),
                       rotation degrees: Double, largeArc: Bool, sweep: Bool) -> [MaskPath.Command] {
        if start == end { return [] }
        var rx = abs(radii.x), ry = abs(radii.y)
        guard rx > 0, ry > 0 else { return [.line(end.x, end.y)] }
        let phi = degrees * Double.pi / 180, cosPhi = PortableMath.cos(phi), sinPhi = PortableMath.sin(phi)
        let dx = (start.x - end.x) / 2, dy = (start.y - end.y) / 2
        let x1 = cosPhi * dx + sinPhi * dy, y1 = -sinPhi * dx + cosPhi * dy
        // Radii too small to reach: scaled up just enough.
        let lambda = x1 * x1 / (rx * rx) + y1 * y1 / (ry * ry)
        if lambda > 1 { rx *= lambda.squareRoot(); ry *= lambda.squareRoot() }
        let numerator = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
        let denominator = rx * rx * y1 * y1 + ry * ry * x1 * x1
        let coefficient = (largeArc != sweep ? 1.0 : -1.0) * max(0, numerator / denominator).squareRoot()
        let cx1 = coefficient * rx * y1 / ry, cy1 = -coefficient * ry * x1 / rx
        let cx = cosPhi * cx1 - sinPhi * cy1 + (start.x + end.x) / 2
        let cy = sinPhi * cx1 + cosPhi * cy1 + (start.y + end.y) / 2
        func angle(_ ux: Double, _ uy: Double, _ vx: Double, _ vy: Double) -> Double { PortableMath.atan2(ux * vy - uy * vx, ux * vx + uy * vy) }
        let ux = (x1 - cx1) / rx, uy = (y1 - cy1) / ry, vx = (-x1 - cx1) / rx, vy = (-y1 - cy1) / ry
        let theta = angle(1, 0, ux, uy)
        var delta = angle(ux, uy, vx, vy)
        if !sweep && delta > 0 { delta -= 2 * Double.pi }
        if sweep && delta < 0 { delta += 2 * Double.pi }
        // A point of the unit circle on the ellipse.
        func place(_ px: Double, _ py: Double) -> (Double, Double) {
            (cx + rx * cosPhi * px - ry * sinPhi * py, cy + rx * sinPhi * px + ry * cosPhi * py)
        }
        let pieces = max(1, Int((abs(delta) / (Double.pi / 2)).rounded(.up)))
        let step = delta / Double(pieces), handle = 4.0 / 3 * PortableMath.tan(step / 4)
        var commands: [MaskPath.Command] = []
        for i in 0..<pieces {
            let a = theta + Double(i) * step, b = a + step
            let c1 = place(PortableMath.cos(a) - handle * PortableMath.sin(a), PortableMath.sin(a) + handle * PortableMath.cos(a))
            let c2 = place(PortableMath.cos(b) + handle * PortableMath.sin(b), PortableMath.sin(b) - handle * PortableMath.cos(b))
            let p = i == pieces - 1 ? end : place(PortableMath.cos(b), PortableMath.sin(b))
            commands.append(.cubic(c1.0, c1.1, c2.0, c2.1, p.0, p.1))
        }
        return commands
    }
}
