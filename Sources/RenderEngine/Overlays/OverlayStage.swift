import MediaTime

/// The seam between the composited video and the overlays: after a frame is composited,
/// the pipeline asks this stage for the sprites that show at the frame's time and blends
/// them over it (into the Y′CbCr frame, or onto the canvas of an output that keeps alpha).
protocol OverlayStage: AnyObject {
    /// Whether any overlay has visible pixels at `t` (when none does the frame is left as is,
    /// which lets a passed-through source frame reach the encoder untouched).
    func isVisible(at t: MediaTime) -> Bool
    /// Hands each sprite of time `t` to `blend`, bottom first; a sprite's pixels are valid
    /// during its call only.
    func sprites(at t: MediaTime, _ blend: (SpriteView) -> Void) throws
}
