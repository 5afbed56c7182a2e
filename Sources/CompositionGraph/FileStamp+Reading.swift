import Foundation
import RegularFiles

extension FileStamp {
    /// The stamp of the regular file at `path`; a missing path, a folder or a FIFO is an error.
    public static func ofFile(_ path: String) throws(MediaFactsError) -> FileStamp {
        switch RegularFile.problem(at: path) {
        case .missing?: throw .missing(path: path)
        case let problem?: throw .unreadable(path: path, reason: problem.description)
        case nil: break
        }
        var status = stat()
        guard stat(path, &status) == 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        return FileStamp(size: Int64(status.st_size),
                         modified: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec))
    }
}
