internal import CFFmpeg

/// Access to an `AVFrame`'s fixed-size `data` / `linesize` arrays (C arrays import as tuples),
/// addressed by field offset so the pointers are the frame's own memory.
extension UnsafeMutablePointer where Pointee == AVFrame {
    var planeData: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?> {
        (UnsafeMutableRawPointer(self) + MemoryLayout<AVFrame>.offset(of: \AVFrame.data)!)
            .assumingMemoryBound(to: UnsafeMutablePointer<UInt8>?.self)
    }

    var lineSizes: UnsafeMutablePointer<Int32> {
        (UnsafeMutableRawPointer(self) + MemoryLayout<AVFrame>.offset(of: \AVFrame.linesize)!)
            .assumingMemoryBound(to: Int32.self)
    }
}
