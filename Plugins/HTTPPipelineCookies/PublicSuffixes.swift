import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which domains are public suffixes (`com`, `co.uk`, `github.io`): a `Domain` attribute that is
/// one is refused (RFC 6265bis §5.7 step 9), so no site sets a cookie for every site under it.
///
/// ``libpsl`` asks libpsl, the library curl uses for the same job, with its built-in list. Its
/// runtime (`libpsl.so.5`) is on every Linux machine where the Swift toolchain runs, since libcurl
/// depends on it; it is bound at run time, so no development headers are needed. Where it cannot
/// be loaded (Darwin, a minimal container) the jar cannot prove a domain is not a public suffix,
/// and treats every `Domain` cookie as host-only (sent back only to the host that set it), never
/// accepting a possible supercookie.
public struct PublicSuffixes: Sendable, CustomStringConvertible {
    private let check: (@Sendable (String) -> Bool)?
    /// Where the list comes from, or why there is none.
    public let source: String

    /// A list of your own: `isPublicSuffix` is asked for lowercased ASCII domains.
    ///
    /// - Parameters:
    ///   - source: Where the list comes from, for logs.
    ///   - isPublicSuffix: Whether a domain is a public suffix.
    public init(source: String, isPublicSuffix: @escaping @Sendable (String) -> Bool) {
        self.source = source
        check = isPublicSuffix
    }

    private init(unavailable reason: String) {
        source = reason
        check = nil
    }

    /// libpsl's built-in list (or the system's list, when libpsl has none built in); unavailable,
    /// saying why, where libpsl cannot be loaded.
    public static let libpsl: PublicSuffixes = LibPSL.bind()

    /// No list: every `Domain` cookie is kept as host-only.
    public static let unavailable = PublicSuffixes(unavailable: "no public suffix list")

    /// Whether a list is there to ask.
    public var isAvailable: Bool { check != nil }

    /// Whether `domain` (lowercased ASCII) is a public suffix; `nil` without a list.
    public func isPublicSuffix(_ domain: String) -> Bool? {
        check?(domain)
    }

    public var description: String { source }
}

/// libpsl, bound at run time from its runtime library.
private enum LibPSL {
    typealias Context = @convention(c) () -> OpaquePointer?
    typealias Latest = @convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?
    typealias IsPublicSuffix = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Int32
    typealias Version = @convention(c) () -> UnsafePointer<CChar>?

    static let candidates: [String] = {
        #if canImport(Darwin)
        ["libpsl.5.dylib", "/opt/homebrew/lib/libpsl.5.dylib", "/usr/local/lib/libpsl.5.dylib"]
        #else
        ["libpsl.so.5"]
        #endif
    }()

    static func bind() -> PublicSuffixes {
        let opened = RuntimeLibrary.open(
            candidates, functions: ["psl_builtin", "psl_latest", "psl_is_public_suffix"], optional: ["psl_get_version"])
        let library: RuntimeLibrary
        switch opened {
        case .success(let found): library = found
        case .failure(let missing): return unavailable("libpsl could not be loaded (\(missing))")
        }
        guard let builtin = library.function("psl_builtin", as: Context.self),
            let latest = library.function("psl_latest", as: Latest.self),
            let check = library.function("psl_is_public_suffix", as: IsPublicSuffix.self)
        else { return unavailable("libpsl could not be loaded (\(library.file): a function is missing)") }
        // The built-in list, else the newest of it and the system's file.
        guard let context = builtin() ?? latest(nil) else {
            return unavailable("libpsl could not be loaded (\(library.file): no list built in or installed)")
        }
        let version = library.function("psl_get_version", as: Version.self)?().map { String(cString: $0) }
        // The context is read-only once made and libpsl's lookups keep no state: they are safe
        // from any thread. The library stays loaded for the process.
        let contextBits = UInt(bitPattern: context)
        return PublicSuffixes(source: "libpsl \(version ?? "")".trimmingCharacters(in: .whitespaces)) { domain in
            domain.withCString { check(OpaquePointer(bitPattern: contextBits), $0) } != 0
        }
    }

    private static func unavailable(_ source: String) -> PublicSuffixes {
        PublicSuffixes(source: source, unavailable: ())
    }
}

extension PublicSuffixes {
    fileprivate init(source: String, unavailable: Void) {
        self.init(unavailable: source)
    }
}
