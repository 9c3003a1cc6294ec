public import Foundation
public import HTTPPipeline

/// A cookie store that behaves as RFC 6265bis (the current draft of the cookie standard) says,
/// over every transport: what ``CookieMiddleware`` keeps and sends, or what you ask directly.
///
/// - **Storing** (``receive(_:from:)``): each `Set-Cookie` parsed and judged as §5.6 and §5.7
///   say: the 4096-octet and 1024-octet limits, `Max-Age` over `Expires`, at most 400 days,
///   `Domain` refused for a public suffix (``PublicSuffixes``), an IP address or another site,
///   `Secure` only from a secure connection and never overlaid from an insecure one, the
///   `__Secure-` and `__Host-` prefixes, `SameSite=None` only with `Secure`. Each field's
///   ``CookieDecision`` says what happened and why.
/// - **Sending** (``cookieField(for:)``): the cookies whose domain, path and `Secure` flag fit the
///   URL, longest path first, then oldest first (§5.8.3). Only `https` and `wss` are secure,
///   unless ``Options/trustsLoopback``.
/// - **Limits**: at most ``Options/maximumPerDomain`` cookies a domain and
///   ``Options/maximumTotal`` in all, evicted in the draft's order (expired first, then insecure
///   ones of crowded domains, then any of crowded domains, then any; least recently used first).
/// - **Files**: ``write(to:)`` and ``init(contentsOf:options:)`` use the Netscape cookie-file
///   format curl reads and writes (`curl -b FILE -c FILE`).
///
/// Safe to use from any task: every call is atomic.
public final class CookieJar: Sendable {
    /// How the jar judges and limits cookies.
    public struct Options: Sendable {
        /// Where public suffixes come from; ``PublicSuffixes/libpsl`` by default.
        public var publicSuffixes: PublicSuffixes
        /// The longest lifetime a cookie gets (§5.5); 400 days by default.
        public var ageLimit: Duration
        /// The most cookies one domain keeps; 180 by default (the draft asks for at least 50).
        public var maximumPerDomain: Int
        /// The most cookies the jar keeps; 3,000 by default.
        public var maximumTotal: Int
        /// Whether `http` to a loopback host (`localhost`, `127.0.0.0/8`, `::1`) counts as secure,
        /// as browsers count it; `false` by default, so a `Secure` cookie never goes over `http`.
        public var trustsLoopback: Bool
        /// Whether a cookie goes only to the port of the origin that set it (as browsers' origin-bound
        /// cookies do), so two servers on one host never read each other's cookies; `true` by
        /// default. The draft shares a host's cookies across its ports: `false` does that.
        /// Cookies loaded from a file carry no port and go to every port.
        public var bindsToPort: Bool
        /// Told once, the first time a `Domain` cookie is kept host-only because
        /// ``publicSuffixes`` has no list (libpsl could not be loaded); `nil` by default.
        public var onMissingSuffixList: (@Sendable (String) -> Void)?

        /// Creates options; every parameter defaults as described on its property.
        public init(
            publicSuffixes: PublicSuffixes = .libpsl, ageLimit: Duration = .seconds(400 * 86_400),
            maximumPerDomain: Int = 180, maximumTotal: Int = 3_000, trustsLoopback: Bool = false,
            bindsToPort: Bool = true, onMissingSuffixList: (@Sendable (String) -> Void)? = nil
        ) {
            self.bindsToPort = bindsToPort
            self.onMissingSuffixList = onMissingSuffixList
            self.publicSuffixes = publicSuffixes
            self.ageLimit = ageLimit
            self.maximumPerDomain = max(maximumPerDomain, 1)
            self.maximumTotal = max(maximumTotal, 1)
            self.trustsLoopback = trustsLoopback
        }
    }

    struct State {
        /// Cookies by their domain field.
        var byDomain: [String: [Cookie]] = [:]
        var count = 0
        /// Orders cookies created in the same instant.
        var sequence: UInt64 = 0
        /// Whether a cookie was kept host-only for want of a suffix list yet.
        var toldNoSuffixList = false
    }

    /// The options.
    public let options: Options
    let now: @Sendable () -> Date
    let state = Locked(State())

    /// An empty jar.
    ///
    /// - Parameters:
    ///   - options: How it judges and limits cookies.
    ///   - now: The clock (tests move it).
    public init(options: Options = Options(), now: @escaping @Sendable () -> Date = { Date() }) {
        self.options = options
        self.now = now
    }

    /// Stores the cookies a response from `url` sets: one decision per `Set-Cookie` field, in
    /// order.
    ///
    /// - Parameters:
    ///   - fields: The response's fields.
    ///   - url: Where the response came from.
    /// - Returns: What was done with each `Set-Cookie`.
    @discardableResult
    public func receive(_ fields: HTTPFields, from url: URL) -> [CookieDecision] {
        fields[values: .setCookie].map { receive(setCookie: $0, from: url) }
    }

    /// Stores the cookie one `Set-Cookie` value sets, received from `url`.
    ///
    /// - Parameters:
    ///   - value: The field's value.
    ///   - url: Where it came from.
    /// - Returns: What was done with it.
    @discardableResult
    public func receive(setCookie value: String, from url: URL) -> CookieDecision {
        let now = now()
        switch SetCookie.parse(
            value, defaultPath: CookieHost.defaultPath(CookieHost.path(url)), now: now,
            ageLimit: options.ageLimit.seconds)
        {
        case .failure(let refusal):
            return CookieDecision(name: "", cookie: nil, refusal: refusal)
        case .success(let parsed):
            let decision = store(parsed, from: url, now: now)
            if decision.keptHostOnlyWithoutSuffixList { noteMissingSuffixList() }
            return decision
        }
    }

    /// The `Cookie` field for a request to `url`, or `nil` when no stored cookie goes there;
    /// the cookies sent count as used now.
    public func cookieField(for url: URL) -> String? {
        let cookies = cookies(for: url)
        guard !cookies.isEmpty else { return nil }
        var field = ""
        field.reserveCapacity(cookies.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 3 })
        for cookie in cookies {
            if !field.isEmpty { field.append("; ") }
            if !cookie.name.isEmpty {
                field.append(cookie.name)
                field.append("=")
            }
            field.append(cookie.value)
        }
        return field
    }

    /// The cookies a request to `url` carries, in the order they are sent; they count as used now.
    public func cookies(for url: URL) -> [Cookie] {
        guard let host = CookieHost.canonical(url) else { return [] }
        let path = CookieHost.path(url)
        let secure = isSecure(url)
        let now = now()
        let suffixes = options.publicSuffixes
        let port = options.bindsToPort ? CookieHost.port(url) : nil
        return state.withLock { state in
            var cookies: [Cookie] = []
            for domain in Self.candidateDomains(of: host) {
                // Taken out while it is changed, so the change copies nothing.
                guard var bucket = state.byDomain.removeValue(forKey: domain) else { continue }
                // Every cookie of a bucket has its domain: host and suffix are judged once.
                let isHost = domain == host
                let sharedHere =
                    CookieHost.domainMatches(host, domain)
                    && (CookieHost.isIPAddress(domain) || suffixes.isPublicSuffix(domain) != true)
                var expired = false
                for index in bucket.indices {
                    if bucket[index].isExpired(at: now) {
                        expired = true
                        continue
                    }
                    guard bucket[index].isHostOnly ? isHost : sharedHere, !bucket[index].isSecure || secure,
                        CookieHost.pathMatches(path, bucket[index].path)
                    else { continue }
                    if let port, let bound = bucket[index].port, bound != port { continue }
                    bucket[index].lastAccessed = now
                    cookies.append(bucket[index])
                }
                if expired {
                    let before = bucket.count
                    bucket.removeAll { $0.isExpired(at: now) }
                    state.count -= before - bucket.count
                }
                if !bucket.isEmpty { state.byDomain[domain] = bucket }
            }
            return cookies.sorted(by: Self.sendsBefore)
        }
    }

    /// Every cookie stored, unexpired, in no set order.
    public var allCookies: [Cookie] {
        let now = now()
        return state.withLock { state in
            state.byDomain.values.flatMap { $0 }.filter { !$0.isExpired(at: now) }
        }
    }

    /// Puts `cookie` in the jar as it is, replacing one with the same name, domain, host-only
    /// flag and path (a cookie from a file, or one you make); the limits apply.
    public func insert(_ cookie: Cookie) {
        let now = now()
        state.withLock { state in
            var cookie = cookie
            cookie.sequence = state.sequence
            state.sequence += 1
            Self.insert(cookie, into: &state, options: options, now: now)
        }
    }

    /// Removes every cookie: on sign-out, or to start clean.
    public func removeAll() {
        state.withLock { $0 = State() }
    }

    /// Removes the cookies without an expiry: the end of a session (§5.7).
    public func removeSessionCookies() {
        remove { !$0.isPersistent }
    }

    /// Removes the cookies `shouldRemove` picks.
    public func remove(where shouldRemove: (Cookie) -> Bool) {
        state.withLock { state in
            for (domain, cookies) in state.byDomain {
                let kept = cookies.filter { !shouldRemove($0) }
                state.count -= cookies.count - kept.count
                state.byDomain[domain] = kept.isEmpty ? nil : kept
            }
        }
    }

    /// Tells ``Options/onMissingSuffixList`` that a domain cookie was kept host-only, once.
    func noteMissingSuffixList() {
        let first = state.withLock { state in
            defer { state.toldNoSuffixList = true }
            return !state.toldNoSuffixList
        }
        if first {
            options.onMissingSuffixList?(
                "cookies: \(options.publicSuffixes.source); every Domain cookie is kept to the host that set it")
        }
    }

    /// Whether a request to `url` goes over a connection the jar counts as secure.
    func isSecure(_ url: URL) -> Bool {
        let scheme = url.scheme?.lowercased()
        if scheme == "https" || scheme == "wss" { return true }
        guard options.trustsLoopback, let host = CookieHost.canonical(url) else { return false }
        return host == "localhost" || host.hasSuffix(".localhost") || host == "::1"
            || (CookieHost.isIPAddress(host) && host.hasPrefix("127."))
    }

    /// The domain fields a cookie sent to `host` can have: the host and each domain above it.
    static func candidateDomains(of host: String) -> [String] {
        guard !CookieHost.isIPAddress(host) else { return [host] }
        var domains = [host]
        var rest = Substring(host)
        while let dot = rest.firstIndex(of: ".") {
            rest = rest[rest.index(after: dot)...]
            if !rest.isEmpty { domains.append(String(rest)) }
        }
        return domains
    }

    /// §5.8.3 step 4: longer paths first, then earlier creation.
    static func sendsBefore(_ a: Cookie, _ b: Cookie) -> Bool {
        if a.path.utf8.count != b.path.utf8.count { return a.path.utf8.count > b.path.utf8.count }
        if a.created != b.created { return a.created < b.created }
        return a.sequence < b.sequence
    }
}
