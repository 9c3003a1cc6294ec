import Foundation
import HTTPPipeline
import HTTPPipelineCircuitBreaker
import HTTPPipelineTesting
import Testing

@Suite struct CircuitBreakerConcurrencyTests {
    @Test func manyCallersRacingThroughStateChangesSeeAnOrderlySequenceOfChanges() async throws {
        let clock = ManualClock()
        let log = ChangeLog()
        let breaker = CircuitBreakerMiddleware(
            policy: CircuitBreakerPolicy(minimumThroughput: 5, breakDuration: .milliseconds(10), halfOpenProbes: 3),
            clock: clock, onStateChange: log.record)
        let transport = ScriptedTransport(clock: clock) { request in
            Int(request.url.lastPathComponent).map { $0 % 3 == 0 } == true ? .ok() : .status(503)
        }
        let pipeline = Pipeline(transport: transport) { breaker }
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<400 {
                group.addTask {
                    if index % 20 == 0 { clock.advance(by: .milliseconds(5)) }
                    return await call(pipeline, HTTPRequest(url: url("\(index)"))).rejection != nil
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        let changes = log.all
        #expect(outcomes.count == 400)
        #expect(transport.requests.count + outcomes.filter { $0 }.count == 400, "every call sent or turned away")
        #expect(changes.first?.from == .closed)
        for (earlier, later) in zip(changes, changes.dropFirst()) {
            #expect(earlier.to == later.from, "\(earlier) then \(later)")
        }
        #expect(changes.count >= 1)
    }
}
