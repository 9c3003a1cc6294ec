extension Redaction {
    /// A rule of your own that recognises a secret by its shape, for credentials the built-in
    /// shapes do not know (your company's API keys, say).
    ///
    /// A token that a rule matches is replaced by the mark wherever it appears — in a header
    /// value, a query or form value, a path segment, a JSON string or free text — whatever its
    /// name, as the built-in shapes are.
    ///
    /// ```swift
    /// let redaction = Redaction.default.redactingTokens([
    ///     .prefix("acme_live_", minimumLength: 30),
    ///     .matching(minimumLength: 14) { $0.hasPrefix("ACME-") && $0.count == 19 },
    /// ])
    /// print(redaction.text("key acme_live_4eC39HqLyjWDarjtT1zdp7dc"))  // "key <redacted>"
    /// ```
    public struct TokenRule: Sendable {
        /// The prefix a token starts with, for ``prefix(_:minimumLength:)``.
        let prefix: [UInt8]?
        /// The shortest token the rule matches, prefix included.
        let minimumLength: Int
        /// The test, for ``matching(minimumLength:_:)``.
        let test: (@Sendable (Substring) -> Bool)?

        /// Tokens that start with `prefix` (case-sensitively, at the start of a token) followed by
        /// letters, digits, `_` or `-`, at least `minimumLength` characters in all.
        ///
        /// - Parameters:
        ///   - prefix: The credential's fixed start, such as `acme_live_`.
        ///   - minimumLength: The fewest characters, prefix included, a match has.
        /// - Returns: The rule.
        public static func prefix(_ prefix: String, minimumLength: Int) -> TokenRule {
            TokenRule(prefix: Array(prefix.utf8), minimumLength: max(minimumLength, prefix.utf8.count, 1), test: nil)
        }

        /// Tokens for which `test` returns `true`.
        ///
        /// A token here is a run of letters, digits and `+ / _ - =`, as found between spaces,
        /// quotes, `.`, `:`, `,`, `;`, `&` and the like; only tokens of at least `minimumLength`
        /// characters are tested.
        ///
        /// - Parameters:
        ///   - minimumLength: The shortest token worth testing; keep it as high as your format
        ///     allows, as the test runs for every token that long.
        ///   - test: Whether a token is secret. It must be fast, and must not block.
        /// - Returns: The rule.
        public static func matching(minimumLength: Int = 8, _ test: @escaping @Sendable (Substring) -> Bool)
            -> TokenRule
        {
            TokenRule(prefix: nil, minimumLength: max(1, minimumLength), test: test)
        }

        /// Where a prefixed token starting at `start` ends, if this is a prefix rule that matches.
        func prefixEnd(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, in run: Range<Int>) -> Int? {
            guard let prefix, run.upperBound - start >= minimumLength,
                UnsafeBufferPointer(rebasing: bytes[start..<start + prefix.count]).elementsEqual(prefix)
            else { return nil }
            var end = start + prefix.count
            while end < run.upperBound, SecretShapes.Tail.base64URL.allows(bytes[end]) { end += 1 }
            return end - start >= minimumLength ? end : nil
        }

        /// Whether this is a test rule that matches the token.
        func matches(_ token: UnsafeBufferPointer<UInt8>) -> Bool {
            guard let test, token.count >= minimumLength else { return false }
            return test(Substring(String(decoding: token, as: UTF8.self)))
        }
    }

    /// Returns a copy that also hides tokens matching these rules, wherever they appear.
    ///
    /// - Parameter rules: Your own shapes; see ``TokenRule``.
    /// - Returns: The modified options.
    public func redactingTokens(_ rules: [TokenRule]) -> Redaction {
        changing { lists in
            lists.tokenRules += rules
            lists.shortestTokenRule = min(lists.shortestTokenRule, rules.map(\.minimumLength).min() ?? .max)
        }
    }
}
