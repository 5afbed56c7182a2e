internal import CFFmpeg

/// Access to an `AVFrame`'s fixed-size `data` / `linesize` arrays (C arrays import as tuples).
extension UnsafeMutablePointer where Pointee == AVFrame {
    var planeData: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?> {
        UnsafeMutableRawPointer(&pointee.data).assumingMemoryBound(to: UnsafeMutablePointer<UInt8>?.self)
    }

    var lineSizes: UnsafeMutablePointer<Int32> {
        UnsafeMutableRawPointer(&pointee.linesize).assumingMemoryBound(to: Int32.self)
    }
}
