package import Foundation
package import HTTPPipeline
package import HTTPPipelineTesting

/// One exchange of the adversarial corpus: secrets that must never be logged, and controls —
/// values that look technical or contain secret-looking words — that must stay visible.
package struct CorpusCase: Sendable {
    /// Where the secrets hide.
    package enum Category: String, CaseIterable, Sendable {
        case headers, query, path
        case userInfo = "user info"
        case json = "JSON"
        case form, multipart, text, errors, responses
    }

    package let category: Category
    package var request: HTTPRequest
    package var status = 200
    package var responseHeaders: [String: String] = [:]
    package var responseBody = Data()
    /// An error the transport throws instead of answering.
    package var error: (any Error)?
    /// Values that must not appear in the log (nor, for long ones, their first or last 12
    /// characters).
    package var secrets: [String] = []
    /// Values that must appear in the log unchanged.
    package var controls: [String] = []

    /// What the scripted transport answers.
    package var reply: ScriptedTransport.Reply {
        error.map { .failure($0) } ?? .status(status, headers: responseHeaders, body: responseBody)
    }
}

/// Builds the adversarial corpus from public facts: the names issue 17 found leaking and their
/// relatives, credential formats with published shapes (GitHub, GitLab, Slack, Stripe, AWS,
/// Google, OpenAI, npm, Hugging Face, DigitalOcean, Shopify, SendGrid, Mailgun, JWTs, Telegram
/// bot tokens, PEM private keys), OAuth's PKCE and device-flow fields, presigned URLs, webhook
/// and reset-link URLs, and structural hiding places (escaped JSON keys past 16 KiB, values on the
/// next line, YAML blocks, multipart fields). Deterministic for a seed.
package struct AdversarialCorpus {
    var random: SeededRandomNumberGenerator

    package init(seed: UInt64) {
        random = SeededRandomNumberGenerator(seed: seed)
    }

    /// `perCategory` cases of every category.
    package mutating func cases(perCategory: Int) -> [CorpusCase] {
        CorpusCase.Category.allCases.flatMap { category in
            (0..<perCategory).map { index in makeCase(category, index) }
        }
    }

    mutating func makeCase(_ category: CorpusCase.Category, _ index: Int) -> CorpusCase {
        switch category {
        case .headers: headersCase(index)
        case .query: queryCase(index)
        case .path: pathCase(index)
        case .userInfo: userInfoCase(index)
        case .json: jsonCase(index)
        case .form: formCase(index)
        case .multipart: multipartCase(index)
        case .text: textCase(index)
        case .errors: errorCase(index)
        case .responses: responseCase(index)
        }
    }

    // MARK: Randomness

    static let upper = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    static let lower = Array("abcdefghijklmnopqrstuvwxyz")
    static let digits = Array("0123456789")
    static let base62 = upper + lower + digits
    static let base64URL = base62 + Array("-_")
    static let base64 = base62 + Array("+/")
    static let hex = Array("0123456789abcdef")

    mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[Int.random(in: 0..<elements.count, using: &random)]
    }

    mutating func string(_ alphabet: [Character], _ count: Int) -> String {
        String((0..<count).map { _ in pick(alphabet) })
    }

    mutating func number(_ range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &random)
    }

    mutating func chance(_ odds: Int) -> Bool {
        number(1...odds) == 1
    }

    // MARK: Secrets

    /// A credential in one of the published formats, with a fresh random tail.
    mutating func shapedSecret() -> String {
        switch number(0...17) {
        case 0: "ghp_" + string(Self.base62, 36)
        case 1: "gho_" + string(Self.base62, 36)
        case 2: "github_pat_11" + string(Self.upper + Self.digits, 20) + "_" + string(Self.base62, 59)
        case 3: "glpat-" + string(Self.base62, 20)
        case 4:
            "xoxb-\(number(1_000_000_000...9_999_999_999))-\(number(1_000_000_000...9_999_999_999))-"
                + string(Self.base62, 24)
        case 5: "xoxp-\(number(1_000_000_000...9_999_999_999))-" + string(Self.base62, 32)
        case 6: pick(["sk_live_", "rk_live_", "sk_test_"]) + string(Self.base62, 24 + number(0...75))
        case 7: pick(["AKIA", "ASIA"]) + string(Self.upper + Array("234567"), 16)
        case 8: "AIza" + string(Self.base64URL, 35)
        case 9: "ya29." + string(Self.base64URL, 120)
        case 10: "sk-proj-" + string(Self.base64URL, 48)
        case 11: "npm_" + string(Self.base62, 36)
        case 12: "hf_" + string(Self.upper + Self.lower, 34)
        case 13: "dop_v1_" + string(Self.hex, 64)
        case 14: "SG." + string(Self.base64URL, 22) + "." + string(Self.base64URL, 43)
        case 15: "key-" + string(Self.hex, 32)
        case 16: jsonWebToken()
        default: telegramToken()
        }
    }

    /// A random token as many APIs issue them: base62, base64url or base64, 32 to 64 characters.
    mutating func randomToken() -> String {
        string(pick([Self.base62, Self.base64URL, Self.base64]), number(32...64))
    }

    /// A JSON Web Token: a common header, a payload with a random subject, a signature.
    mutating func jsonWebToken() -> String {
        let header = pick([#"{"alg":"HS256","typ":"JWT"}"#, #"{"alg":"RS256","kid":"k1","typ":"JWT"}"#])
        let payload = #"{"sub":"\#(string(Self.base62, 12))","iat":\#(number(1_600_000_000...1_800_000_000))}"#
        return Self.base64URLEncoded(header) + "." + Self.base64URLEncoded(payload) + "." + string(Self.base64URL, 43)
    }

    static func base64URLEncoded(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// A Telegram bot token: the bot's id, `:`, 35 characters.
    mutating func telegramToken() -> String {
        "\(number(100_000_000...9_999_999_999)):AA" + string(Self.base64URL, 33)
    }

    /// A PEM private key block and the base64 lines that must not show.
    mutating func privateKey() -> (pem: String, lines: [String]) {
        let kind = pick(["RSA PRIVATE KEY", "PRIVATE KEY", "EC PRIVATE KEY", "OPENSSH PRIVATE KEY"])
        let lines = (0..<number(3...6)).map { _ in string(Self.base64, 64) }
        return ("-----BEGIN \(kind)-----\n" + lines.joined(separator: "\n") + "\n-----END \(kind)-----", lines)
    }

    /// A password-like secret someone typed: letters, digits and a symbol.
    mutating func password() -> String {
        string(Self.lower, 4) + string(Self.digits, 3) + pick(["!", "#", "$", "%"]) + string(Self.upper, 3)
    }

    /// A short numeric secret (PIN, one-time code, card verification value) long enough to find.
    mutating func pin() -> String {
        String(number(100_000...99_999_999))
    }

    /// A secret of any of the kinds above.
    mutating func anySecret() -> String {
        switch number(0...3) {
        case 0: shapedSecret()
        case 1: randomToken()
        case 2: password()
        default: pin()
        }
    }

    // MARK: Controls

    mutating func uuid() -> String {
        [8, 4, 4, 4, 12].map { string(Self.hex, $0) }.joined(separator: "-")
    }

    mutating func sha1() -> String { string(Self.hex, 40) }
    mutating func sha256() -> String { string(Self.hex, 64) }

    mutating func ulid() -> String {
        "0" + string(Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ"), 25)
    }

    /// A base64 PNG, as APIs inline small images.
    mutating func imageData() -> String {
        "iVBORw0KGgoAAAANSUhEUgAAA" + string(Self.base64, 120) + "AAAAAElFTkSuQmCC"
    }

    /// PKCE's code challenge: base64url of a SHA-256, public by design.
    mutating func codeChallenge() -> String {
        string(Self.base64URL, 43)
    }

    static let words = [
        "keyboard", "monkey", "tokenizer", "author", "passage", "compass", "secretary", "keynote", "turkey",
        "pipeline", "orders", "shelf", "library", "concurrency", "swift", "holiday", "album", "invoice",
    ]

    mutating func phrase() -> String {
        (0..<number(2...4)).map { _ in pick(Self.words) }.joined(separator: " ")
    }

    mutating func timestamp() -> String {
        "20\(number(10...29))-0\(number(1...9))-1\(number(0...9))T\(number(10...23)):\(number(10...59)):\(number(10...59))Z"
    }

    // MARK: Names

    /// Names issue 17 found leaking, and relatives the lexicon must catch by their words.
    static let secretNames = [
        "privateKey", "signingKey", "passphrase", "pwd", "pin", "otp", "client_assertion", "assertion",
        "device_code", "authorizationCode", "jwt", "PHPSESSID", "sid", "cvv", "code_verifier", "user_code",
        "SAMLResponse", "refreshTokenHint", "x-api-token", "apiKey", "client_secret", "sessionToken", "mfaCode",
        "totp_secret", "accessKey", "JSESSIONID", "connect.sid", "pass", "auth_token", "Password",
    ]

    /// Header names that are secret by their words.
    static let secretHeaderNames = [
        "X-Signing-Key", "X-Sid", "X-Otp", "X-Client-Assertion", "X-PHPSESSID", "X-Api-Token",
        "X-Refresh-Token-Hint", "X-Session-Key", "X-Device-Code", "X-Auth-Pin", "Authorization",
        "Proxy-Authorization", "Cookie", "X-Passphrase", "X-Upstream-Secret",
    ]

    /// Plain names, under which only a value's shape can tell a secret.
    static let plainNames = ["note", "ref", "next", "data", "value", "q", "label", "comment", "target", "extra"]
}

extension CorpusCase {
    /// The seed of the corpus every redaction test runs.
    package static let seed: UInt64 = 0x17_5EC2E7

    /// The corpus every redaction test runs: `perCategory` cases of each category, drawn from
    /// ``seed``.
    package static func corpus(perCategory: Int = 110) -> [CorpusCase] {
        var generator = AdversarialCorpus(seed: seed)
        return generator.cases(perCategory: perCategory)
    }

    /// Whether a secret, or for a long one its first or last 12 characters, shows in `text`.
    package static func leaks(_ secret: String, in text: String) -> Bool {
        text.contains(secret)
            || (secret.count >= 24 && (text.contains(secret.prefix(12)) || text.contains(secret.suffix(12))))
    }
}
