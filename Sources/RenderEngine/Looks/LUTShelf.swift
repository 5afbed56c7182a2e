import Foundation
import LookKernels
import LUTFiles
import Synchronization

/// The LUT files of a render, each read and prepared once (by path, size and modification
/// time, so an edited file is read again by a long-lived preview). Shared by the decoding threads.
final class LUTShelf: Sendable {
    private let prepared = Mutex<[String: PreparedLUT]>([:])

    static let shared = LUTShelf()

    func lut(at path: String) throws -> PreparedLUT {
        let key = try MediaDigests.stamp(of: path)
        if let known = prepared.withLock({ $0[key] }) { return known }
        let lut = PreparedLUT(try CubeLUT(contentsOf: path))
        prepared.withLock { $0[key] = lut }
        return lut
    }
}
