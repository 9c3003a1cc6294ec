import Foundation
import HTTPPipeline

/// The storage model (RFC 6265bis §5.7) and eviction.
extension CookieJar {
    /// Stores the cookie `parsed` describes, received from `url` (§5.7 steps 2 to 24).
    func store(_ parsed: SetCookie, from url: URL, now: Date) -> CookieDecision {
        let name = parsed.name
        func refused(_ refusal: CookieRefusal) -> CookieDecision {
            CookieDecision(name: name, cookie: nil, refusal: refusal)
        }
        // Step 2 (steps 3 and 4 are the parser's).
        if name.isEmpty, parsed.value.isEmpty { return refused(.empty) }
        // Step 6: the last Max-Age, else the last Expires, else a session cookie.
        var expires: Date?
        var domainAttribute = ""
        var path: String?
        var secure = false
        var httpOnly = false
        var sameSite = Cookie.SameSite.default
        for attribute in parsed.attributes {
            switch attribute {
            case .expires(let date) where expires == nil || !parsed.attributes.contains(where: \.isMaxAge):
                expires = date
            case .maxAge(let date): expires = date
            case .domain(let domain): domainAttribute = domain
            case .path(let value): path = value
            case .secure: secure = true
            case .httpOnly: httpOnly = true
            case .sameSite(let value): sameSite = value
            default: break
            }
        }
        guard let host = CookieHost.canonical(url) else { return refused(.invalidHost) }
        // Step 8.
        guard domainAttribute.utf8.allSatisfy({ $0 < 0x80 }) else { return refused(.nonASCIIDomain) }
        // Step 9; without a list, a domain cookie is kept to the host (never a supercookie).
        var keptHostOnly = false
        if !domainAttribute.isEmpty, !CookieHost.isIPAddress(domainAttribute) {
            switch options.publicSuffixes.isPublicSuffix(domainAttribute) {
            case true?:
                guard domainAttribute == host else { return refused(.publicSuffix) }
                domainAttribute = ""
            case nil:
                guard CookieHost.domainMatches(host, domainAttribute) else { return refused(.domainMismatch) }
                keptHostOnly = domainAttribute != host
                domainAttribute = ""
            case false?:
                break
            }
        }
        // Step 10.
        if !domainAttribute.isEmpty, !CookieHost.domainMatches(host, domainAttribute) {
            return refused(.domainMismatch)
        }
        let hostOnly = domainAttribute.isEmpty
        var cookie = Cookie(
            name: name, value: parsed.value, domain: hostOnly ? host : domainAttribute,
            path: path ?? CookieHost.defaultPath(CookieHost.path(url)), expires: expires, created: now,
            isHostOnly: hostOnly, isSecure: secure, isHTTPOnly: httpOnly, sameSite: sameSite,
            port: CookieHost.port(url))
        let secureConnection = isSecure(url)
        // Step 13.
        if secure, !secureConnection { return refused(.secureFromInsecure) }
        // Step 19.
        if sameSite == .none, !secure { return refused(.sameSiteNoneWithoutSecure) }
        // Steps 20 to 22.
        if SetCookie.hasPrefixIgnoringASCIICase(name, "__secure-"), !secure { return refused(.securePrefix) }
        if SetCookie.hasPrefixIgnoringASCIICase(name, "__host-"),
            !(secure && hostOnly && path != nil && Array(cookie.path.utf8) == [UInt8(ascii: "/")])
        {
            return refused(.hostPrefix)
        }
        if name.isEmpty,
            SetCookie.hasPrefixIgnoringASCIICase(parsed.value, "__secure-")
                || SetCookie.hasPrefixIgnoringASCIICase(parsed.value, "__host-")
        {
            return refused(.prefixedNamelessValue)
        }
        let options = options
        return state.withLock { state in
            // Step 16: an insecure cookie never overlays a Secure one. Only the buckets of its
            // domain, the domains above it and those below it can hold one.
            if !secure, !secureConnection {
                let below = "." + cookie.domain
                for (domain, cookies) in state.byDomain
                where domain == cookie.domain || CookieHost.domainMatches(cookie.domain, domain)
                    || domain.hasSuffix(below)
                {
                    if cookies.contains(where: {
                        $0.isSecure && !$0.isExpired(at: now) && Self.sameOctets($0.name, name)
                            && (CookieHost.domainMatches($0.domain, cookie.domain)
                                || CookieHost.domainMatches(cookie.domain, $0.domain))
                            && CookieHost.pathMatches(cookie.path, $0.path)
                    }) {
                        return refused(.overlaysSecure)
                    }
                }
            }
            cookie.sequence = state.sequence
            state.sequence += 1
            let stored = Self.insert(cookie, into: &state, options: options, now: now)
            return CookieDecision(
                name: name, cookie: stored, refusal: nil, keptHostOnlyWithoutSuffixList: keptHostOnly)
        }
    }

    /// Steps 23 and 24: `cookie` in place of one with the same name, domain, host-only flag and
    /// path (keeping its creation time), expired cookies of its domain removed, and the limits
    /// kept. Returns the cookie as stored.
    @discardableResult
    static func insert(_ cookie: Cookie, into state: inout State, options: Options, now: Date) -> Cookie {
        var cookie = cookie
        var cookies = state.byDomain.removeValue(forKey: cookie.domain) ?? []
        // Expired cookies go first: one lends its creation time to no replacement.
        let unexpired = cookies.count
        cookies.removeAll { $0.isExpired(at: now) }
        state.count -= unexpired - cookies.count
        if let old = cookies.firstIndex(where: {
            Self.sameOctets($0.name, cookie.name) && $0.isHostOnly == cookie.isHostOnly
                && Self.sameOctets($0.path, cookie.path)
        }) {
            cookie.created = cookies[old].created
            cookie.sequence = cookies[old].sequence
            cookies.remove(at: old)
            state.count -= 1
        }
        if !cookie.isExpired(at: now) {
            cookies.append(cookie)
            state.count += 1
        }
        if !cookies.isEmpty { state.byDomain[cookie.domain] = cookies }
        evictExcess(&state, crowding: cookie.domain, options: options, now: now)
        return cookie
    }

    /// Removes excess cookies in the draft's order: in `domain`'s bucket past the per-domain
    /// limit, insecure cookies, then any; past the total, expired cookies, then any; least
    /// recently used first within each step. Past the total, a twentieth of the limit more goes
    /// at once, so a stream of new cookies costs one pass over the jar per batch, not per cookie.
    static func evictExcess(_ state: inout State, crowding domain: String, options: Options, now: Date) {
        if var cookies = state.byDomain[domain], cookies.count > options.maximumPerDomain {
            state.byDomain[domain] = nil
            for insecureOnly in [true, false] {
                while cookies.count > options.maximumPerDomain,
                    let victim = leastRecentlyUsed(in: cookies, where: { !insecureOnly || !$0.isSecure })
                {
                    cookies.remove(at: victim)
                    state.count -= 1
                }
            }
            if !cookies.isEmpty { state.byDomain[domain] = cookies }
        }
        guard state.count > options.maximumTotal else { return }
        let target = max(options.maximumTotal - options.maximumTotal / 20, 0)
        var candidates: [Victim] = []
        candidates.reserveCapacity(state.count)
        for (domain, cookies) in state.byDomain {
            for cookie in cookies {
                candidates.append(
                    Victim(
                        expired: cookie.isExpired(at: now), used: cookie.lastAccessed, sequence: cookie.sequence,
                        domain: domain))
            }
        }
        candidates.sort { a, b in
            if a.expired != b.expired { return a.expired }
            return (a.used, a.sequence) < (b.used, b.sequence)
        }
        var doomed: [String: Set<UInt64>] = [:]
        for victim in candidates.prefix(state.count - target) {
            doomed[victim.domain, default: []].insert(victim.sequence)
        }
        for (domain, sequences) in doomed {
            guard var cookies = state.byDomain.removeValue(forKey: domain) else { continue }
            let before = cookies.count
            cookies.removeAll { sequences.contains($0.sequence) }
            state.count -= before - cookies.count
            if !cookies.isEmpty { state.byDomain[domain] = cookies }
        }
    }

    /// A cookie that may be evicted, by the draft's priority.
    struct Victim {
        let expired: Bool
        let used: Date
        let sequence: UInt64
        let domain: String
    }

    /// Whether two strings hold the same bytes (cookie names and paths are octets: `==` on
    /// `String` calls canonically equivalent spellings the same).
    static func sameOctets(_ a: String, _ b: String) -> Bool {
        a.utf8.elementsEqual(b.utf8)
    }

    static func leastRecentlyUsed(in cookies: [Cookie], where include: (Cookie) -> Bool) -> Int? {
        var best: Int?
        for (index, cookie) in cookies.enumerated() where include(cookie) {
            if let current = best,
                (cookies[current].lastAccessed, cookies[current].sequence) <= (cookie.lastAccessed, cookie.sequence)
            {
                continue
            }
            best = index
        }
        return best
    }
}

extension SetCookie.Attribute {
    var isMaxAge: Bool {
        if case .maxAge = self { return true }
        return false
    }
}
