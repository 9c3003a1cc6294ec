extension HTTPField {
    /// A header field name, shaped like swift-http-types' `HTTPField.Name`: kept as written,
    /// compared without regard to ASCII case, with statics for the common fields so that a typo
    /// does not compile.
    ///
    /// ```swift
    /// var fields = HTTPFields()
    /// fields[.accept] = "application/json"
    /// fields[.cacheControl] = "no-store"
    /// print(fields["accept"] ?? "")   // application/json: a string names a field too
    /// ```
    ///
    /// ``init(_:)`` makes any other name, checked (`HTTPField.Name("X-Request-ID")`, `nil` for a
    /// string that is not a token: letters, digits and `!#$%&'*+-.^_|~` and the backtick).
    /// ``HTTPFields`` and ``HTTPField`` also take names as strings, unchecked: the transports
    /// refuse a name that is not a token before anything is sent.
    public struct Name: Sendable, Hashable, CustomStringConvertible {
        /// The name as written, and as HTTP/1.1 sends it, for example `Content-Type`.
        public let rawName: String

        /// The name in lower case, for example `content-type`: as HTTP/2 sends it.
        public var canonicalName: String { rawName.lowercased() }

        /// A name made at run time, or `nil` when it is not a token.
        ///
        /// - Parameter name: The name, for example `"X-Request-ID"`.
        public init?(_ name: String) {
            guard HTTPGrammar.isToken(name.utf8) else { return nil }
            rawName = name
        }

        /// A name taken as given: what the transports and parsers of this package use for names
        /// that came off the wire or are checked before sending.
        @inlinable
        package init(unchecked rawName: String) {
            self.rawName = rawName
        }

        /// The name as written.
        public var description: String { rawName }

        /// Equal names, ignoring ASCII case.
        @inlinable
        public static func == (lhs: Name, rhs: Name) -> Bool {
            HTTPFields.sameName(lhs.rawName, rhs.rawName)
        }

        /// Hashes the lower-case name, as equality ignores case.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(canonicalName)
        }
    }
}
