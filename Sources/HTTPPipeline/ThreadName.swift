#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Names the calling thread, as debuggers, `top -H` and `/proc/self/task/*/comm` show it.
///
/// Foundation's `Thread.name` does not reach the kernel on Linux (set before `start()` it is
/// never applied; set from the new thread it races `start()`), and the Glibc module does not
/// export `pthread_setname_np`, so Linux writes the name where the kernel keeps it. Linux keeps
/// at most 15 bytes; failures are ignored.
///
/// - Parameter name: The name; on Linux only its first 15 bytes.
package func nameCurrentThread(_ name: String) {
    #if canImport(Glibc)
    let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard fd >= 0 else { return }
    let bytes = Array(name.utf8.prefix(15))
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    _ = close(fd)
    #else
    _ = pthread_setname_np(name)
    #endif
}
