import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineTesting

let testURL = URL(string: "https://api.example.invalid/me") ?? URL(fileURLWithPath: "/")

/// A credential source for tests: hands out `token-1`, `token-2`, … on each refresh, records what
/// happened in `events`, and can hold a refresh at a gate or fail it.
final class TestSource: CredentialSource {
    struct State: Sendable {
        var current: Credential?
        var refreshes = 0
        var persisted: [String] = []
        var failedWith: [String?] = []
        var failure: (any Error)?
        var gate: Gate?
        var nextToken: (@Sendable (Int) -> String)?
        var removals = 0
        var removalFailure: (any Error)?
    }
    let state: Locked<State>
    let events: Locked<[String]>

    init(current: Credential? = .bearer("token-0"), gate: Gate? = nil, events: Locked<[String]> = Locked([])) {
        state = Locked(State(current: current, gate: gate))
        self.events = events
    }

    var refreshes: Int { state.value.refreshes }

    func fail(with error: (any Error)?) {
        state.withLock { $0.failure = error }
    }

    func currentCredential() async throws -> Credential? {
        state.value.current
    }

    func refreshCredential(after failed: Credential?) async throws -> Credential {
        let (number, gate) = state.withLock { state in
            state.refreshes += 1
            state.failedWith.append(failed?.token)
            return (state.refreshes, state.gate)
        }
        events.withLock { $0.append("refresh") }
        if let gate { try await gate.wait() }
        if let failure = state.value.failure { throw failure }
        let token = state.value.nextToken?(number) ?? "token-\(number)"
        return .bearer(token)
    }

    func persist(_ credential: Credential) async throws {
        events.withLock { $0.append("persist \(credential.token)") }
        state.withLock { state in
            state.persisted.append(credential.token)
            state.current = credential
        }
    }

    func removeCredential() async throws {
        try state.withLock { state in
            if let failure = state.removalFailure { throw failure }
            state.removals += 1
            state.current = nil
        }
    }
}

/// A one-shot gate: `wait()` suspends until `open()`; cancellation ends a wait with
/// `CancellationError`.
final class Gate: Sendable {
    private let state = Locked<
        (open: Bool, waiters: [UUID: CheckedContinuation<Void, any Error>], cancelled: Set<UUID>)
    >((false, [:], []))

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    var waiting: Int { state.withLock { $0.waiters.count } }

    func wait() async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Result<Void, any Error>? in
                    if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    if state.open { return .success(()) }
                    state.waiters[id] = continuation
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                let waiter = state.waiters.removeValue(forKey: id)
                if waiter == nil { state.cancelled.insert(id) }
                return waiter
            }
            waiter?.resume(throwing: CancellationError())
        }
    }
}

/// A transport that accepts only `Bearer <valid>` and answers 401 otherwise.
func server(accepting valid: @escaping @Sendable () -> String, events: Locked<[String]>? = nil) -> ScriptedTransport {
    ScriptedTransport { request in
        let header = request.fields["Authorization"] ?? "none"
        events?.withLock { $0.append("send \(header)") }
        return header == "Bearer \(valid())" ? .ok("hello") : .status(401, headers: ["WWW-Authenticate": "Bearer"])
    }
}
/// 100,000 bytes that are not all alike, so a truncated or reordered body cannot pass for it.
let uploadPayload = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 256) })

extension HTTPResponse {
    /// The whole body, read with a limit far above anything these tests send.
    func bytes() async throws -> Data {
        try await body.collect(upTo: 1 << 24)
    }
}
