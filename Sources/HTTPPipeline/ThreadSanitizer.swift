#if os(Linux) && canImport(Glibc)
import Glibc
#endif

/// The thread sanitizer's `__tsan_acquire` and `__tsan_release`, when this process runs with it
/// (`swift test --sanitize=thread`); `nil` otherwise, and always `nil` off Linux, where `Mutex`
/// is built on locks the sanitizer already understands.
enum ThreadSanitizer {
    typealias Annotation = @convention(c) (UnsafeMutableRawPointer?) -> Void

    /// Tells the sanitizer the calling thread now sees everything released at an address.
    static let acquire = lookUp("__tsan_acquire")
    /// Tells the sanitizer the calling thread's writes so far are published at an address.
    static let release = lookUp("__tsan_release")

    private static func lookUp(_ name: String) -> Annotation? {
        #if os(Linux) && canImport(Glibc)
        // A null handle is RTLD_DEFAULT on Linux: search the executable and every loaded library.
        guard let symbol = dlsym(nil, name) else { return nil }
        return unsafeBitCast(symbol, to: Annotation.self)
        #else
        return nil
        #endif
    }
}
