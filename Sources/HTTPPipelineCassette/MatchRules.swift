public import Foundation

/// How a ``ReplayingTransport`` decides that a request is a recorded one.
///
/// By default a request matches an entry with the same method, origin (scheme, host and port),
/// path and query items (in any order across names, in order within one name); headers and
/// bodies are not compared. Both sides are compared redacted: a live request passes through the
/// same `Redaction` as the recording did, and a placeholder (`<redacted-3>`) matches any
/// redacted value, so a test may send a dummy token where a real one was recorded.
///
/// In compared headers a secret also keeps its placeholder for the rest of the replay: once a
/// live token has been served an entry recorded with `<redacted-1>`, it goes to entries with
/// `<redacted-1>` first, and another token to entries without it; where no unserved entry
/// agrees, the first matching one is served. So when each secret's first request meets its own
/// recorded placeholder first (as in a token refresh: the stale token's 401 comes before there
/// is a fresh token), a stale token's later requests and a fresh one's are told apart however
/// concurrent callers interleave them. A secret is tied to the placeholder it meets first: one
/// dummy token sent for two recorded ones follows the first one's entries, then the other's.
///
/// ```swift
/// let rules = MatchRules.default
///     .ignoringQueryItems(["timestamp"])
///     .matchingHeaders(["Accept"])
///     .matchingBodies { recorded, live in recorded == live }
/// ```
public struct MatchRules: Sendable {
    /// Which headers are compared.
    enum Headers: Sendable {
        case none
        case only(Set<String>)
        case allExcept(Set<String>)
    }

    var ignoredQueryItems: Set<String> = []
    var headers: Headers = .none
    var bodies: (@Sendable (_ recorded: Data, _ live: Data) -> Bool)?
    var matchesOrigin = true

    /// Method, origin, path and query items; no headers, no bodies.
    public static let `default` = MatchRules()

    /// Returns rules that leave these query items out of the comparison (a timestamp, a nonce).
    ///
    /// - Parameter names: Query item names, as decoded, compared exactly.
    /// - Returns: The modified rules.
    public func ignoringQueryItems(_ names: [String]) -> MatchRules {
        var copy = self
        copy.ignoredQueryItems.formUnion(names)
        return copy
    }

    /// Returns rules that compare these headers, and only these (added to any given before).
    ///
    /// - Parameter names: Header names, compared case-insensitively.
    /// - Returns: The modified rules.
    public func matchingHeaders(_ names: [String]) -> MatchRules {
        adding(headers: names) {
            if case .only(let earlier) = $0 { earlier } else { nil }
        } make: {
            .only($0)
        }
    }

    /// Returns rules that compare every header except these (added to any ignored before).
    ///
    /// - Parameter names: Header names left out, compared case-insensitively.
    /// - Returns: The modified rules.
    public func ignoringHeaders(_ names: [String]) -> MatchRules {
        adding(headers: names) {
            if case .allExcept(let earlier) = $0 { earlier } else { nil }
        } make: {
            .allExcept($0)
        }
    }

    /// A copy whose header rule is `make` of the names, lowercased, with those of the same kind
    /// of rule given before (`earlier` finds them).
    func adding(
        headers names: [String],
        earlier: (Headers) -> Set<String>?,
        make: (Set<String>) -> Headers
    ) -> MatchRules {
        var copy = self
        copy.headers = make(Set(names.map { $0.lowercased() }).union(earlier(headers) ?? []))
        return copy
    }

    /// Returns rules that also ask `matcher` whether the bodies match.
    ///
    /// - Parameter matcher: Called with the recorded body and the live one, both redacted (text
    ///   bodies with the plain `Redaction.mark` where a secret was; empty
    ///   for no body); returns whether they match.
    /// - Returns: The modified rules.
    public func matchingBodies(_ matcher: @escaping @Sendable (_ recorded: Data, _ live: Data) -> Bool) -> MatchRules {
        var copy = self
        copy.bodies = matcher
        return copy
    }

    /// Returns rules that compare paths without their origin: for a server whose port changes
    /// between recording and replay.
    ///
    /// - Returns: The modified rules.
    public func ignoringOrigin() -> MatchRules {
        var copy = self
        copy.matchesOrigin = false
        return copy
    }
}
