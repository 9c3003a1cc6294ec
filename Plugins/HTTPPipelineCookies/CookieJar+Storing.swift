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
        if !domainAttribute.isEmpty {
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
        let lowered = SetCookie.asciiLowercased(name)
        if lowered.hasPrefix("__secure-"), !secure { return refused(.securePrefix) }
        if lowered.hasPrefix("__host-"), !(secure && hostOnly && path != nil && cookie.path == "/") {
            return refused(.hostPrefix)
        }
        if name.isEmpty {
            let value = SetCookie.asciiLowercased(parsed.value)
            if value.hasPrefix("__secure-") || value.hasPrefix("__host-") { return refused(.prefixedNamelessValue) }
        }
        let options = options
        return state.withLock { state in
            // Step 16: an insecure cookie never overlays a Secure one.
            if !secure, !secureConnection {
                for (_, cookies) in state.byDomain
                where cookies.contains(where: {
                    $0.name == name && $0.isSecure
                        && (CookieHost.domainMatches($0.domain, cookie.domain)
                            || CookieHost.domainMatches(cookie.domain, $0.domain))
                        && CookieHost.pathMatches(cookie.path, $0.path)
                }) {
                    return refused(.overlaysSecure)
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
        var cookies = state.byDomain[cookie.domain] ?? []
        if let old = cookies.firstIndex(where: {
            $0.name == cookie.name && $0.isHostOnly == cookie.isHostOnly && $0.path == cookie.path
        }) {
            cookie.created = cookies[old].created
            cookie.sequence = cookies[old].sequence
            cookies.remove(at: old)
            state.count -= 1
        }
        cookies.append(cookie)
        state.count += 1
        let before = cookies.count
        cookies.removeAll { $0.isExpired(at: now) }
        state.count -= before - cookies.count
        state.byDomain[cookie.domain] = cookies.isEmpty ? nil : cookies
        evictExcess(&state, options: options, now: now)
        return cookie
    }

    /// Removes excess cookies in the draft's order: expired ones; then, in domains past the
    /// per-domain limit, insecure ones, then any; then, past the total, any; least recently used
    /// first within each step.
    static func evictExcess(_ state: inout State, options: Options, now: Date) {
        let crowded = state.byDomain.filter { $0.value.count > options.maximumPerDomain }
        guard !crowded.isEmpty || state.count > options.maximumTotal else { return }
        // 1. Expired cookies, everywhere.
        for (domain, cookies) in state.byDomain {
            let kept = cookies.filter { !$0.isExpired(at: now) }
            state.count -= cookies.count - kept.count
            state.byDomain[domain] = kept.isEmpty ? nil : kept
        }
        // 2 and 3. In each domain past its limit: insecure cookies first, then any.
        for domain in crowded.keys {
            guard var cookies = state.byDomain[domain] else { continue }
            for insecureOnly in [true, false] {
                while cookies.count > options.maximumPerDomain,
                    let victim = leastRecentlyUsed(in: cookies, where: { !insecureOnly || !$0.isSecure })
                {
                    cookies.remove(at: victim)
                    state.count -= 1
                }
            }
            state.byDomain[domain] = cookies.isEmpty ? nil : cookies
        }
        // 4. Past the total: any cookie, least recently used first.
        while state.count > options.maximumTotal {
            var oldest: (domain: String, index: Int, used: Date, sequence: UInt64)?
            for (domain, cookies) in state.byDomain {
                for (index, cookie) in cookies.enumerated()
                where oldest.map({ (cookie.lastAccessed, cookie.sequence) < ($0.used, $0.sequence) }) ?? true {
                    oldest = (domain, index, cookie.lastAccessed, cookie.sequence)
                }
            }
            guard let oldest else { break }
            state.byDomain[oldest.domain]?.remove(at: oldest.index)
            if state.byDomain[oldest.domain]?.isEmpty == true { state.byDomain[oldest.domain] = nil }
            state.count -= 1
        }
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
