import HTTPPipeline
import HTTPPipelineRedaction

extension CassetteRedactor {
    /// The cookies a request sends (its `Cookie` fields), for HAR viewers: names as sent, values
    /// as the engine shows a `Cookie` header (by default each a placeholder).
    func requestCookies(_ fields: HTTPFields, _ placeholders: inout Placeholders) -> [HAR.Cookie] {
        fields[values: .cookie].flatMap { header in
            header.split(separator: ";").compactMap { pair -> HAR.Cookie? in
                guard let (name, value) = Self.nameAndValue(pair) else { return nil }
                return HAR.Cookie(name: name, value: headerValue(name: "Cookie", value: value, &placeholders))
            }
        }
    }

    /// The cookies a response sets (its `Set-Cookie` fields), with their path, domain, expiry and
    /// flags; values as the engine shows a `Set-Cookie` header (by default each a placeholder).
    func responseCookies(_ fields: HTTPFields, _ placeholders: inout Placeholders) -> [HAR.Cookie] {
        fields[values: .setCookie].compactMap { header in
            var parts = header.split(separator: ";")[...]
            guard let first = parts.popFirst(), let (name, value) = Self.nameAndValue(first) else { return nil }
            var cookie = HAR.Cookie(name: name, value: headerValue(name: "Set-Cookie", value: value, &placeholders))
            for attribute in parts {
                let (key, argument) = Self.nameAndValue(attribute) ?? (Self.trimmed(attribute), "")
                switch key.lowercased() {
                case "path": cookie.path = argument
                case "domain": cookie.domain = argument
                case "expires": cookie.expires = argument
                case "httponly": cookie.httpOnly = true
                case "secure": cookie.secure = true
                default: continue
                }
            }
            return cookie
        }
    }

    /// `name=value`, trimmed; `nil` without `=` or with an empty name.
    static func nameAndValue(_ pair: Substring) -> (String, String)? {
        guard let equals = pair.firstIndex(of: "=") else { return nil }
        let name = trimmed(pair[..<equals])
        guard !name.isEmpty else { return nil }
        return (name, trimmed(pair[pair.index(after: equals)...]))
    }

    static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
