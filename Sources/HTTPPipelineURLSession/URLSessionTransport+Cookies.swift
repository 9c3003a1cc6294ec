import HTTPPipeline

#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking
#else
import Foundation
#endif

/// A transport's cookies: kept in its configuration's cookie storage, each bound to the origin
/// that set it, stored and sent by the transport itself (URLSession neither stores, adds nor
/// replaces any).
///
/// Cookie storages key cookies by host alone (RFC 6265 §8.5), so URLSession sends a cookie to
/// every port of the host that set it: two servers on one machine read each other's cookies.
/// Here a cookie a response sets is stored with that response's port as its port list
/// (`HTTPCookie.portList`, which says "sent only to these ports"), and a request carries only the
/// stored cookies whose port list holds its port; http's and https's default ports differ, so
/// the scheme comes with the port. The storage's other rules still apply, checked here since
/// the storage on Linux checks only the domain: the domain (a `Domain` attribute shares a cookie
/// with the subdomains, on the same port), the path, `Secure` (https only) and expiry. A cookie
/// put in the storage without a port list (by hand, or by other code sharing the storage) goes
/// to every port its domain matches.
///
/// `@unchecked Sendable`: its properties never change, and `HTTPCookieStorage` is safe to use
/// from any thread (on Linux every access goes through the storage's own serial queue; on
/// Darwin it is documented thread-safe); it is not marked `Sendable` on every platform.
struct SessionCookieJar: @unchecked Sendable {
    /// The storage; `nil` when the configuration has none or cookies are off.
    private let storage: HTTPCookieStorage?
    /// Whether requests carry stored cookies (`httpShouldSetCookies`).
    private let sends: Bool

    /// The cookie settings of `configuration`: its storage, `httpShouldSetCookies` and
    /// `httpCookieAcceptPolicy` (`.never` stores no cookie and sends none).
    init(_ configuration: URLSessionConfiguration) {
        let on = configuration.httpShouldSetCookies && configuration.httpCookieAcceptPolicy != .never
        storage = on ? configuration.httpCookieStorage : nil
        sends = on
    }

    private init() {
        storage = nil
        sends = false
    }

    /// No cookie stored, none sent: the transport's default, leaving cookies to the pipeline.
    static let off = SessionCookieJar()

    /// Whether cookies are stored and sent.
    var isOn: Bool { storage != nil }

    /// Keeps the cookies `response` sets, each bound to the port it came from.
    func store(from response: HTTPURLResponse) {
        // Most responses set no cookie: they are not parsed for one. The field is found in any
        // case of its name, and handed to `HTTPCookie` under the name it looks for.
        guard let storage, let setCookie = response.value(forHTTPHeaderField: "Set-Cookie"), let url = response.url,
            let origin = HTTPOrigin(url)
        else { return }
        let cookies = HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": setCookie], for: url).compactMap {
            Self.bound($0, to: origin.port)
        }
        guard !cookies.isEmpty else { return }
        storage.setCookies(cookies, for: url, mainDocumentURL: nil)
    }

    /// `cookie` with `port` as its only port.
    ///
    /// Made as a version 1 cookie, the version whose port list both Foundations keep (Linux's
    /// keeps one port of a version 0 cookie, Darwin's documents the list for version 1 only);
    /// a version 1 cookie's lifetime is its `Max-Age`, so the expiry becomes one. One already
    /// expired gets a negative `Max-Age`: stored, it removes the cookie it replaces.
    static func bound(_ cookie: HTTPCookie, to port: Int, now: Date = Date()) -> HTTPCookie? {
        var properties: [HTTPCookiePropertyKey: Any] = [
            .name: cookie.name, .value: cookie.value, .domain: cookie.domain, .path: cookie.path,
            .port: String(port), .version: "1",
        ]
        if cookie.isSecure { properties[.secure] = "TRUE" }
        if cookie.isHTTPOnly { properties[HTTPCookiePropertyKey("HttpOnly")] = "TRUE" }
        if let expires = expiry(of: cookie, now: now) {
            let seconds = expires.timeIntervalSince(now).rounded(.up)
            properties[.maximumAge] = seconds > 0 ? String(Int(min(seconds, Double(Int32.max)))) : "-1"
            properties[.expires] = expires
            properties[.discard] = "FALSE"
        } else {
            properties[.discard] = "TRUE"
        }
        return HTTPCookie(properties: properties)
    }

    /// When `cookie` expires; `nil` for a session cookie. `Max-Age` wins over `Expires` (RFC
    /// 6265 §5.3), which Foundation on Linux does not do for a version 0 cookie: it parses
    /// `Max-Age` and ignores it, so `Max-Age=0` would never remove a cookie.
    static func expiry(of cookie: HTTPCookie, now: Date) -> Date? {
        if let text = cookie.properties?[.maximumAge] as? String,
            let seconds = Int(text.trimmingCharacters(in: .whitespaces))
        {
            return now.addingTimeInterval(TimeInterval(seconds))
        }
        return cookie.expiresDate
    }

    /// The `Cookie` field for a request to `url`: the stored cookies it may carry, longest path
    /// first (RFC 6265 §5.4); `nil` when there are none.
    func field(for url: URL) -> String? {
        guard sends, let storage, let origin = HTTPOrigin(url), let stored = storage.cookies(for: url),
            !stored.isEmpty
        else { return nil }
        let path = url.path(percentEncoded: true).isEmpty ? "/" : url.path(percentEncoded: true)
        let now = Date()
        let cookies = stored.filter { cookie in
            if let expires = cookie.expiresDate, expires <= now { return false }
            if cookie.isSecure, origin.scheme != "https" { return false }
            if let ports = cookie.portList, !ports.isEmpty, !ports.contains(where: { $0.intValue == origin.port }) {
                return false
            }
            return Self.path(path, matches: cookie.path)
        }
        guard !cookies.isEmpty else { return nil }
        let sorted = cookies.sorted { $0.path.utf8.count > $1.path.utf8.count }
        return HTTPCookie.requestHeaderFields(with: sorted)["Cookie"]
    }

    /// Whether a request's path is under a cookie's (RFC 6265 §5.1.4): the same, or it starts
    /// with the cookie's path followed by a `/` (or one ending it).
    static func path(_ requestPath: String, matches cookiePath: String) -> Bool {
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return requestPath.utf8.count == cookiePath.utf8.count || cookiePath.hasSuffix("/")
            || requestPath.utf8.dropFirst(cookiePath.utf8.count).first == UInt8(ascii: "/")
    }

    /// `request` with the `Cookie` field the jar sends to its URL, in place of one the jar added
    /// for where it went before (on a redirect the session follows).
    func replacingCookies(of request: URLRequest) -> URLRequest {
        var request = request
        request.setValue(request.url.flatMap(field(for:)), forHTTPHeaderField: "Cookie")
        return request
    }
}
