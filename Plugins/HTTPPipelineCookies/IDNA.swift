import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Host names outside ASCII turned into their A-label (`xn--`) form (RFC 6265bis §5.1.2 step 3)
/// by libidn2, bound at run time from its runtime library (libcurl and libpsl depend on it, so it
/// is where they are). Without it, such a host cannot be canonicalized.
enum IDNA {
    private typealias ToASCII =
        @convention(c) (
            UnsafePointer<CChar>?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, Int32
        ) -> Int32
    private typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Void

    /// libidn2, or `nil` when it cannot be loaded.
    private static let library = try? RuntimeLibrary.open(
        ["libidn2.so.0", "libidn2.0.dylib"], functions: ["idn2_to_ascii_8z", "idn2_free"]
    ).get()

    /// `host`'s A-label form (UTS #46 non-transitional, NFC first), lowercased; `nil` when
    /// libidn2 is not there or refuses the name.
    static func toASCII(_ host: String) -> String? {
        guard let library, let toASCII = library.function("idn2_to_ascii_8z", as: ToASCII.self),
            let free = library.function("idn2_free", as: Free.self)
        else { return nil }
        var output: UnsafeMutablePointer<CChar>?
        // IDN2_NFC_INPUT (1) | IDN2_NONTRANSITIONAL (8); IDN2_OK is 0.
        let status = host.withCString { toASCII($0, &output, 1 | 8) }
        defer { free(output) }
        guard status == 0, let output else { return nil }
        let result = String(cString: output)
        guard !result.isEmpty, result.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        return SetCookie.asciiLowercased(result)
    }
}
