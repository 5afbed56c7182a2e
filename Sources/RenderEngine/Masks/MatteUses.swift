import CompositionGraph
import MediaTime

extension VideoComposition {
    /// A matte's reader: the layer's track's matte reader id, the file, and the end of the
    /// last instruction that reads it.
    struct MatteUse {
        var trackID: Int
        /// `MediaReference.sourceKey`.
        var path: String
        var end: MediaTime
    }

    /// Every matte the layers read, for keeping its reader open until its last use.
    var matteUses: [MatteUse] {
        instructions.flatMap { instruction in
            instruction.layers.compactMap { layer in
                layer.mask?.matteMedia.map {
                    MatteUse(trackID: MaskCoverage.matteTrackID(forLayerOn: layer.trackID), path: $0.sourceKey, end: instruction.timeRange.end)
                }
            }
        }
    }
}
