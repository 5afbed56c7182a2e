import MediaTime

/// A point of the frame (or of a layer's box) named as Shotstack names its positions:
/// `center`, `top-left`, `top`, `top-right`, `left`, `right`, `bottom-left`, `bottom`,
/// `bottom-right`.
enum NamedPoint: String, CaseIterable {
    case center, topLeft = "top-left", top, topRight = "top-right", left, right, bottomLeft = "bottom-left", bottom, bottomRight = "bottom-right"

    /// Fractions of the width (from the left) and the height (from the top).
    var fractions: (x: Rational, y: Rational) {
        let x: Rational = switch self {
        case .topLeft, .left, .bottomLeft: .zero
        case .center, .top, .bottom: Rational(1, 2)
        case .topRight, .right, .bottomRight: .one
        }
        let y: Rational = switch self {
        case .topLeft, .top, .topRight: .zero
        case .center, .left, .right: Rational(1, 2)
        case .bottomLeft, .bottom, .bottomRight: .one
        }
        return (x, y)
    }

    var point: Point2D { Point2D(x: .fraction(fractions.x), y: .fraction(fractions.y)) }
}

extension ProjectDecoder {
    /// `position:` as a point (`[x, y]`, or keyframes of it), or as an offset from a named point
    /// of the frame, `{ from: bottom-right, offset: ["-24px", "-24px"] }` (x to the right, y
    /// down; the offset may be keyframed). The second value is the anchor a named point gives
    /// the layer when it names none: the same point of its box, so the layer's bottom-right
    /// corner sits 24 px in from the frame's.
    mutating func position(_ c: NodeCursor?) -> (position: Animated<Point2D>?, anchor: Point2D?) {
        guard let c else { return (nil, nil) }
        guard let from = c["from"] else { return (animated(c, default: NamedPoint.center.point) { $0.point($1) }, nil) }
        guard let named = from.string.flatMap(NamedPoint.init(rawValue:)) else { return (nil, nil) }
        let offset = animated(c["offset"], default: Point2D(x: .zero, y: .zero)) { $0.point($1) }
        func placed(_ o: Point2D) -> Point2D? {
            guard let x = named.point.x.adding(o.x), let y = named.point.y.adding(o.y) else {
                problems.report("the offset is too large to add exactly", at: c.origin)
                return nil
            }
            return Point2D(x: x, y: y)
        }
        switch offset {
        case .constant(let o):
            return (placed(o).map { .constant($0) }, named.point)
        case .keyframes(let frames):
            var moved: [ProjectKeyframe<Point2D>] = []
            for var frame in frames {
                guard let p = placed(frame.value) else { return (nil, named.point) }
                frame.value = p
                moved.append(frame)
            }
            return (.keyframes(moved), named.point)
        }
    }
}
