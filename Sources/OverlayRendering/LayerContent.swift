internal import CCairo
import CompositionGraph

/// What one layer draws, in its box's coordinates: (0, 0) is the box's top-left corner and
/// (`boxWidth`, `boxHeight`) its bottom-right; the layer's placement maps the box into the frame.
protocol LayerContent: AnyObject {
    var boxWidth: Double { get }
    var boxHeight: Double { get }
    /// Everything `draw` may touch, in box coordinates (can exceed the box: strokes, overhangs).
    var inkBounds: Rect { get }
    /// A drop shadow cast by everything the layer draws, if any.
    var shadow: Shadow? { get }
    /// Draws with `cr`'s current transform mapping box coordinates to pixels.
    func draw(_ cr: OpaquePointer)
}

/// Builds the content of `layer`, loading files and laying out text once.
enum LayerContentFactory {
    static func make(_ layer: OverlayLayer, fonts: FontCatalog) throws(OverlayError) -> any LayerContent {
        switch layer.content {
        case .text(let text, let style):
            return try TextContent(text: text, style: style, layerWidth: layer.width, layerHeight: layer.height, fonts: fonts)
        case .caption(let state):
            return try CaptionContent(state: state, fonts: fonts)
        case .image(let media), .svg(let media):
            return PictureContent(try StillPicture(path: media.path).picture, layer: layer)
        case .rect(let style):
            return try ShapeContent(style: style, isEllipse: false, width: layer.width, height: layer.height)
        case .ellipse(let style):
            return try ShapeContent(style: style, isEllipse: true, width: layer.width, height: layer.height)
        }
    }
}
