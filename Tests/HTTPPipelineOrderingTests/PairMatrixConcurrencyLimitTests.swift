import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineConcurrencyLimit
import HTTPPipelineRetry
import HTTPPipelineTesting
import HTTPPipelineTimeout
import Testing

/// The pairs with the concurrency limit (**C**): C–R, C–A, C–T. The limit is the first of each
/// pair: `firstOutside` lists `ConcurrencyLimitMiddleware` first. A limit of one slot, and calls
/// started together, so the second call's fate shows what the order changed.
@Suite("Pair matrix: the concurrency limit with retry, auth and timeouts")
struct PairMatrixConcurrencyLimitTests {
    static func request(_ path: String) -> HTTPRequest {
        HTTPRequest(url: URL(string: "https://api.example.invalid/\(path)") ?? orderingURL)
    }

    /// Sends `paths` together through `layers`, stepping `clock` until all have ended.
    static func sendTogether(
        _ paths: [String], through layers: [any HTTPMiddleware], over transport: ScriptedTransport,
        clock: ManualClock
    ) async -> [String: Result<Int, any Error>] {
        let pipeline = Pipeline(transport: transport, middleware: layers)
        let outcomes = await clock.run {
            await withTaskGroup(of: (String, Result<Int, any Error>).self) { group in
                for path in paths {
                    group.addTask {
                        do { return (path, .success(try await pipeline.send(request(path)).status.code)) } catch {
                            return (path, .failure(error))
                        }
                    }
                }
                return await group.reduce(into: [String: Result<Int, any Error>]()) { $0[$1.0] = $1.1 }
            }
        }
        return (try? outcomes.get()) ?? [:]
    }

    // MARK: C–R

    @Test("A limit outside retry keeps the slot through the retry's wait; inside retry the wait holds no slot")
    func aLimitOutsideRetryHoldsTheSlotThroughTheWaitInsideRetryTheWaitHoldsNone() async throws {
        for order in PairOrder.allCases {
            let clock = ManualClock()
            let limit = ConcurrencyLimitMiddleware(limit: 1, clock: clock)
            let retry = RetryMiddleware(
                policy: .attempts(2, backoff: .constant(.seconds(1))), budget: nil, clock: clock)
            let seen = Locked(0)
            let transport = ScriptedTransport(clock: clock) { request in
                let first = seen.withLock { count in
                    count += 1
                    return count == 1
                }
                return first ? .status(503) : .ok().delayed(by: .milliseconds(100))
            }
            let pipeline = Pipeline(
                transport: transport, middleware: order == .firstOutside ? [limit, retry] : [retry, limit])
            let retried = Task { try await pipeline.send(Self.request("retried")) }
            await clock.waitForSleepers(1)  // the retry's 1 s wait
            let other = Task { try await pipeline.send(Self.request("other")) }
            switch order {
            case .firstOutside:
                for _ in 0..<100_000 where limit.queuedCount == 0 { await Task.yield() }
                #expect(limit.queuedCount == 1)
                #expect(transport.requests.map(\.url.lastPathComponent) == ["retried"], "the other call waits")
            case .secondOutside:
                await clock.waitForSleepers(2)  // the retry's wait and the other call's reply
                #expect(
                    transport.requests.map(\.url.lastPathComponent) == ["retried", "other"],
                    "the other call is sent during the wait")
            }
            _ = await clock.run { try await retried.value }
            _ = await clock.run { try await other.value }
            #expect(limit.inFlightCount == 0)
        }
    }

    // MARK: C–A

    @Test(
        "Calls queued outside auth take the refreshed token when their turn comes; queued inside auth they carry the stale one"
    )
    func callsQueuedOutsideAuthTakeTheRefreshedTokenInsideAuthTheyCarryTheStaleOne() async throws {
        var sent: [PairOrder: [String?]] = [:]
        for order in PairOrder.allCases {
            let clock = ManualClock()
            let limit = ConcurrencyLimitMiddleware(limit: 1, clock: clock)
            let source = MatrixCredentials()
            let auth = matrixAuth(source)
            let transport = ScriptedTransport(clock: clock) { request in
                let reply: ScriptedTransport.Reply =
                    request.fields["Authorization"] == "Bearer token-1" ? .ok() : .status(401)
                return reply.delayed(by: .seconds(1))
            }
            let outcomes = await Self.sendTogether(
                ["a", "b", "c"], through: order == .firstOutside ? [limit, auth] : [auth, limit],
                over: transport, clock: clock)
            #expect(outcomes.values.allSatisfy { (try? $0.get()) == 200 }, "\(order): \(outcomes)")
            #expect(source.refreshes == 1, "\(order): one refresh")
            sent[order] = transport.requests.map { $0.fields["Authorization"] }
        }
        #expect(sent[.firstOutside]?.count == 4, "one 401, then three calls with the new token")
        #expect(sent[.firstOutside]?.filter { $0 == "Bearer token-0" }.count == 1)
        #expect(sent[.secondOutside]?.count == 6, "every call sends the stale token first")
        #expect(sent[.secondOutside]?.filter { $0 == "Bearer token-0" }.count == 3)
    }

    // MARK: C–T

    @Test("A deadline outside the limit counts the wait for a slot; inside it the deadline starts once a slot is held")
    func aDeadlineOutsideTheLimitCountsTheWaitInsideItStartsWithTheSlot() async throws {
        var sent: [PairOrder: Int] = [:]
        for order in PairOrder.allCases {
            let clock = ManualClock()
            let limit = ConcurrencyLimitMiddleware(limit: 1, clock: clock)
            let deadline = TimeoutMiddleware.deadline(.seconds(5), clock: clock)
            let transport = ScriptedTransport(clock: clock) { _ in .ok().delayed(by: .seconds(10)) }
            let outcomes = await Self.sendTogether(
                ["a", "b"], through: order == .firstOutside ? [limit, deadline] : [deadline, limit],
                over: transport, clock: clock)
            for (path, outcome) in outcomes {
                #expect(throws: HTTPTimeoutError.self, "\(order) \(path)") { try outcome.get() }
            }
            #expect(limit.inFlightCount == 0 && limit.queuedCount == 0)
            sent[order] = transport.requests.count
        }
        #expect(sent[.firstOutside] == 2, "the second call gets the slot at 5 s and its own 5 s")
        #expect(sent[.secondOutside] == 1, "the second call's deadline passes while it waits: never sent")
    }
}
