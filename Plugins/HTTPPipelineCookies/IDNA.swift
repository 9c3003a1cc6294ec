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

    /// The two functions' addresses, or `nil` when libidn2 cannot be loaded. (Addresses as
    /// integers: they never change once resolved, and the library stays loaded.)
    private static let functions: (toASCII: UInt, free: UInt)? = {
        let candidates = ["libidn2.so.0", "libidn2.0.dylib"]
        for candidate in candidates {
            guard let library = dlopen(candidate, RTLD_NOW | RTLD_LOCAL),
                let toASCII = dlsym(library, "idn2_to_ascii_8z"), let free = dlsym(library, "idn2_free")
            else { continue }
            return (UInt(bitPattern: toASCII), UInt(bitPattern: free))
        }
        return nil
    }()

    /// `host`'s A-label form (UTS #46 non-transitional, NFC first), lowercased; `nil` when
    /// libidn2 is not there or refuses the name.
    static func toASCII(_ host: String) -> String? {
        guard let functions, let toASCIIAddress = UnsafeRawPointer(bitPattern: functions.toASCII),
            let freeAddress = UnsafeRawPointer(bitPattern: functions.free)
        else { return nil }
        let toASCII = unsafeBitCast(toASCIIAddress, to: ToASCII.self)
        let free = unsafeBitCast(freeAddress, to: Free.self)
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
