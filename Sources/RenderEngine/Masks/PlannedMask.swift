import CompositionGraph
import MediaTime
import OverlayRendering

/// A layer's mask at one frame time: a shape with its parameters evaluated, or the matte
/// picture to read.
enum PlannedMask: Sendable, Equatable {
    case outline(MaskOutline, feather: Double, invert: Bool)
    case matte(MediaReference, sourceTime: MediaTime, channel: MaskMatte.Channel, feather: Double, invert: Bool)

    init(_ mask: LayerMask, at t: MediaTime) {
        let feather = max(0, mask.feather.value(at: t))
        switch mask.source {
        case .rect(let box, let radius):
            self = .outline(.rect(x: box.x.value(at: t), y: box.y.value(at: t), width: box.width.value(at: t),
                                  height: box.height.value(at: t), cornerRadius: radius.value(at: t)), feather: feather, invert: mask.invert)
        case .ellipse(let box):
            self = .outline(.ellipse(x: box.x.value(at: t), y: box.y.value(at: t), width: box.width.value(at: t), height: box.height.value(at: t)),
                            feather: feather, invert: mask.invert)
        case .path(let path, let x, let y):
            self = .outline(.path(path, offsetX: x.value(at: t), offsetY: y.value(at: t)), feather: feather, invert: mask.invert)
        case .matte(let matte):
            self = .matte(matte.media, sourceTime: matte.sourceTime(at: t), channel: matte.channel, feather: feather, invert: mask.invert)
        }
    }
}
