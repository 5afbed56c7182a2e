/// An overlay sprite as the frame compositor sees it: premultiplied BGRA pixels (the
/// overlay module's `OverlaySprite`, Cairo's ARGB32 byte order on little-endian machines)
/// placed with their top left pixel at an integer origin, faded by an opacity factor.
///
/// `owner` is the object holding the pixels. The overlay module never changes pixels that
/// someone else still references, and the blender keeps a reference to every owner it has
/// converted, so one owner always means the same pixels and its Y′CbCrA conversion is
/// reused from frame to frame.
struct SpriteView {
    var owner: AnyObject
    var width: Int
    var height: Int
    /// Bytes per row.
    var stride: Int
    /// Valid for the duration of the blend call only.
    var pixels: UnsafeRawPointer
    var originX: Int
    var originY: Int
    /// 0…1.
    var opacity: Double
}
