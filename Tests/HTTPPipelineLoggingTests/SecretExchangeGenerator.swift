import Foundation
import HTTPPipeline
import HTTPPipelineTesting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The value of Foundation's `NSURLErrorFailingURLStringErrorKey`, spelled out because the
/// constant is deprecated (and using it would be a warning); URL loading still sets this key, and
/// error descriptions still print it.
let failingURLStringErrorKey = "NSErrorFailingURLStringKey"

/// One request/response exchange with secrets hidden in it, and the list of those secrets: none of
/// them may appear in anything logged about the exchange.
struct GeneratedExchange: Sendable {
    /// The request: secrets in its URL (user info, query, fragment), headers and body.
    var request: HTTPRequest
    /// The response status.
    var status: Int
    /// The response headers: `Set-Cookie`, secret-named headers, a `Location` with a code.
    var responseHeaders: [String: String]
    /// The response body: nested JSON with secret fields, form or text with secret pairs.
    var responseBody: Data
    /// A thrown error whose description carries a URL with secrets, or `nil`.
    var error: (any Error)?
    /// Every secret, as the application knows it and, for percent-encoded ones, also as encoded
    /// on the wire. None of them, nor the first or last 12 characters of one, may be logged.
    var secrets: [String]
}

/// Makes deterministic exchanges that hide fresh random secrets in every place the redaction
/// rules cover.
///
/// - Parameters:
///   - count: How many exchanges.
///   - seed: The generator seed; equal seeds give equal exchanges.
/// - Returns: The exchanges.
func makeExchanges(count: Int, seed: UInt64) -> [GeneratedExchange] {
    var builder = SecretExchangeBuilder(seed: seed)
    return (0..<count).map { _ in builder.makeExchange() }
}

/// The state behind ``makeExchanges(count:seed:)``.
struct SecretExchangeBuilder {
    private var random: SeededRandomNumberGenerator
    /// Secrets already handed out, so every one is unique.
    private var issued: Set<String> = []
    /// The secrets of the exchange being built.
    private var secrets: [String] = []

    init(seed: UInt64) {
        random = SeededRandomNumberGenerator(seed: seed)
    }

    static let secretHeaderNames = [
        "Authorization", "Proxy-Authorization", "Cookie", "X-Api-Key", "X-Session-Id",
        "X-Auth-Token", "X-Client-Secret", "X-Signature", "X-Upstream-Credential", "X-Passwd", "X-Refresh-Token",
    ]
    static let secretResponseHeaderNames = ["Set-Cookie", "X-Session-Token", "X-New-Api-Key", "WWW-Authenticate"]
    static let secretQueryNames = [
        "access_token", "refresh_token", "id_token", "token", "api_key", "apikey", "key", "client_secret",
        "password", "code", "signature", "sig", "X-Amz-Signature", "X-Amz-Credential", "X-Amz-Security-Token",
        "auth", "session", "ACCESS_TOKEN", "my_session_id", "userPassword", "access%5Ftoken", "access%255Ftoken",
        "api%5Fkey", "client%5fsecret", "%74oken",
    ]
    static let secretFieldNames = [
        "password", "access_token", "refreshToken", "client_secret", "apiKey", "api_key", "sessionId",
        "signature", "token", "id_token", "secret", "Credentials", "code",
    ]
    static let plainWords = ["alpha", "bravo", "swift", "pipeline", "orders", "users", "items", "en", "blue", "42"]
    static let plainKeys = ["id", "name", "count", "page", "lang", "kind", "items", "meta", "data", "note"]
    static let hosts = ["api.example.com", "example.org", "localhost:8080", "10.0.0.7", "[::1]:8443"]
    static let alphanumerics = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")

    // MARK: Exchanges

    mutating func makeExchange() -> GeneratedExchange {
        secrets = []
        let url = makeURL()
        var request = HTTPRequest(method: HTTPMethod(rawValue: pick(["GET", "POST", "PUT", "DELETE"])), url: url)
        request.fields["Accept"] = "application/json"
        request.fields["User-Agent"] = "pipeline-tests/1.0"
        for name in Self.secretHeaderNames.shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random)) {
            let spelled = chance(3) ? name.lowercased() : name
            request.fields[spelled] = secretHeaderValue(for: name)
        }
        if let (body, type) = makeBody() {
            request.body = HTTPBody(body)
            request.fields["Content-Type"] = type
        }
        var responseHeaders = ["Content-Type": "application/json", "X-Request-Id": pick(Self.plainWords)]
        for name in Self.secretResponseHeaderNames.shuffled(using: &random).prefix(
            Int.random(in: 1...2, using: &random))
        {
            responseHeaders[name] = secretHeaderValue(for: name)
        }
        if chance(3) {
            responseHeaders["Location"] =
                "https://app.example.com/callback?state=\(pick(Self.plainWords))&code=\(secret())"
        }
        let responseBody: Data
        if chance(4), let (body, type) = makeBody() {
            responseBody = body
            responseHeaders["Content-Type"] = type
        } else {
            responseBody = Data(makeJSON(depth: Int.random(in: 1...4, using: &random)).utf8)
        }
        var exchange = GeneratedExchange(
            request: request,
            status: pick([200, 201, 204, 301, 400, 401, 403, 404, 500, 503]),
            responseHeaders: responseHeaders,
            responseBody: responseBody,
            error: chance(3) ? makeError() : nil,
            secrets: []
        )
        // Keep exactly the secrets that made it into the exchange (a URL that failed to parse and
        // was drawn again leaves its secrets behind).
        let material = Self.unredactedText(of: exchange)
        let decoded = material.removingPercentEncoding ?? material
        exchange.secrets = secrets.filter { material.contains($0) || decoded.contains($0) }
        return exchange
    }

    /// Everything in an exchange as text, unredacted.
    static func unredactedText(of exchange: GeneratedExchange) -> String {
        var parts = [exchange.request.url.absoluteString]
        parts += exchange.request.fields.map { "\($0.name): \($0.value)" }
        parts.append(String(decoding: exchange.request.body?.bufferedData ?? Data(), as: UTF8.self))
        parts += exchange.responseHeaders.map { "\($0.key): \($0.value)" }
        parts.append(String(decoding: exchange.responseBody, as: UTF8.self))
        parts.append(exchange.error.map { String(describing: $0) } ?? "")
        return parts.joined(separator: "\n")
    }

    // MARK: Secrets

    /// A fresh secret: 24 random alphanumerics, unique among everything handed out.
    mutating func secret() -> String {
        let fresh = freshSecret()
        secrets.append(fresh)
        return fresh
    }

    /// A fresh secret, not yet recorded for the exchange.
    mutating func freshSecret() -> String {
        while true {
            let candidate = "Q" + String((0..<23).map { _ in pick(Self.alphanumerics) })
            if issued.insert(candidate).inserted { return candidate }
        }
    }

    /// A fresh secret that needs percent-encoding (it holds `+`, `/` and `=`, like base64), as
    /// encoded on the wire; both forms are recorded.
    mutating func encodedSecret() -> String {
        let raw = freshSecret()
        let index = raw.index(raw.startIndex, offsetBy: 12)
        let withSymbols = raw[..<index] + "+/=" + raw[index...]
        let encoded =
            withSymbols
            .replacingOccurrences(of: "+", with: "%2B")
            .replacingOccurrences(of: "/", with: "%2F")
            .replacingOccurrences(of: "=", with: "%3D")
        secrets.append(String(withSymbols))
        secrets.append(encoded)
        return encoded
    }

    mutating func secretHeaderValue(for name: String) -> String {
        switch name.lowercased() {
        case "authorization", "proxy-authorization": pick(["Bearer ", "Basic ", "Token "]) + secret()
        case "cookie": "theme=dark; sid=\(secret()); lang=en"
        case "set-cookie": "session=\(secret()); Path=/; HttpOnly; Secure"
        case "www-authenticate": "Bearer realm=\"api\", error=\"invalid_token\", token_hint=\(secret())"
        default: secret()
        }
    }

    // MARK: URLs

    mutating func makeURL() -> URL {
        while true {
            var text = "https://"
            if chance(3) { text += "\(secret()):\(secret())@" }
            text += pick(Self.hosts) + "/" + pick(Self.plainWords) + "/" + pick(Self.plainWords)
            var items = ["page=\(pick(Self.plainWords))"]
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                items.append("\(pick(Self.secretQueryNames))=\(chance(3) ? encodedSecret() : secret())")
            }
            items.append("lang=en")
            items.shuffle(using: &random)
            text += "?" + items.joined(separator: "&")
            if chance(6) { text += "#access_token=\(secret())&token_type=bearer" }
            if let url = URL(string: text) { return url }
        }
    }

    // MARK: Bodies

    /// A request or response body with secrets: nested JSON, a form or text.
    mutating func makeBody() -> (Data, String)? {
        switch Int.random(in: 0..<5, using: &random) {
        case 0: return nil
        case 1:
            let form = [
                "username=bob",
                "\(pick(["password", "client_secret", "access%5Ftoken", "refresh_token"]))=\(secret())",
                "scope=read+write",
                "\(pick(["api_key", "code", "user%5Bpassword%5D"]))=\(chance(2) ? encodedSecret() : secret())",
            ]
            return (Data(form.joined(separator: "&").utf8), "application/x-www-form-urlencoded")
        case 2:
            let text = """
                Rotated credentials for \(pick(Self.plainWords)).
                api_key=\(secret()) and "client_secret": "\(secret())"
                Authorization: Bearer \(secret())
                """
            return (Data(text.utf8), "text/plain; charset=utf-8")
        default:
            return (Data(makeJSON(depth: Int.random(in: 1...4, using: &random)).utf8), "application/json")
        }
    }

    /// A JSON object with plain fields and a secret field `depth` levels down (inside arrays at
    /// some levels), whose value is a string, an object or an array.
    mutating func makeJSON(depth: Int) -> String {
        var fields = [
            "\"\(pick(Self.plainKeys))\": \"\(pick(Self.plainWords))\"",
            "\"count\": \(Int.random(in: 0...99, using: &random))",
        ]
        if depth <= 1 {
            let key = pick(Self.secretFieldNames)
            let value =
                switch Int.random(in: 0..<3, using: &random) {
                case 0: "{\"value\": \"\(secret())\", \"kind\": \"opaque\"}"
                case 1: "[\"\(secret())\", \"\(secret())\"]"
                default: "\"\(secret())\""
                }
            fields.append("\"\(key)\": \(value)")
        } else {
            let inner = makeJSON(depth: depth - 1)
            fields.append("\"\(pick(Self.plainKeys))\": " + (chance(2) ? "[1, \(inner)]" : inner))
        }
        fields.shuffle(using: &random)
        return "{" + fields.joined(separator: ", ") + "}"
    }

    // MARK: Errors

    mutating func makeError() -> any Error {
        var text = "https://"
        if chance(2) { text += "\(secret()):\(secret())@" }
        text += pick(Self.hosts) + "/v1/login?\(pick(Self.secretQueryNames))=\(secret())&page=1"
        guard let url = URL(string: text) else {
            return URLError(.badURL, userInfo: [failingURLStringErrorKey: text])
        }
        let code = pick([URLError.Code.timedOut, .cannotConnectToHost, .networkConnectionLost, .secureConnectionFailed])
        return URLError(code, userInfo: [NSURLErrorFailingURLErrorKey: url, failingURLStringErrorKey: text])
    }

    // MARK: Randomness

    mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[Int.random(in: 0..<elements.count, using: &random)]
    }

    /// True one time in `odds`.
    mutating func chance(_ odds: Int) -> Bool {
        Int.random(in: 0..<odds, using: &random) == 0
    }
}
