/// What the logging middleware hides, and how.
///
/// A `Redaction` is a value: the logging middleware keeps one and asks it for the loggable form of
/// every header, URL, body and error it records. It is deny-by-default: ``default`` hides every
/// built-in secret header name and pattern, secret query names and patterns, URL user info and
/// secret body fields, and a redacted value always shows the fixed ``mark``, never its length or a
/// prefix of it.
///
/// Adjust it with builders that return a modified copy; names are compared case-insensitively:
///
/// ```swift
/// let redaction = Redaction.default
///     .redactingHeaders(["X-Tenant-Pin"])
///     .allowingHeaders(["X-Request-Key-Id"])
///     .redactingBodyFields(["ssn"])
/// print(redaction.headerValue(name: "Authorization", value: "Bearer abc"))   // <redacted>
/// ```
///
/// What counts as secret, by name: a name (header, query item, form or JSON field, or `name` in
/// free text) is split into words — at `_`, `-`, `.`, spaces and brackets, at camelCase humps and
/// between letters and digits — and is secret when one of its words is a secret word
/// (`password`, `passphrase`, `pwd`, `pass`, `pin`, `otp`, `cvv`, `secret`, `token`, `key`,
/// `credential`, `auth`, `authorization`, `signature`, `sig`, `session`, `sid`, `cookie`,
/// `assertion`, `verifier`, `jwt`, `bearer`, …), contains one (`phpsessid`, `xapitoken`) or ends in
/// `key` (`apikey`). So `signingKey`, `client_assertion`, `x-api-token`, `refreshTokenHint`,
/// `PHPSESSID`, `Set-Cookie2` and `X-Sid` are secret, while `keyboard`, `monkey`, `tokenizer`,
/// `Author` and `WWW-Authenticate` (safe words) and `publicKey`, `Idempotency-Key`, `token_type`
/// and `max_tokens` (a secret word made public by its neighbour) stay visible. `code` is secret
/// alone and after a word that makes it a credential (`device_code`, `user_code`,
/// `authorizationCode`), not in `status_code` or PKCE's public `code_challenge`.
///
/// Then, per place:
/// - **Headers**: the name rules, plus ``redactingHeaders(_:)``, minus ``allowingHeaders(_:)``.
/// - **Query items** (names percent-decoded up to four times): the name rules plus
///   ``redactingQueryItems(_:)``, minus ``allowingQueryItems(_:)``. A name that still decodes
///   further after four rounds is secret.
/// - **Body fields** (JSON keys at any depth, form fields): the name rules plus
///   ``redactingBodyFields(_:)`` and ``redactingQueryItems(_:)``. The query allow-list does not
///   apply to bodies.
/// - **Free text** (text bodies, error descriptions): `name=value`, `"name": value` and
///   `name: value` where `name` is secret, user info in any URL or `user:pass@host`, and the
///   credential after a `Bearer` or `Basic` scheme word.
///
/// What counts as secret, by shape, whatever its name and wherever it appears (header values,
/// query, form and path values, JSON strings, free text, error descriptions): credentials with a
/// published format (GitHub `ghp_…`, Slack `xoxb-…`, Stripe `sk_live_…`, AWS `AKIA…`, Google
/// `AIza…`, and more), JSON Web Tokens, Telegram bot tokens, PEM private key blocks (and their
/// base64), and random-looking tokens of 20 characters or more — unless the name says the value
/// is an identifier, a hash or a nonce (`X-Request-Id`, `ETag`, `traceparent`, `cursor`). UUIDs,
/// hex hashes, ULIDs and base64 image data never count as random. A path segment is also hidden
/// after a segment that announces secrets (`/password/reset/<token>`, `/api/webhooks/<id>/<token>`)
/// and on hosts that only serve secret URLs (`hooks.slack.com`). Add shapes of your own with
/// ``redactingTokens(_:)``.
public struct Redaction: Sendable {
    /// The fixed mark a redacted value is replaced with: `<redacted>`.
    ///
    /// It never carries a length or a prefix of the secret it replaces.
    public static let mark: String = "<redacted>"

    /// Everything switched on: the built-in secret header names and patterns, secret query names
    /// and patterns, URL user info and secret body fields, with no additions and no allow-lists.
    public static let `default`: Redaction = Redaction()

    /// The user's additions and allow-lists.
    struct Lists: Sendable {
        /// Extra secret header names, normalised (trimmed, lowercased).
        var extraHeaders: Set<String> = []
        /// Header names shown even when they look secret, normalised.
        var allowedHeaders: Set<String> = []
        /// Extra secret query item names, normalised.
        var extraQueryItems: Set<String> = []
        /// Query item names shown even when they look secret, normalised.
        var allowedQueryItems: Set<String> = []
        /// Extra secret body field names, normalised.
        var extraBodyFields: Set<String> = []
        /// Body field names shown even when they look secret, normalised.
        var allowedBodyFields: Set<String> = []
        /// The user's own shapes.
        var tokenRules: [TokenRule] = []
        /// The shortest token any of ``tokenRules`` matches (`Int.max` without rules).
        var shortestTokenRule: Int = .max
    }

    /// The lists, behind one immutable reference: the rules pass the options to helpers for
    /// every name, value and path segment, and a copy then costs one reference count instead of
    /// one per list.
    final class Box: Sendable {
        let lists: Lists
        /// Whether any query name was added or allowed.
        let hasQueryNames: Bool
        /// Whether any body field or query name was added, or a body field allowed.
        let hasBodyNames: Bool
        /// Whether any header name was added or allowed.
        let hasHeaderNames: Bool
        /// Whether any header was allowed.
        let hasAllowedHeaders: Bool

        init(_ lists: Lists) {
            self.lists = lists
            hasQueryNames = !lists.allowedQueryItems.isEmpty || !lists.extraQueryItems.isEmpty
            hasBodyNames =
                !lists.extraBodyFields.isEmpty || !lists.extraQueryItems.isEmpty || !lists.allowedBodyFields.isEmpty
            hasHeaderNames = !lists.allowedHeaders.isEmpty || !lists.extraHeaders.isEmpty
            hasAllowedHeaders = !lists.allowedHeaders.isEmpty
        }
    }

    private(set) var box = Box(Lists())

    var extraHeaders: Set<String> { box.lists.extraHeaders }
    var allowedHeaders: Set<String> { box.lists.allowedHeaders }
    var extraQueryItems: Set<String> { box.lists.extraQueryItems }
    var allowedQueryItems: Set<String> { box.lists.allowedQueryItems }
    var extraBodyFields: Set<String> { box.lists.extraBodyFields }
    var allowedBodyFields: Set<String> { box.lists.allowedBodyFields }
    var tokenRules: [TokenRule] { box.lists.tokenRules }
    var shortestTokenRule: Int { box.lists.shortestTokenRule }

    /// The options of ``default``; users start from there.
    init() {}

    /// A copy with its lists changed.
    func changing(_ change: (inout Lists) -> Void) -> Redaction {
        var lists = box.lists
        change(&lists)
        var copy = self
        copy.box = Box(lists)
        return copy
    }

    /// Returns a copy that also hides the headers with these names.
    ///
    /// - Parameter names: Header names to hide, compared case-insensitively.
    /// - Returns: The modified options. A name also passed to ``allowingHeaders(_:)`` stays shown:
    ///   the allow-list wins.
    public func redactingHeaders(_ names: [String]) -> Redaction {
        changing { $0.extraHeaders.formUnion(names.map(RedactionNames.normalized)) }
    }

    /// Returns a copy that shows the headers with these names even though they match a secret
    /// name or pattern: the explicit choice wins over every built-in rule and addition.
    ///
    /// - Parameter names: Header names to show, compared case-insensitively.
    /// - Returns: The modified options.
    public func allowingHeaders(_ names: [String]) -> Redaction {
        changing { $0.allowedHeaders.formUnion(names.map(RedactionNames.normalized)) }
    }

    /// Returns a copy that also hides the values of query items with these names (and of form
    /// and JSON body fields with these names).
    ///
    /// - Parameter names: Decoded query item names to hide, compared case-insensitively.
    /// - Returns: The modified options. A name also passed to ``allowingQueryItems(_:)`` stays
    ///   shown in URLs.
    public func redactingQueryItems(_ names: [String]) -> Redaction {
        changing { $0.extraQueryItems.formUnion(names.map(RedactionNames.normalized)) }
    }

    /// Returns a copy that shows the values of query items with these names even though they
    /// match a secret name or pattern. Applies to URLs only, not to bodies or free text.
    ///
    /// - Parameter names: Decoded query item names to show, compared case-insensitively.
    /// - Returns: The modified options.
    public func allowingQueryItems(_ names: [String]) -> Redaction {
        changing { $0.allowedQueryItems.formUnion(names.map(RedactionNames.normalized)) }
    }

    /// Returns a copy that also hides JSON and form body fields with these names, at any depth.
    ///
    /// - Parameter names: Field names to hide, compared case-insensitively.
    /// - Returns: The modified options.
    public func redactingBodyFields(_ names: [String]) -> Redaction {
        changing { $0.extraBodyFields.formUnion(names.map(RedactionNames.normalized)) }
    }

    /// Returns a copy that shows the values of JSON and form body fields with exactly these
    /// names, at any depth, even though the names look secret: for a test that needs a field a
    /// recorded cassette would otherwise hide. A value shaped like a credential (a JWT, a key
    /// with a vendor prefix) is still hidden.
    ///
    /// - Parameter names: Field names to show, compared case-insensitively.
    /// - Returns: The modified options.
    public func allowingBodyFields(_ names: [String]) -> Redaction {
        changing { $0.allowedBodyFields.formUnion(names.map(RedactionNames.normalized)) }
    }

    /// Whether a header name is secret under these options.
    ///
    /// - Parameter name: The header name, in any case; surrounding whitespace is ignored.
    /// - Returns: `true` when the name is a built-in secret name, matches a secret pattern or was
    ///   added with ``redactingHeaders(_:)``, and was not allowed with ``allowingHeaders(_:)``.
    public func isSecretHeader(_ name: String) -> Bool {
        isSecretHeaderName(name)
    }

    /// The header value to log.
    ///
    /// - Parameters:
    ///   - name: The header name, in any case.
    ///   - value: The header value as sent or received.
    /// - Returns: ``mark`` when the name is secret; the value unchanged when the name was allowed
    ///   with ``allowingHeaders(_:)``; otherwise the value with any secrets inside it (a URL's
    ///   user info and secret query items, as in `Location` or `Link`, or secret `name=value`
    ///   pairs) redacted as by ``text(_:)``.
    public func headerValue(name: String, value: String) -> String {
        if isAllowedHeader(name) { return value }
        let verdict = judgeHeader(name)
        if verdict.isSecret { return Self.mark }
        return text(value, limit: .max, entropy: !verdict.namesIdentifier)
    }

    /// The header value to log, as by ``headerValue(name:value:)``, cut to at most `limit` bytes
    /// after redaction, with a note `… (N more bytes)` when anything was left out. The mark of a
    /// secret header is never cut.
    package func headerValue(name: String, value: String, limit: Int) -> String {
        if isAllowedHeader(name) {
            // Shown as it is: only the cut applies (with room to see a character across it whole).
            guard value.utf8.count > limit else { return value }
            let limit = max(0, limit)
            let head = ASCII.bytes(of: value, upTo: limit + 64)
            return SafeCut.render(head, limit: limit, unscanned: value.utf8.count - head.count)
        }
        let verdict = judgeHeader(name)
        if verdict.isSecret { return Self.mark }
        return text(value, limit: limit, entropy: !verdict.namesIdentifier)
    }

    /// Whether a header name was allowed with ``allowingHeaders(_:)``.
    func isAllowedHeader(_ name: String) -> Bool {
        box.hasAllowedHeaders && allowedHeaders.contains(RedactionNames.normalized(name))
    }
}
