import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineTesting
import TestSupport
import Testing

/// A refresh is never abandoned and a refresh token is never sent twice, against an endpoint
/// that rotates refresh tokens and revokes the family on reuse.
@Suite(.timeLimit(.minutes(1))) struct AuthRefreshLifecycleTests {
    struct Setup {
        let clock = ManualClock()
        let endpoint = RotatingTokenEndpoint(refresh: "refresh-0", access: nil)
        let source: RotatingSource
        let pipeline: Pipeline<AuthMiddleware, ScriptedTransport>

        init() {
            source = RotatingSource(
                endpoint: endpoint, clock: clock, latency: .seconds(2),
                storage: .init(access: "access-0", refresh: "refresh-0"))
            pipeline = Pipeline(transport: endpoint.api()) { [source, clock] in
                AuthMiddleware(source: source, options: AuthOptions(refreshTimeout: .milliseconds(500)), clock: clock)
            }
        }

        func send() async throws -> Int {
            try await pipeline.send(HTTPRequest(url: testURL)).status.code
        }
    }

    @Test("A refresh that outlasts the timeout is still adopted and persisted, and a request meanwhile joins it")
    func refreshThatOutlastsTheTimeoutIsAdoptedAndJoined() async throws {
        let setup = Setup()
        let first = Task { try await setup.send() }
        await setup.clock.waitForSleepers(2)  // the endpoint's answer and the waiter's timeout
        setup.clock.advance(by: .milliseconds(500))
        await #expect { try await first.value } throws: { error in
            if (error as? AuthError)?.isRefreshTimedOut == true { return true }
            return false
        }
        setup.clock.advance(by: .milliseconds(1_100))
        let second = Task { try await setup.send() }
        await setup.clock.waitForSleepers(2)
        setup.clock.advance(by: .milliseconds(400))  // the endpoint answers, within the second's wait
        let status = try await settle(second, on: setup.clock)
        #expect(status == 200)
        let endpoint = setup.endpoint.state.value
        #expect(endpoint.reuseDetected == 0, "a refresh token was sent twice: \(endpoint.exchanges)")
        #expect(endpoint.exchanges == ["refresh-0"])
        #expect(setup.source.persisted.value == ["access-1"])
        #expect(setup.source.storage.value == .init(access: "access-1", refresh: "refresh-1"))
        #expect(try await setup.send() == 200, "storage and the middleware agree on access-1")
    }

    @Test("Cancelling the only waiter does not abandon the token call: its answer is persisted and used")
    func cancellingTheOnlyWaiterKeepsTheRefresh() async throws {
        let setup = Setup()
        let first = Task { try await setup.send() }
        await setup.clock.waitForSleepers(2)
        first.cancel()
        await #expect(throws: CancellationError.self) { try await first.value }
        setup.clock.advance(by: .milliseconds(1_600))
        let second = Task { try await setup.send() }
        await setup.clock.waitForSleepers(2)
        setup.clock.advance(by: .milliseconds(400))
        let status = try await settle(second, on: setup.clock)
        #expect(status == 200)
        let endpoint = setup.endpoint.state.value
        #expect(endpoint.reuseDetected == 0, "a refresh token was sent twice: \(endpoint.exchanges)")
        #expect(endpoint.exchanges == ["refresh-0"])
        #expect(setup.source.persisted.value == ["access-1"])
        #expect(setup.source.storage.value == .init(access: "access-1", refresh: "refresh-1"))
    }

    @Test("A refresh whose every waiter left ends before the next request and that request uses its token")
    func abandonedWaitersStillLeaveTheCredentialAdopted() async throws {
        let setup = Setup()
        let first = Task { try await setup.send() }
        await setup.clock.waitForSleepers(2)
        first.cancel()
        _ = try? await first.value
        setup.clock.advance(by: .seconds(2))
        await eventually(within: .seconds(3)) { setup.source.persisted.value == ["access-1"] }
        #expect(try await setup.send() == 200)
        #expect(setup.endpoint.state.value.exchanges == ["refresh-0"])
        #expect(setup.source.persisted.value == ["access-1"])
    }
}

/// The task's value once it ends by itself (waiting up to three seconds), else after the clock
/// has been moved far enough for every sleeper to wake: a test of a broken refresh fails
/// instead of hanging.
func settle<T: Sendable>(_ task: Task<T, any Error>, on clock: ManualClock) async throws -> T {
    let done = Locked(false)
    let watcher = Task {
        _ = try? await task.value
        done.withLock { $0 = true }
    }
    await eventually(within: .seconds(3)) { done.value }
    if !done.value { clock.advance(by: .seconds(60)) }
    await watcher.value
    return try await task.value
}
