package import Foundation
package import HTTPPipeline
package import HTTPPipelineTesting

/// An OAuth 2.0 token endpoint on a real loopback server, as the OAuth 2.0 Security BCP asks
/// servers to behave: every refresh rotates the refresh token, and a refresh token presented
/// after it was rotated (outside the optional reuse grace) is reuse, which revokes the whole
/// family (every access and refresh token of the account) and logs the user out.
///
/// It can lose answers (the connection closes before a response byte, after the server rotated),
/// answer late, and serves `GET /me`, which accepts only the current access token. Tests and the
/// soak read what it saw: every refresh token presented, reuse detected, revocations.
package final class TokenEndpointServer: Sendable {
    package struct State: Sendable {
        /// The refresh token the endpoint accepts now; `nil` after the family was revoked.
        package var currentRefresh: String?
        /// The refresh token rotated last, and when, for the reuse grace.
        package var previousRefresh: (token: String, rotatedAt: ContinuousClock.Instant)?
        /// Every refresh token the family has used up.
        package var spent: Set<String> = []
        package var currentAccess: String?
        package var issued = 0
        /// Every refresh token presented, in order.
        package var presented: [String] = []
        /// Presentations of a rotated token within the grace.
        package var graceReuses = 0
        /// Presentations of a rotated token outside the grace: the family was revoked.
        package var reuseDetected = 0
        /// Answers still to lose, after rotating.
        package var answersToLose = 0
        /// Lose every `n`-th answer (0: none), after rotating.
        package var loseEvery = 0
        package var answersLost = 0
        /// How late the next answers come.
        package var delay: Duration = .zero
        /// Every grant request's form, as received.
        package var forms: [[String: String]] = []
        /// Every grant request's `Authorization` field.
        package var authorizations: [String?] = []
    }

    package let server = LoopbackServer()
    package let state: Locked<State>
    /// How long a rotated refresh token is still accepted; `nil` for none.
    package let grace: Duration?

    /// - Parameters:
    ///   - refresh: The refresh token the client holds.
    ///   - access: The access token `GET /me` accepts now (`nil`: the client's has expired).
    ///   - grace: The reuse grace, if any.
    package init(refresh: String, access: String?, grace: Duration? = nil) throws {
        state = Locked(State(currentRefresh: refresh, currentAccess: access))
        self.grace = grace
        server.route("POST", "/token") { [state, grace] request in
            Self.answer(request, state: state, grace: grace)
        }
        server.route("GET", "/me") { [state] request in
            let valid = state.withLock { $0.currentAccess }
            let ok = valid.map { request.header("Authorization") == "Bearer \($0)" } == true
            return ok ? .init(status: 200, body: Data("me".utf8)) : .init(status: 401, body: Data())
        }
        try server.start()
    }

    package var tokenURL: URL { server.baseURL.appendingPathComponent("token") }
    package var meURL: URL { server.baseURL.appendingPathComponent("me") }

    /// Whether any refresh token was presented after it was rotated, outside the grace.
    package var sawReuse: Bool { state.withLock { $0.reuseDetected > 0 } }

    package func stop() { server.stop() }

    private static func answer(
        _ request: LoopbackServer.RecordedRequest, state: Locked<State>, grace: Duration?
    ) -> LoopbackServer.Response {
        let form = Self.form(request.body)
        let now = ContinuousClock.now
        let (result, lose, delay): (Grant, Bool, Duration) = state.withLock { state in
            state.forms.append(form)
            state.authorizations.append(request.header("Authorization"))
            let result: Grant
            switch form["grant_type"] {
            case "refresh_token":
                let presented = form["refresh_token"] ?? ""
                state.presented.append(presented)
                if let current = state.currentRefresh, presented == current {
                    result = .issued(Self.rotate(&state, from: presented, at: now))
                } else if let previous = state.previousRefresh, previous.token == presented, let grace,
                    previous.rotatedAt.duration(to: now) < grace, state.currentRefresh != nil
                {
                    state.graceReuses += 1
                    result = .issued(Self.rotate(&state, from: presented, at: previous.rotatedAt))
                } else {
                    if state.spent.contains(presented) {
                        state.reuseDetected += 1
                        state.currentRefresh = nil
                        state.currentAccess = nil
                    }
                    result = .refused("invalid_grant")
                }
            case "client_credentials":
                state.issued += 1
                state.currentAccess = "cc-access-\(state.issued)"
                result = .issued((state.currentAccess ?? "", ""))
            default:
                result = .refused("unsupported_grant_type")
            }
            var lose = false
            if case .issued = result {
                let number = state.issued
                if state.answersToLose > 0 {
                    state.answersToLose -= 1
                    lose = true
                } else if state.loseEvery > 0, number % state.loseEvery == 0 {
                    lose = true
                }
                if lose { state.answersLost += 1 }
            }
            return (result, lose, state.delay)
        }
        if lose { return .raw(Data(), delay: delay) }
        switch result {
        case .issued(let (access, refresh)):
            var object = ["access_token": access, "token_type": "Bearer"] as [String: Any]
            object["expires_in"] = 3600
            if !refresh.isEmpty { object["refresh_token"] = refresh }
            let body = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
            return .init(
                status: 200, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")], body: body,
                delay: delay)
        case .refused(let code):
            let body = Data("{\"error\":\"\(code)\",\"error_description\":\"refused\"}".utf8)
            return .init(status: 400, headers: [("Content-Type", "application/json")], body: body, delay: delay)
        }
    }

    /// What the endpoint answers a grant with.
    private enum Grant {
        case issued((String, String))
        case refused(String)
    }

    /// Issues a new pair: `presented` is spent and becomes the previous token.
    private static func rotate(
        _ state: inout State, from presented: String, at rotatedAt: ContinuousClock.Instant
    ) -> (String, String) {
        state.issued += 1
        let pair = ("access-\(state.issued)", "refresh-\(state.issued)")
        if let current = state.currentRefresh, current != presented { state.spent.insert(current) }
        state.spent.insert(presented)
        state.previousRefresh = (presented, rotatedAt)
        state.currentRefresh = pair.1
        state.currentAccess = pair.0
        return pair
    }

    /// A form body read into its fields (the last of a repeated name wins).
    package static func form(_ body: Data) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            fields[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return fields
    }
}
