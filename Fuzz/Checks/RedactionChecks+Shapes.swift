import Foundation
import HTTPPipelineRedaction

/// The planted secret in the shapes the redaction recognises whatever their name, each set off by
/// spaces (or a line break) from the text around it, in every place the shapes are looked for.
///
/// Only shapes whose recognition cannot depend on the text around them are planted: published
/// prefixes, a JSON Web Token, a Telegram bot token, a PEM private key block. (Random-looking
/// tokens are not: the words before one may rightly say it is an identifier.)
extension RedactionChecks {
    /// The planted secret twice over (32 letters and digits), for formats that need a long tail.
    static let doubled = secret + secret

    /// The secret in published shapes.
    static let shapedSecrets: [String] = [
        "ghp_" + doubled, "github_pat_11" + doubled + "_" + doubled, "glpat-" + secret + "abcd", "xoxb-" + doubled,
        "sk_live_" + secret, "AKIA" + secret, "AIza" + doubled, "npm_" + doubled,
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0." + doubled, "5839201746:AA" + doubled,
    ]

    /// A PEM private key block whose body lines hold the secret.
    static let privateKeyBlock =
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\(secret)\n\(doubled)\n-----END RSA PRIVATE KEY-----"

    static func shapes(_ redaction: Redaction, prefix: String, suffix: String) -> [String] {
        var broken: [String] = []
        func check(_ what: String, _ planted: String, _ shown: String) {
            if leaks(shown) {
                broken.append("\(what) leaks from \(planted.debugDescription): \(shown.debugDescription)")
            }
        }
        for shaped in shapedSecrets {
            let text = "\(prefix) \(shaped) \(suffix)"
            check("a shaped secret in free text", text, redaction.text(text))
            check("a shaped secret in a header value", text, redaction.headerValue(name: "X-Note", value: text))
            let query = "\(prefix)?note=\(shaped)&\(suffix)"
            check("a shaped secret in a query value", query, redaction.urlString(query))
            let path = "https://h.example/\(prefix)/\(shaped)/\(suffix)"
            check("a shaped secret as a path segment", path, redaction.urlString(path))
            let form = "\(prefix)&note=\(shaped)&\(suffix)"
            check(
                "a shaped secret in a form value", form,
                redaction.body(Data(form.utf8), contentType: "application/x-www-form-urlencoded", limit: 1 << 16))
            if let json = try? JSONSerialization.data(withJSONObject: ["note": shaped, "payload": prefix + suffix]) {
                check(
                    "a shaped secret in a JSON string", shaped,
                    redaction.body(json, contentType: "application/json", limit: 1 << 16))
            }
        }
        let block = "\(prefix)\n\(privateKeyBlock)\n\(suffix)"
        check("a private key block in free text", block, redaction.text(block))
        let multipart =
            "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n\(prefix)\r\n--XyZ\r\n"
            + "Content-Disposition: form-data; name=\"note\"\r\n\r\nuse \(shapedSecrets[0]) now\r\n--XyZ\r\n"
            + "Content-Disposition: form-data; name=\"password\"\r\n\r\n\(secret)\r\n--XyZ--\r\n\(suffix)"
        check(
            "a secret in a multipart field", multipart,
            redaction.body(Data(multipart.utf8), contentType: "multipart/form-data; boundary=XyZ", limit: 1 << 16))
        return broken
    }
}
