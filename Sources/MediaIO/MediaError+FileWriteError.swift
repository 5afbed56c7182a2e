import AtomicFiles

extension MediaError {
    /// A file that could not be written whole, as MediaIO says it: `writingFailed` with the
    /// same words (`invalidArgument` for a file already committed or discarded).
    public init(_ failure: FileWriteError) {
        self.init(failure.kind == .closed ? .invalidArgument : .writingFailed, path: failure.path, failure.message)
    }
}
