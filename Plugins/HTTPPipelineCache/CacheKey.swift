import Foundation
import HTTPPipeline

/// How requests map to stored responses: the key (the target URI, RFC 9111 §4) and the values a
/// variant must match (the fields its `Vary` names, §4.1, and, in a private cache, the identity
/// the request carried).
enum CacheKey {
    /// The pseudo-field holding a request's identity among a variant's varying values.
    static let identityField = "\u{0}identity"
    /// What an absent field varies as.
    static let absent = "\u{0}absent"

    /// The target URI, normalised as RFC 9110 §4.2.3 allows: scheme and host lowercased, a
    /// default port dropped, an empty path as `/`, no fragment. `nil` for a URL without a host.
    static func key(for url: URL) -> String? {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), let host = components.percentEncodedHost?.lowercased()
        else { return nil }
        var key = scheme + "://" + host
        if let port = components.port, !(scheme == "http" && port == 80), !(scheme == "https" && port == 443) {
            key += ":\(port)"
        }
        key += components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { key += "?" + query }
        return key
    }

    /// Who the request speaks for, in a private cache: the SHA-256 of every credential-bearing
    /// field's value (`Authorization`, `Proxy-Authorization`, `Cookie`, and the fields a layer
    /// marked a credential), so no store ever holds the credential itself. Empty for an
    /// anonymous request.
    static func identity(of request: HTTPRequest) -> String {
        var names: [HTTPField.Name] = [.authorization, .proxyAuthorization, .cookie]
        names += request.context.credentialFields.sorted { $0.rawName.lowercased() < $1.rawName.lowercased() }
        var identity = ""
        for name in names {
            for value in request.fields[values: name] {
                identity += name.rawName.lowercased() + "\u{1}" + value + "\u{2}"
            }
        }
        return identity.isEmpty ? "" : SHA256.hex(identity)
    }

    /// The varying values of `request` for a response whose fields name `vary`: each nominated
    /// field's normalised value (lines joined, whitespace around commas dropped), plus the
    /// identity in a private cache.
    static func varying(_ request: HTTPRequest, vary: [String], identity: String?) -> [String: String] {
        var values: [String: String] = [:]
        for name in vary {
            let lines = request.fields[values: HTTPField.Name(unchecked: name)]
            values[name] = lines.isEmpty ? absent : normalised(lines)
        }
        if let identity { values[identityField] = identity }
        return values
    }

    /// The field names a response's `Vary` lists, lowercased, each once (`*` excluded: never
    /// stored).
    static func varyNames(_ fields: HTTPFields) -> [String] {
        var seen: Set<String> = []
        return fields[values: .vary].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty && $0 != "*" && seen.insert($0).inserted }
    }

    /// Whether a stored variant matches a request (§4.1).
    static func matches(_ entry: CacheEntry, _ request: HTTPRequest, identity: String?) -> Bool {
        guard entry.varying.count == entry.varyNames.count + (identity == nil ? 0 : 1) else { return false }
        if let identity, entry.varying[identityField] != identity { return false }
        for name in entry.varyNames {
            let lines = request.fields[values: HTTPField.Name(unchecked: name)]
            if entry.varying[name] != (lines.isEmpty ? absent : normalised(lines)) { return false }
        }
        return true
    }

    private static func normalised(_ lines: [String]) -> String {
        lines.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: ",")
    }
}
