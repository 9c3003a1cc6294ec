import Foundation

/// The process's resident memory, read from `/proc/self/statm` (Linux only).
package enum ResidentMemory {
    /// Resident bytes now, or `nil` where `/proc` is not there.
    package static func current() -> Int? {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
