import CHTTPPipelineCurl

/// The libcurl runtime, bound at first use from the library the system already has.
///
/// The transport declares the few libcurl functions it calls (`CHTTPPipelineCurl`) and resolves
/// them from the installed runtime, so building needs no libcurl headers: on Linux the runtime is
/// there wherever Swift runs (FoundationNetworking links it), on Darwin it is part of the system.
/// Where it cannot be loaded, every transfer fails with ``CurlTransportError/Category/libraryUnavailable``.
enum CurlLibrary {
    /// The runtimes tried in order: the first that loads and has every function is used.
    static let candidates: [String] = {
        #if canImport(Darwin)
        ["/usr/lib/libcurl.4.dylib", "libcurl.4.dylib"]
        #else
        ["libcurl.so.4", "libcurl-gnutls.so.4"]
        #endif
    }()

    /// Whether libcurl is bound and initialised, or why not; bound once per process, before the
    /// first handle is made.
    static let bound: Result<Void, CurlTransportError> = {
        let result = bind(candidates, install: true)
        // Once per process, before the first handle. libcurl counts its calls (FoundationNetworking
        // makes its own), and this one is never undone.
        if case .success = result {
            let code = curl_global_init(Int(CHTTPPipelineCurl_GLOBAL_ALL))
            guard code == CURLE_OK else {
                return .failure(CurlTransportError(code: Int(code.rawValue), message: "curl_global_init failed"))
            }
        }
        return result
    }()

    /// libcurl's version line (`libcurl/7.88.1 OpenSSL/3.0.17 …`), or `nil` when it is not bound.
    static var version: String? {
        guard case .success = bound, let line = curl_version() else { return nil }
        return String(cString: line)
    }

    /// Binds the first of `candidates` that loads and has every function the transport calls.
    ///
    /// - Parameters:
    ///   - candidates: Library names the dynamic loader searches for, or paths.
    ///   - install: Whether the functions found become the ones every handle uses; `false`
    ///     only checks that a library would do.
    /// - Returns: Success, or a ``CurlTransportError`` of category `libraryUnavailable` that
    ///   names each library tried and why it did not do.
    static func bind(_ candidates: [String], install: Bool) -> Result<Void, CurlTransportError> {
        var reasons: [String] = []
        for candidate in candidates {
            var message = [CChar](repeating: 0, count: 512)
            let bound = message.withUnsafeMutableBufferPointer { buffer in
                CHTTPPipelineCurl_bind(candidate, install ? 1 : 0, buffer.baseAddress, buffer.count)
            }
            if bound == 0 { return .success(()) }
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            reasons.append("\(candidate): \(reason)")
        }
        return .failure(CurlTransportError(libraryUnavailable: reasons.joined(separator: "; ")))
    }
}
