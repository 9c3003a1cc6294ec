extension HTTPResponse {
    /// A response status: its three-digit code and reason phrase, shaped like swift-http-types'
    /// `HTTPResponse.Status`.
    ///
    /// An integer literal is a status, so `response.status == 200` and `case 404:` read as
    /// before; the statics name the common ones, and ``kind`` says which class a code is in:
    ///
    /// ```swift
    /// let status: HTTPResponse.Status = 503
    /// print(status == .serviceUnavailable, status.kind == .serverError)   // true true
    /// print(status.code, status)   // 503 503 Service Unavailable
    /// ```
    ///
    /// Two statuses are equal when their codes are: the reason phrase is informative only.
    public struct Status: Sendable, Hashable, ExpressibleByIntegerLiteral, CustomStringConvertible {
        /// The three-digit code, for example `200`.
        public let code: Int
        /// A phrase other than the standard one, as a server sent it; `nil` for the standard one.
        @usableFromInline let customPhrase: String?

        /// The reason phrase, for example `"OK"`: the one given, or the standard one for the
        /// code; empty for a code without one.
        public var reasonPhrase: String { customPhrase ?? Self.standardPhrase(for: code) }

        /// Creates a status.
        ///
        /// - Parameters:
        ///   - code: The code. A code outside 100–999 makes a status of kind ``Kind-swift.struct/invalid``.
        ///   - reasonPhrase: The reason phrase; the standard one for `code` when `nil`.
        @inlinable
        public init(code: Int, reasonPhrase: String? = nil) {
            // Made for every response and every comparison with a literal: the standard phrase
            // is looked up when asked for, not stored.
            self.code = code
            self.customPhrase = reasonPhrase
        }

        /// Creates a status from an integer literal, with the code's standard reason phrase.
        ///
        /// - Parameter value: The code.
        @inlinable
        public init(integerLiteral value: Int) {
            self.init(code: value)
        }

        /// Which class of response a status is (RFC 9110 §15), from its first digit.
        public struct Kind: Sendable, Hashable, CustomStringConvertible {
            private let name: String
            private init(_ name: String) { self.name = name }

            /// A code outside 100–599.
            public static let invalid = Kind("invalid")
            /// 1xx: an interim response.
            public static let informational = Kind("informational")
            /// 2xx: the request succeeded.
            public static let successful = Kind("successful")
            /// 3xx: the request is redirected.
            public static let redirection = Kind("redirection")
            /// 4xx: the client erred.
            public static let clientError = Kind("clientError")
            /// 5xx: the server erred.
            public static let serverError = Kind("serverError")

            /// The kind's name, for example `successful`.
            public var description: String { name }
        }

        /// The class of response this status is in.
        public var kind: Kind {
            switch code {
            case 100..<200: .informational
            case 200..<300: .successful
            case 300..<400: .redirection
            case 400..<500: .clientError
            case 500..<600: .serverError
            default: .invalid
            }
        }

        /// The code and reason phrase, for example `200 OK`.
        public var description: String { reasonPhrase.isEmpty ? "\(code)" : "\(code) \(reasonPhrase)" }

        /// Equal codes, whatever the reason phrases.
        @inlinable
        public static func == (lhs: Status, rhs: Status) -> Bool { lhs.code == rhs.code }

        /// Hashes the code alone, as equality compares it.
        @inlinable
        public func hash(into hasher: inout Hasher) { hasher.combine(code) }
    }
}
