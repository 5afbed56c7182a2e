#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A temporary folder a writer fills on the way to its output and removes when done:
/// `.NAME.partials` in the output's folder, one per output (a render's segments, when it
/// keeps no cache).
///
/// It is claimed as a `PartialFile` is: its writer holds an exclusive `flock` on the folder
/// from claiming it until it has removed it. A second writer of the same output is refused at
/// once (`FileWriteError.Kind.busy`, naming the process that holds it) and never touches the
/// folder, so the first finishes with everything it put there. A folder a killed writer left
/// is nobody's: the next writer takes it over with what is in it.
public final class PartialFolder {
    /// The output the folder is filled for.
    public let output: String
    /// The folder: `.NAME.partials` beside `output`.
    public let path: String
    private var descriptor: Int32

    /// `.NAME.partials` in the folder of `output`.
    public static func path(for output: String) -> String { PartialFile.path(for: output) + "s" }

    /// Makes (or takes over a stale) temporary folder for `output` and locks it, making the
    /// output's folder first if it is missing. Throws when it cannot (`cannotCreate`), or when
    /// another live writer holds it (`busy`).
    public init(output: String) throws(FileWriteError) {
        let path = Self.path(for: output)
        self.output = output
        self.path = path
        descriptor = try PartialFile.lock(path, for: output, as: "temporary folder") {
            guard mkdir(path, 0o777) == 0 || errno == EEXIST else { return -1 }
            return open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
        }
    }

    deinit { remove() }

    /// Removes the folder with what is in it, then lets go of the lock (nothing when already
    /// done). Nobody else removes a folder that is locked.
    public func remove() {
        guard descriptor >= 0 else { return }
        try? FileManager.default.removeItem(atPath: path)
        close(descriptor)
        descriptor = -1
    }
}
