#if os(Linux)
internal import CLinuxHeap
#endif
import Synchronization

/// How this process's heap (glibc malloc) keeps the memory it frees. Process-wide; on other
/// systems than Linux the system's allocator is left as it is.
///
/// Renders keep it (the default): each segment opens a fresh encoder and decoders, and pages
/// given back to the kernel would be faulted in and cleared again for the next one (a fifth
/// of a 5 s segment's CPU; docs/render.md). So encoders keep up to 256 MiB free per heap, and
/// glibc makes up to 8 heaps per core. A process that runs for hours and replaces its whole
/// state on every edit (`reel preview`) would then hold every heap's peak for good: it calls
/// `releaseFreedMemory()` once at start, and `trim()` after dropping a state.
public enum HeapPolicy {
    /// Whether freed memory goes back to the kernel; held while the heap's settings change.
    private static let releasing = Mutex(false)

    /// From now on freed memory goes back to the kernel, and encoders no longer change that.
    public static func releaseFreedMemory() {
        releasing.withLock { releasing in
            releasing = true
            #if os(Linux)
            reel_release_freed_memory()
            #endif
        }
    }

    /// Returns every heap's free pages to the kernel (a few milliseconds). Only useful after
    /// `releaseFreedMemory()`, where it is worth calling when a large structure was freed.
    public static func trim() {
        #if os(Linux)
        reel_trim_heaps()
        #endif
    }

    /// Called before an encoder opens: keeps freed memory for the next encoder unless the
    /// process asked to give it back.
    static func prepareForEncoder() {
        releasing.withLock { releasing in
            #if os(Linux)
            if !releasing { reel_keep_encoder_memory() }
            #endif
        }
    }
}
