internal import CCairo

enum GLibError {
    /// The message of a GError out-parameter, freeing it.
    static func take(_ error: inout UnsafeMutablePointer<GError>?) -> String {
        guard let e = error else { return "unknown error" }
        defer { g_error_free(e); error = nil }
        return e.pointee.message.map { String(cString: $0) } ?? "unknown error"
    }
}

/// Drops one reference to a GObject that Swift imports as an opaque pointer.
func releaseGObject(_ object: OpaquePointer) { g_object_unref(UnsafeMutableRawPointer(object)) }
