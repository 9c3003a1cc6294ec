import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The process's resident memory as Linux reports it, for the suites that hold a download or a
/// decode to a memory target. Elsewhere every reading is `nil` and nothing is reset.
enum ResidentMemory {
    /// A field of `/proc/self/status` in kilobytes (`"VmRSS:"`, `"VmHWM:"`), or `nil`.
    static func kilobytes(_ field: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix(field) }
        return line?.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }

    /// Resets `VmHWM` to the current resident size (Linux 4.0 and later); `false` where it cannot.
    static func resetPeak() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        return (try? handle.write(contentsOf: Data("5".utf8))) != nil
    }

    /// Hands the heap's free memory back to the system (glibc's `malloc_trim`, looked up at run
    /// time: the Glibc module does not export `malloc.h`), so growth is not hidden by memory an
    /// earlier suite freed but the process kept.
    static func trimHeap() {
        #if canImport(Glibc)
        typealias Trim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(nil, "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
        #endif
    }
}
