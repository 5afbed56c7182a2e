import Foundation
import Looks

/// The LUT files of a render, each read and prepared once (by path, size and modification
/// time, so an edited file is read again by a long-lived preview). Shared by the decoding threads.
final class LUTShelf: @unchecked Sendable {
    private let lock = NSLock()
    private var prepared: [String: PreparedLUT] = [:]

    static let shared = LUTShelf()

    func lut(at path: String) throws -> PreparedLUT {
        let key = try MediaDigests.stamp(of: path)
        if let known = lock.withLock({ prepared[key] }) { return known }
        let lut = PreparedLUT(try CubeLUT(contentsOf: path))
        lock.withLock { prepared[key] = lut }
        return lut
    }
}
