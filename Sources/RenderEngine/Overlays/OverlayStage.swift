import MediaTime

/// The seam between the composited video and the overlays: after a frame is composited,
/// the pipeline asks this stage to draw what shows at the frame's time over it.
protocol OverlayStage: AnyObject {
    /// Whether any overlay has visible pixels at `t` (when none does the frame is left as is,
    /// which lets a passed-through source frame reach the encoder untouched).
    func isVisible(at t: MediaTime) -> Bool
    /// Blends the overlays of time `t` over `frame` with `blender`.
    func draw(at t: MediaTime, into frame: YUVFrame, blender: SpriteBlender) throws
}
