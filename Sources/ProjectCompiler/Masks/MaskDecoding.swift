import CompositionGraph
import MediaTime

extension ProjectDecoder {
    /// A clip's `mask:`: exactly one of rect, ellipse, path or matte, with feather and invert.
    /// Reports sizes that are not positive and path data that does not parse.
    mutating func decodeMask(_ c: NodeCursor) -> MaskSpec? {
        let kinds = ["rect", "ellipse", "path", "matte"].filter { c[$0] != nil }
        guard kinds.count == 1 else {
            problems.report(kinds.isEmpty ? "a mask needs one of rect, ellipse, path or matte"
                                          : "a mask is one shape or one matte, but this one has \(kinds.joined(separator: " and "))",
                            at: c.origin, hint: kinds.isEmpty ? "for example mask: { ellipse: { x: 0, y: 0, width: \"100%\", height: \"100%\" } }" : "keep one")
            return nil
        }
        if kinds[0] != "matte", let mode = c["mode"] {
            problems.report("'mode' belongs to a matte, not to a \(kinds[0])", at: mode.origin, hint: "remove it, or use matte: NAME")
        }
        if kinds[0] != "matte", let from = c["from"] {
            problems.report("'from' belongs to a matte, not to a \(kinds[0])", at: from.origin, hint: "remove it, or use matte: NAME")
        }
        let source: MaskSpec.Source
        switch kinds[0] {
        case "rect":
            guard let box = maskBox(c["rect"]!) else { return nil }
            source = .rect(box, radius: animated(c["rect"]!["radius"], default: 0) { $0.pixels($1, "a corner radius", .nonNegative) })
        case "ellipse":
            guard let box = maskBox(c["ellipse"]!) else { return nil }
            source = .ellipse(box)
        case "path":
            let node = c["path"]!
            guard let dataNode = node.string != nil ? node : node["d"], let data = dataNode.string else { return nil }
            do {
                let path = try SVGPathData.parse(data)
                source = .path(path, x: animated(node["x"], default: .zero) { $0.length($1) }, y: animated(node["y"], default: .zero) { $0.length($1) })
            } catch {
                problems.report("path data, character \(error.column): \(error.message)", at: dataNode.origin,
                                hint: "write SVG path data such as \"M 100 100 L 500 100 L 300 400 Z\"")
                return nil
            }
        default:
            guard let name = c["matte"]!.string else { return nil }
            let channel = c["mode"]?.string.flatMap(MaskMatte.Channel.init(rawValue:)) ?? .luma
            source = .matte(name, from: c["from"].flatMap { time($0) }, channel: channel)
        }
        return MaskSpec(source: source, feather: animated(c["feather"], default: 0) { $0.pixels($1, "a feather", .nonNegative) },
                        invert: c["invert"]?.bool ?? false, origin: c[kinds[0]]!.origin)
    }

    /// x and y (default 0) and a width and height that are more than zero at every keyframe.
    private mutating func maskBox(_ c: NodeCursor) -> MaskBoxSpec? {
        var sizesArePositive = true
        func size(_ key: String, along side: Int) -> Animated<Length> {
            let value = animated(c[key], default: .fraction(.one)) { $0.length($1) }
            let values: [(Length, NodeCursor?)] = switch value {
            case .constant(let v): [(v, c[key])]
            case .keyframes(let frames): frames.map { ($0.value, c[key]) }
            }
            if let (bad, node) = values.first(where: { $0.0.resolved(against: side) <= 0 }), let node {
                let pixels = bad.resolved(against: side)
                let shown = pixels == pixels.rounded() ? String(Int(pixels)) : String(pixels)
                let text = !node.elements.isEmpty ? "\(shown) px at a keyframe" : node.string.map { "\($0): \(shown) px in this frame" } ?? node.scalarText ?? shown
                problems.report("the mask's \(key) must be more than zero (got \(text))", at: node.origin)
                sizesArePositive = false
            }
            return value
        }
        let box = MaskBoxSpec(x: animated(c["x"], default: .zero) { $0.length($1) }, y: animated(c["y"], default: .zero) { $0.length($1) },
                              width: size("width", along: frameSize.width), height: size("height", along: frameSize.height))
        return sizesArePositive ? box : nil
    }
}
