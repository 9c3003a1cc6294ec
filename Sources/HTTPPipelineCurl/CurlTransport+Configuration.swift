extension CurlTransport {
    /// How a ``CurlTransport``'s engine connects: connection limits, timeouts, TLS and proxy.
    ///
    /// Every transport made with one configuration value shares nothing with another: each
    /// `CurlTransport(configuration:)` starts an engine of its own. Start from ``default`` and
    /// change what you need:
    ///
    /// ```swift
    /// var configuration = CurlTransport.Configuration.default
    /// configuration.connectTimeout = .seconds(2)
    /// configuration.maximumConnectionsPerHost = 16
    /// let transport = CurlTransport(configuration: configuration)
    /// ```
    public struct Configuration: Sendable, Equatable {
        /// Where requests go through.
        public enum Proxy: Sendable, Equatable {
            /// Straight to the server, whatever the environment says (the default).
            case none
            /// Through the proxy the environment names (`http_proxy`, `https_proxy`, `all_proxy`,
            /// `no_proxy`), as the `curl` command does.
            case environment
            /// Through this proxy, for example `http://proxy.internal:3128`.
            case url(String)
        }

        /// A client certificate for servers that ask for one.
        public struct ClientCertificate: Sendable, Equatable {
            /// The certificate's PEM file.
            public var certificateFile: String
            /// The private key's PEM file; `nil` when the certificate file holds it too.
            public var keyFile: String?
            /// The key's passphrase, if it has one.
            public var keyPassword: String?

            /// Creates a client certificate.
            ///
            /// - Parameters:
            ///   - certificateFile: The certificate's PEM file.
            ///   - keyFile: The private key's PEM file, if separate.
            ///   - keyPassword: The key's passphrase, if any.
            public init(certificateFile: String, keyFile: String? = nil, keyPassword: String? = nil) {
                self.certificateFile = certificateFile
                self.keyFile = keyFile
                self.keyPassword = keyPassword
            }
        }

        /// The most connections open to one host at a time; requests beyond them wait for one
        /// (or share one over HTTP/2). 64 by default: a streamed body holds its connection until
        /// it is read to its end or dropped.
        public var maximumConnectionsPerHost: Int
        /// How long connecting (DNS, TCP and TLS) may take; 30 s by default.
        public var connectTimeout: Duration
        /// How long a whole transfer may take, body included; `nil` (the default) for no limit
        /// beyond the request's deadline (`HTTPRequestContext.deadline`).
        public var timeout: Duration?
        /// A PEM file of the certificate authorities to trust instead of the system's bundle;
        /// `nil` (the default) for the system's.
        public var certificateAuthorities: String?
        /// The client certificate to present, if any.
        public var clientCertificate: ClientCertificate?
        /// Where requests go through; ``Proxy/none`` by default.
        public var proxy: Proxy
        /// Whether HTTP/2 is offered over TLS (ALPN) and streams share one connection; `true` by
        /// default. Plain `http` always speaks HTTP/1.1.
        public var allowsHTTP2: Bool
        /// The most bytes of a body with a known `Content-Length` that is read before `send`
        /// returns and handed over buffered; longer bodies stream. 256 KiB by default.
        public var bufferingLimit: Int
        /// How long the engine's thread keeps polling its sockets and queue without sleeping,
        /// after it took a request or finished one, before it sleeps until the next event;
        /// `.zero` (no polling) by default, at most 1 ms is used.
        ///
        /// An answer that comes within that time, or the caller's next request, is then taken
        /// without waking the thread, which trades CPU for latency: worth it for a process that
        /// talks to a nearby server sequentially and owns its cores, not for a general-purpose
        /// client. Waits that find nothing take at most a tenth of each 10 ms of the thread's
        /// time, whatever the traffic, so a client of slow servers sleeps rather than spins. With
        /// one processor the thread never polls this way.
        public var spinBeforeSleeping: Duration

        /// 64 connections per host, a 30 s connect timeout, no total timeout, the system's
        /// certificate authorities, no client certificate, no proxy, HTTP/2 over TLS, bodies up
        /// to 256 KiB buffered, no polling before the engine's thread sleeps.
        public static var `default`: Configuration {
            Configuration(
                maximumConnectionsPerHost: 64, connectTimeout: .seconds(30), timeout: nil,
                certificateAuthorities: nil, clientCertificate: nil, proxy: .none, allowsHTTP2: true,
                bufferingLimit: 256 << 10, spinBeforeSleeping: .zero)
        }
    }
}
