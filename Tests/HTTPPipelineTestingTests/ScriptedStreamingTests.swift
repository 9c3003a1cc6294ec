import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import Testing

private struct Cut: Error, Equatable {}

@Suite struct ScriptedStreamingTests {
    let url = URL(fileURLWithPath: "/").appendingPathComponent("feed")

    @Test("A streamed reply drips its chunks on the manual clock, then finishes")
    func dripsOnTheClock() async throws {
        let clock = ManualClock()
        let chunks = [Data("a".utf8), Data("bb".utf8), Data("ccc".utf8)]
        let transport = ScriptedTransport(
            [.streamed(headers: ["Content-Length": "6"], chunks: chunks, every: .seconds(1))], clock: clock)
        let response = try await transport.send(HTTPRequest(url: url))
        #expect(response.body.length == 6)
        #expect(response.body.isReplayable == false)
        let reader = Task {
            var seen: [Data] = []
            for try await chunk in response.body { seen.append(chunk) }
            return seen
        }
        for _ in 1...2 {
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(1))
        }
        #expect(try await reader.value == chunks)
    }

    @Test("A streamed reply that fails throws at the read after its last chunk")
    func failsAfterItsChunks() async throws {
        let transport = ScriptedTransport([.streamed(chunks: [Data("part".utf8)], then: .fail(Cut()))])
        let response = try await transport.send(HTTPRequest(url: url))
        #expect(response.body.length == nil)
        var iterator = response.body.makeAsyncIterator()
        #expect(try await iterator.next() == Data("part".utf8))
        await #expect(throws: Cut.self) { _ = try await iterator.next() }
    }

    @Test("A stalled reply waits until its reader is cancelled; a repeating one never ends")
    func stallsAndRepeats() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport(
            [
                .streamed(chunks: [Data("x".utf8)], then: .stall),
                .streamed(chunks: [Data("y".utf8)], every: .seconds(1), then: .repeatForever),
            ],
            clock: clock)
        let stalled = try await transport.send(HTTPRequest(url: url))
        let reader = Task {
            var count = 0
            for try await _ in stalled.body { count += 1 }
            return count
        }
        await clock.waitForSleepers(1)
        reader.cancel()
        await #expect(throws: CancellationError.self) { _ = try await reader.value }

        let repeating = try await transport.send(HTTPRequest(url: url))
        let counter = Task {
            var count = 0
            for try await _ in repeating.body {
                count += 1
                if count == 5 { break }
            }
            return count
        }
        for _ in 1...4 {
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(1))
        }
        #expect(try await counter.value == 5)
    }

    @Test("Probes that record chunks show each chunk passing inner layer first, as the reader pulls it")
    func probesRecordChunks() async throws {
        let log = OrderLog()
        let transport = ScriptedTransport([.streamed(chunks: [Data(count: 3), Data(count: 5)])])
        let pipeline = Pipeline(transport: transport) {
            OrderProbe("outer", log: log, recordsChunks: true)
            OrderProbe("inner", log: log, recordsChunks: true)
        }
        let response = try await pipeline.send(HTTPRequest(url: url))
        #expect(log.description == "outer> inner> inner< outer<")
        #expect(try await response.body.collect(upTo: 100) == Data(count: 8))
        #expect(log.description == "outer> inner> inner< outer< inner~3 outer~3 inner~5 outer~5")
        #expect(log.count("outer", .chunk) == 2)
    }

    @Test("A probe that records chunks keeps a replayable body replayable")
    func probeKeepsReplayability() async throws {
        let log = OrderLog()
        struct Replayable: HTTPTransport {
            func send(_ request: HTTPRequest) async throws -> HTTPResponse {
                HTTPResponse(
                    status: 200,
                    body: HTTPBody(length: 4) {
                        AsyncStream<Data> {
                            $0.yield(Data("data".utf8))
                            $0.finish()
                        }
                    })
            }
        }
        let pipeline = Pipeline(transport: Replayable()) { OrderProbe("probe", log: log, recordsChunks: true) }
        let response = try await pipeline.send(HTTPRequest(url: url))
        #expect(response.body.isReplayable)
        #expect(response.body.length == 4)
        #expect(try await response.body.collect(upTo: 10) == Data("data".utf8))
        #expect(try await response.body.collect(upTo: 10) == Data("data".utf8))
        #expect(log.count("probe", .chunk) == 2)
    }
}
