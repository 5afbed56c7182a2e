import Foundation

extension FileStamp {
    /// The stamp of the regular file at `path`; a missing path or a folder is an error.
    public static func ofFile(_ path: String) throws(MediaFactsError) -> FileStamp {
        var status = stat()
        guard stat(path, &status) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { throw .missing(path: path) }
            throw .unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw .unreadable(path: path, reason: "it is a folder or a device, not a file") }
        return FileStamp(size: Int64(status.st_size),
                         modified: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec))
    }
}
