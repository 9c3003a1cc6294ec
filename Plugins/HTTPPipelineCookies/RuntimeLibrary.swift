#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A C library bound at run time, without its headers: the first of its file names the dynamic
/// loader opens that has every function asked for. libpsl and libidn2 come this way (their
/// runtimes are on every machine Swift runs on; their `-dev` packages need not be).
///
/// The functions' addresses are kept as integers: they never change once resolved, and a library
/// opened here stays loaded for the process.
struct RuntimeLibrary: Sendable {
    /// The file name the loader opened.
    let file: String
    private let addresses: [String: UInt]

    /// Opens the first of `candidates` that has every one of `functions` (and takes those of
    /// `optional` it has); otherwise says, for each candidate, why not.
    static func open(_ candidates: [String], functions: [String], optional: [String] = []) -> Result<
        RuntimeLibrary, RuntimeLibraryMissing
    > {
        var reasons: [String] = []
        for candidate in candidates {
            guard let library = dlopen(candidate, RTLD_NOW | RTLD_LOCAL) else {
                let reason = dlerror().map {
                    String(decoding: UnsafeRawBufferPointer(start: $0, count: strlen($0)), as: UTF8.self)
                }
                reasons.append("\(candidate): \(reason ?? "not loaded")")
                continue
            }
            var addresses: [String: UInt] = [:]
            for name in functions + optional {
                if let symbol = dlsym(library, name) { addresses[name] = UInt(bitPattern: symbol) }
            }
            guard functions.allSatisfy({ addresses[$0] != nil }) else {
                reasons.append("\(candidate): a function is missing")
                continue
            }
            return .success(RuntimeLibrary(file: candidate, addresses: addresses))
        }
        return .failure(RuntimeLibraryMissing(reasons: reasons))
    }

    /// The function `name` as the C function type `type`; `nil` for one it does not have.
    func function<Function>(_ name: String, as type: Function.Type) -> Function? {
        guard let address = addresses[name], let pointer = UnsafeRawPointer(bitPattern: address) else { return nil }
        return unsafeBitCast(pointer, to: type)
    }
}

/// Why no candidate of a ``RuntimeLibrary`` could be used, one reason per candidate.
struct RuntimeLibraryMissing: Error, CustomStringConvertible {
    let reasons: [String]

    var description: String { reasons.joined(separator: "; ") }
}
