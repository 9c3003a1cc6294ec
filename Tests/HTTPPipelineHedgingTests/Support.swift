import Foundation
import HTTPPipeline
import HTTPPipelineHedging
import HTTPPipelineTesting

let hedgeURL = URL(string: "https://api.example.invalid/books/1") ?? URL(fileURLWithPath: "/")

/// How one attempt ended, as the transport below hedging saw it.
struct AttemptEnd: Equatable, CustomStringConvertible {
    /// `HTTPRequestContext.hedgeAttempt` of the request.
    let number: Int?
    /// `"200"`, `"cancelled"` or the error's type.
    let outcome: String

    var description: String { "#\(number.map(String.init) ?? "-") \(outcome)" }
}

/// A transport that records, for every request, how its send ended: `send` has returned (or
/// thrown) by the time its end is recorded, so a call that returns with every end recorded has
/// waited for every attempt.
final class EndRecordingTransport: HTTPTransport {
    let base: any HTTPTransport
    private let recorded = Locked<[AttemptEnd]>([])

    init(_ base: any HTTPTransport) {
        self.base = base
    }

    var ends: [AttemptEnd] { recorded.value }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let number = request.context.hedgeAttempt
        do {
            let response = try await base.send(request)
            recorded.withLock { $0.append(AttemptEnd(number: number, outcome: "\(response.status.code)")) }
            return response
        } catch {
            let outcome = error is CancellationError ? "cancelled" : "\(type(of: error))"
            recorded.withLock { $0.append(AttemptEnd(number: number, outcome: outcome)) }
            throw error
        }
    }
}

/// A scripted transport whose reply depends on the attempt number hedging gave the request.
func byAttempt(
    _ clock: ManualClock, _ replies: @escaping @Sendable (Int) -> ScriptedTransport.Reply
) -> ScriptedTransport {
    ScriptedTransport(clock: clock) { request in replies(request.context.hedgeAttempt ?? 0) }
}

/// A hedging layer on `clock` without a budget.
func hedging(
    after delay: Duration, attempts: Int = 2, clock: ManualClock, budget: HedgingBudget? = nil
) -> HedgingMiddleware {
    HedgingMiddleware(policy: .after(delay, maximumAttempts: attempts), budget: budget, clock: clock)
}

extension Result where Success == HTTPResponse {
    /// The body as text, if a response came back.
    func text() async -> String? {
        guard case .success(let response) = self else { return nil }
        guard let data = try? await response.body.collect(upTo: 1 << 20) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
