import Foundation
import HTTPPipelineRedaction

/// Redaction of URLs, headers and bodies on arbitrary text.
///
/// The input is used whole (as a URL, a header value, a body of several types) and, split in
/// the middle, as the text around a secret planted where the default redaction hides it by
/// design: an `Authorization` header's value, a header whose name contains `token`, the
/// credential after `Bearer` in any header value, an `access_token` query value, a
/// `password` form field, a JSON `"password"` value at the top of any JSON document, and in
/// free text a URL's user info and a `"password": "…"` pair; and the secret in published
/// shapes (a GitHub, Slack, Stripe, AWS or Google key, a JWT, a Telegram bot token, a PEM private
/// key) in headers, queries, paths, forms, JSON, multipart fields and free text, whatever their
/// name (`RedactionChecks+Shapes.swift`).
/// Invariants:
/// - it never crashes;
/// - a secret header's value is exactly the mark;
/// - no eight-character run of a planted secret shows in the output (checked only when the
///   input itself holds none, so a run that shows can only have come from the planted secret);
/// - a body's text, without the note on what was cut, fits the limit.
enum RedactionChecks {
    /// The planted secret: letters and digits only, so every rule reads it as one token, and
    /// none of its runs can come from the mark or from a note on what was cut.
    static let secret = "ZQ7XK2W9VPL4MJ8R"
    static let secretRuns: [String] = {
        let characters = Array(secret)
        return (0...(characters.count - 8)).map { String(characters[$0..<$0 + 8]) }
    }()

    static let contentTypes: [String?] = [
        nil, "application/json", "application/x-www-form-urlencoded", "text/plain; charset=utf-8",
    ]
    static let limits = [0, 7, 64, 4_096]

    static func leaks(_ output: String) -> Bool {
        secretRuns.contains { output.contains($0) }
    }

    static func violations(_ input: UnsafeRawBufferPointer) -> [String] {
        let redaction = Redaction.default
        let text = String(decoding: input, as: UTF8.self)
        var broken: [String] = []
        // The whole input, everywhere: nothing may crash, a body must fit its limit.
        _ = redaction.text(text)
        _ = redaction.urlString(text)
        if let url = URL(string: text) { _ = redaction.url(url) }
        _ = redaction.headerValue(name: "X-Note", value: text)
        _ = redaction.headerValue(name: text, value: text)
        for (index, contentType) in contentTypes.enumerated() {
            let limit = limits[(index + input.count) % limits.count]
            broken += bodyFits(redaction.body(Data(input), contentType: contentType, limit: limit), limit: limit)
        }
        // The planted secrets, between the two halves of the input.
        guard !leaks(text) else { return broken }
        let middle = input.count / 2
        let prefix = String(decoding: input[..<middle], as: UTF8.self)
        let suffix = String(decoding: input[middle...], as: UTF8.self)
        broken += headers(redaction, prefix: prefix, suffix: suffix)
        broken += query(redaction, prefix: prefix, suffix: suffix)
        broken += form(redaction, prefix: prefix, suffix: suffix)
        broken += freeText(redaction, prefix: prefix, suffix: suffix)
        broken += json(redaction, input: input)
        broken += shapes(redaction, prefix: prefix, suffix: suffix)
        return broken
    }

    /// The text of a body before any note on what was left out fits the limit.
    static func bodyFits(_ body: String, limit: Int) -> [String] {
        guard !body.hasPrefix("<binary body: ") else { return [] }
        var shown = Substring(body)
        if let note = body.range(of: "… (", options: .backwards), body.hasSuffix(")"),
            body[note.upperBound...].contains(" more bytes")
        {
            shown = body[..<note.lowerBound]
        }
        return shown.utf8.count <= limit ? [] : ["a body limited to \(limit) bytes shows \(shown.utf8.count)"]
    }

    static func headers(_ redaction: Redaction, prefix: String, suffix: String) -> [String] {
        var broken: [String] = []
        let value = prefix + secret + suffix
        for name in ["Authorization", " proxy-AUTHORIZATION\t", "Cookie", "\(prefix)-Token"] {
            let shown = redaction.headerValue(name: name, value: value)
            if shown != Redaction.mark {
                broken.append("secret header \(name.debugDescription) shows \(shown.debugDescription)")
            }
        }
        let bearer = "\(prefix) Bearer \(secret) \(suffix)"
        let shown = redaction.headerValue(name: "X-Note", value: bearer)
        if leaks(shown) {
            broken.append("Bearer credential leaks from \(bearer.debugDescription): \(shown.debugDescription)")
        }
        return broken
    }

    static func query(_ redaction: Redaction, prefix: String, suffix: String) -> [String] {
        let planted = "\(prefix)?access_token=\(secret)&\(suffix)"
        var broken: [String] = []
        let shown = redaction.urlString(planted)
        if leaks(shown) {
            broken.append("access_token leaks from \(planted.debugDescription): \(shown.debugDescription)")
        }
        if let url = URL(string: planted) {
            let shown = redaction.url(url)
            if leaks(shown) {
                broken.append(
                    "access_token leaks from URL \(url.absoluteString.debugDescription): \(shown.debugDescription)")
            }
        }
        return broken
    }

    static func form(_ redaction: Redaction, prefix: String, suffix: String) -> [String] {
        let planted = "\(prefix)&password=\(secret)&\(suffix)"
        let shown = redaction.body(
            Data(planted.utf8), contentType: "application/x-www-form-urlencoded", limit: 1 << 16)
        return leaks(shown) ? ["form password leaks from \(planted.debugDescription): \(shown.debugDescription)"] : []
    }

    /// Free text (an error's description, a text body): a URL's user info, and a JSON-ish
    /// `"password": "…"` pair, each set off by spaces from the text around it.
    static func freeText(_ redaction: Redaction, prefix: String, suffix: String) -> [String] {
        var broken: [String] = []
        for planted in [
            "\(prefix) https://user:\(secret)@example.com/path \(suffix)",
            "\(prefix) {\"password\": \"\(secret)\"} \(suffix)",
        ] {
            let shown = redaction.text(planted)
            if leaks(shown) {
                broken.append("free text leaks from \(planted.debugDescription): \(shown.debugDescription)")
            }
        }
        return broken
    }

    /// A JSON document holding the input (parsed as JSON when it is, else as a string) beside a
    /// `"password"`; the input's own keys and strings are checked for runs of the secret first.
    static func json(_ redaction: Redaction, input: UnsafeRawBufferPointer) -> [String] {
        let payload: Any =
            (try? JSONSerialization.jsonObject(with: Data(input), options: [.fragmentsAllowed]))
            ?? String(decoding: input, as: UTF8.self)
        guard
            JSONSerialization.isValidJSONObject([payload]),
            let alone = try? JSONSerialization.data(withJSONObject: [payload], options: [.fragmentsAllowed]),
            !leaks(String(decoding: alone, as: UTF8.self))
        else { return [] }
        var documents: [Any] = [["password": secret, "payload": payload]]
        if var object = payload as? [String: Any] {
            object["password"] = secret
            documents.append(object)
        }
        var broken: [String] = []
        for document in documents where JSONSerialization.isValidJSONObject(document) {
            guard let data = try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]) else {
                continue
            }
            for contentType in [nil, "application/json"] {
                let shown = redaction.body(data, contentType: contentType, limit: 1 << 16)
                if leaks(shown) {
                    broken.append("JSON password leaks from \(String(decoding: data, as: UTF8.self).debugDescription)")
                }
            }
        }
        return broken
    }
}
