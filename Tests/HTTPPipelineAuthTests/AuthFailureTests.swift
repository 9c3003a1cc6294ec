import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineTesting
import TestSupport
import Testing

struct TokenEndpointDown: Error {}

@Suite struct AuthFailureTests {
    @Test func failedRefreshFailsEveryWaiterWithTheSameErrorThenALaterRequestRecovers() async throws {
        let gate = Gate()
        let source = TestSource(gate: gate)
        source.fail(with: TokenEndpointDown())
        let transport = server(accepting: { "token-2" })
        let pipeline = Pipeline(transport: transport) { AuthMiddleware(source: source, clock: ManualClock()) }
        let errors = await withTaskGroup(of: String.self) { group in
            for _ in 0..<100 {
                group.addTask {
                    do {
                        _ = try await pipeline.send(HTTPRequest(url: testURL))
                        return "succeeded"
                    } catch let error as AuthError where error.underlying is TokenEndpointDown {
                        return "refreshFailed(TokenEndpointDown)"
                    } catch {
                        return "\(error)"
                    }
                }
            }
            await eventually(within: .seconds(3)) { transport.requests.count >= 100 }
            gate.open()
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(Set(errors) == ["refreshFailed(TokenEndpointDown)"])
        #expect(source.refreshes == 1)

        source.fail(with: nil)
        #expect(try await pipeline.send(HTTPRequest(url: testURL)).status == 200)
        #expect(source.refreshes == 2)
    }

    @Test func rejectedRefreshTokenAsksForReauthentication() async throws {
        let source = TestSource()
        source.fail(with: RefreshTokenRejected())
        let pipeline = Pipeline(transport: server(accepting: { "never" })) {
            AuthMiddleware(source: source, clock: ManualClock())
        }
        await #expect { try await pipeline.send(HTTPRequest(url: testURL)) } throws: { error in
            if (error as? AuthError)?.isReauthenticationRequired == true { return true }
            return false
        }
    }

    @Test func serverThatRejectsEveryTokenGetsOneReplayAndTheSecond401IsReturned() async throws {
        let source = TestSource()
        let transport = server(accepting: { "never" })
        let pipeline = Pipeline(transport: transport) { AuthMiddleware(source: source, clock: ManualClock()) }
        let response = try await pipeline.send(HTTPRequest(url: testURL))
        #expect(response.status == 401)
        #expect(transport.requests.count == 2)
        #expect(source.refreshes == 1)
    }

    @Test func tooManyRefreshesFailClearlyUntilTheWindowMovesOn() async throws {
        let clock = ManualClock()
        let source = TestSource()
        let transport = server(accepting: { "never" })
        let options = AuthOptions(refreshLimit: 3, refreshLimitWindow: .seconds(60))
        let pipeline = Pipeline(transport: transport) { AuthMiddleware(source: source, options: options, clock: clock) }
        for _ in 0..<3 {
            #expect(try await pipeline.send(HTTPRequest(url: testURL)).status == 401)
        }
        await #expect { try await pipeline.send(HTTPRequest(url: testURL)) } throws: { error in
            if let error = error as? AuthError, error.limit == 3, error.window == .seconds(60) { return true }
            return false
        }
        #expect(source.refreshes == 3, "the token endpoint was not called a fourth time")
        clock.advance(by: .seconds(61))
        #expect(try await pipeline.send(HTTPRequest(url: testURL)).status == 401)
        #expect(source.refreshes == 4)
    }

    @Test func cooldownFailsFastAfterAFailedRefreshThenAllowsAnotherTry() async throws {
        let clock = ManualClock()
        let source = TestSource()
        source.fail(with: TokenEndpointDown())
        let pipeline = Pipeline(transport: server(accepting: { "token-2" })) {
            AuthMiddleware(source: source, options: AuthOptions(cooldownAfterFailure: .seconds(30)), clock: clock)
        }
        for _ in 0..<3 {
            await #expect(throws: AuthError.self) { try await pipeline.send(HTTPRequest(url: testURL)) }
        }
        #expect(source.refreshes == 1)
        source.fail(with: nil)
        clock.advance(by: .seconds(31))
        #expect(try await pipeline.send(HTTPRequest(url: testURL)).status == 200)
    }

    @Test func hangingSourceTimesOutForEveryWaiter() async throws {
        let clock = ManualClock()
        let source = TestSource(gate: Gate())  // never opened
        let transport = server(accepting: { "token-1" })
        let pipeline = Pipeline(transport: transport) {
            AuthMiddleware(source: source, options: AuthOptions(refreshTimeout: .seconds(5)), clock: clock)
        }
        let calls = (0..<10).map { _ in Task { try await pipeline.send(HTTPRequest(url: testURL)) } }
        await eventually(within: .seconds(3)) { transport.requests.count == 10 }
        await clock.waitForSleepers(1)
        // Each waiter times out five seconds after it joined the refresh; one that joined after
        // an advance needs another.
        let ended = Locked(0)
        let watchers = calls.map { call in
            Task {
                _ = try? await call.value
                ended.withLock { $0 += 1 }
            }
        }
        for _ in 0..<100 where ended.value < calls.count {
            clock.advance(by: .seconds(5))
            try await Task.sleep(for: .milliseconds(5))
        }
        for watcher in watchers { await watcher.value }
        for call in calls {
            await #expect { try await call.value } throws: { error in
                if (error as? AuthError)?.timeout == .seconds(5) { return true }
                return false
            }
        }
        #expect(source.refreshes == 1)
    }

    @Test(arguments: ["", "has space", "line\r\nX-Injected: 1", "nul\u{0}", "caf\u{E9}"])
    func unsendableTokenIsATypedErrorAndNothingIsSentWithIt(token: String) async throws {
        let source = TestSource(current: .bearer(token))
        let transport = server(accepting: { "token-1" })
        let pipeline = Pipeline(transport: transport) { AuthMiddleware(source: source, clock: ManualClock()) }
        await #expect { try await pipeline.send(HTTPRequest(url: testURL)) } throws: { error in
            if (error as? AuthError)?.isInvalidCredential == true {
                return !"\(error)".contains(token) || token.isEmpty
            }
            return false
        }
        #expect(transport.requests.isEmpty)
    }

    @Test func refreshReturningAnUnsendableTokenFailsTheRefresh() async throws {
        let source = TestSource()
        source.state.withLock { $0.nextToken = { _ in "bad\ntoken" } }
        let transport = server(accepting: { "token-1" })
        let pipeline = Pipeline(transport: transport) { AuthMiddleware(source: source, clock: ManualClock()) }
        await #expect(throws: AuthError.self) { try await pipeline.send(HTTPRequest(url: testURL)) }
        #expect(source.state.value.persisted.isEmpty, "an unusable credential is never persisted")
        #expect(transport.requests.count == 1)
    }

    @Test func sourceThatCannotReadItsStorageFailsWithATypedError() async throws {
        struct Unreadable: CredentialSource {
            func currentCredential() async throws -> Credential? { throw TokenEndpointDown() }
            func refreshCredential(after failed: Credential?) async throws -> Credential { .bearer("x") }
        }
        let pipeline = Pipeline(transport: server(accepting: { "x" })) {
            AuthMiddleware(source: Unreadable(), clock: ManualClock())
        }
        await #expect(throws: AuthError.self) { try await pipeline.send(HTTPRequest(url: testURL)) }
    }
}
