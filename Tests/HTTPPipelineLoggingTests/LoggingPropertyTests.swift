import Foundation
import HTTPPipeline
import HTTPPipelineLogging
import HTTPPipelineTesting
import Testing

/// No secret survives logging, whatever the level and wherever the secret travels: through the
/// whole middleware, records formatted as a sink prints them.
@Suite struct LoggingPropertyTests {
    /// Sends one generated exchange through a logging pipeline at `level`; returns the log text.
    func logged(_ exchange: GeneratedExchange, at level: LogLevel) async -> String {
        let sink = InMemoryLogSink()
        let reply: ScriptedTransport.Reply =
            exchange.error.map { .failure($0) }
            ?? .status(exchange.status, headers: exchange.responseHeaders, body: exchange.responseBody)
        let pipeline = Pipeline(transport: ScriptedTransport([reply])) {
            LoggingMiddleware(level: level, sink: sink)
        }
        _ = try? await pipeline.send(exchange.request)
        return sink.text
    }

    /// 10,000 exchanges in ten chunks that run in parallel, each exchange logged at basic,
    /// headers or body level in turn.
    @Test(arguments: 0..<10)
    func tenThousandGeneratedExchangesLeakNoSecretAtAnyLevel(chunk: Int) async throws {
        // makeExchanges(count: 1_000, ...), one at a time, yielding between slices of a hundred:
        // under the thread sanitizer the ten cases are seconds of work the suite shares.
        var builder = SecretExchangeBuilder(seed: 0x5EC2E7 &+ UInt64(chunk))
        let count = 1_000
        var leaks: [String] = []
        var logged = 0
        for index in 0..<count {
            if index % 100 == 0 { await Task.yield() }
            let exchange = builder.makeExchange()
            let level = LogLevel.allCases[1 + index % 3]
            let text = await self.logged(exchange, at: level)
            logged += text.isEmpty ? 0 : 1
            for secret in exchange.secrets where text.contains(secret) {
                leaks.append("exchange \(index) at \(level): \(secret) in \(text)")
            }
        }
        #expect(leaks.isEmpty, "\(leaks.prefix(3).joined(separator: "\n"))")
        #expect(logged == count, "every exchange produced a log")
    }

    @Test func everyLevelOfTheSameExchangesLeaksNothing() async throws {
        for exchange in makeExchanges(count: 100, seed: 42) {
            for level in LogLevel.allCases {
                let text = await logged(exchange, at: level)
                #expect(level == .none ? text.isEmpty : !text.isEmpty)
                let leaked = exchange.secrets.filter { text.contains($0) }
                #expect(leaked.isEmpty, "\(level) leaked \(leaked) in \(text)")
            }
        }
    }
}
