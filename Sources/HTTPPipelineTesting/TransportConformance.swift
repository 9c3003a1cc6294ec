public import HTTPPipeline

/// The contract every `HTTPTransport` keeps, as checks a transport's own tests run: the
/// promises of the pipeline's layers (a bomb stops at its limit, a broken download is retried, a
/// POST reaches the server at most once) hold over a transport only if it keeps them.
///
/// Each ``Check`` is a sentence of behaviour, run against a ``LoopbackServer`` of its own and a
/// transport made fresh for it. Run every check as a parameterized test, so that each shows as a
/// case of its own:
///
/// ```swift
/// import HTTPPipeline
/// import HTTPPipelineCurl
/// import HTTPPipelineTesting
/// import Testing
///
/// /// A transport of your own: here one that sends through CurlTransport.
/// struct MyTransport: HTTPTransport {
///     let base = CurlTransport()
///     func send(_ request: HTTPRequest) async throws -> HTTPResponse { try await base.send(request) }
/// }
///
/// // Marked @Test(arguments: TransportConformance.Check.all) in a test target.
/// func myTransportKeepsTheContract(_ check: TransportConformance.Check) async {
///     // A minute for a cancelled call: this test runs beside the rest of the suite.
///     let verdict = await TransportConformance(promptness: .seconds(60)).run(check) { MyTransport() }
///     #expect(verdict.holds, "\(verdict)")
/// }
/// ```
///
/// or all of them in one test with ``run(_:)``, which reports every broken check at once.
///
/// A check a transport cannot keep is named in ``exceptions`` with the reason: its verdict then
/// holds while the check fails, and stops holding when the check passes (the exception is stale
/// and must go). A failure says what was observed and what a transport must do.
///
/// ``promptness`` (100 ms unless told) is how soon a cancelled call must end. Hold a transport to
/// it in a test process of its own; beside a whole suite on a busy machine, a prompt call can
/// wait longer than that for a thread, so give such a run a generous value. The article "Writing
/// a transport" walks through the contract and what to do when a check cannot hold.
///
/// The checks need only the loopback interface; all of them take about a second.
public struct TransportConformance: Sendable {
    /// The checks a transport does not keep, each with the documented reason.
    public var exceptions: [Check: String]
    /// The checks not run at all, each with the documented reason: only for a check whose
    /// exchange harms the process (a trap in a library below the transport).
    public var skipped: [Check: String]
    /// How soon a cancelled call must end: 100 ms by default. Raise it only for a machine so
    /// loaded that the tasks themselves wait longer than this to run.
    public var promptness: Duration

    /// Creates the suite.
    ///
    /// - Parameters:
    ///   - exceptions: The checks the transport does not keep, with the reason for each.
    ///   - skipped: The checks not to run, with the reason for each.
    ///   - promptness: How soon a cancelled call must end.
    public init(
        exceptions: [Check: String] = [:], skipped: [Check: String] = [:], promptness: Duration = .milliseconds(100)
    ) {
        self.exceptions = exceptions
        self.skipped = skipped
        self.promptness = promptness
    }

    /// Runs one check against transports made by `makeTransport` (called once for each
    /// transport the check needs; most need one).
    ///
    /// - Parameters:
    ///   - check: The check.
    ///   - makeTransport: Makes a transport.
    /// - Returns: What the check found.
    public func run(
        _ check: Check,
        transport makeTransport: @escaping @Sendable () throws -> any HTTPTransport
    ) async -> Verdict {
        if let reason = skipped[check] {
            return Verdict(check: check, observed: nil, exception: nil, skipped: reason)
        }
        let trial = Trial(makeTransport: makeTransport, promptness: promptness)
        var observed: String?
        do {
            try await check.body(trial)
        } catch let broken as Broken {
            observed = broken.observed
        } catch {
            observed = "the check stopped on an error: \(error)"
        }
        await trial.stopServers()
        return Verdict(check: check, observed: observed, exception: exceptions[check], skipped: nil)
    }

    /// Runs every check (``Check/all``), one after another.
    ///
    /// - Parameter makeTransport: Makes a transport.
    /// - Returns: Every check's verdict.
    public func run(_ makeTransport: @escaping @Sendable () throws -> any HTTPTransport) async -> Report {
        var verdicts: [Verdict] = []
        for check in Check.all {
            verdicts.append(await run(check, transport: makeTransport))
        }
        return Report(verdicts: verdicts)
    }

    /// What one check found.
    public struct Verdict: Sendable, CustomStringConvertible {
        /// The check.
        public let check: Check
        /// What broke the check, or `nil` when the transport kept it.
        public let observed: String?
        /// The documented reason the transport does not keep it, if one was given.
        public let exception: String?
        /// The documented reason the check was not run, if it was skipped.
        public let skipped: String?

        /// Whether the transport kept the check (`false` for a skipped one).
        public var isKept: Bool { observed == nil && skipped == nil }

        /// Whether the verdict is what the suite expects: the check kept and no exception given,
        /// broken as its exception says, or skipped.
        public var holds: Bool { skipped != nil || isKept == (exception == nil) }

        public var description: String {
            if let skipped { return "skipped: \(check.sentence) (\(skipped))" }
            return switch (observed, exception) {
            case (nil, nil): "kept: \(check.sentence)"
            case (let observed?, nil):
                "broken: \(check.sentence) Observed: \(observed). A transport must \(check.requirement)."
            case (let observed?, let exception?): "excepted: \(check.sentence) (\(exception)). Observed: \(observed)."
            case (nil, let exception?):
                "kept, though excepted (\(exception)): \(check.sentence) Remove the stale exception."
            }
        }
    }

    /// What every check found.
    public struct Report: Sendable, CustomStringConvertible {
        /// Every check's verdict, in the order of ``Check/all``.
        public let verdicts: [Verdict]

        /// The verdicts that do not hold: broken checks without an exception, and stale
        /// exceptions.
        public var failures: [Verdict] { verdicts.filter { !$0.holds } }

        public var description: String {
            let failures = failures
            guard !failures.isEmpty else { return "all \(verdicts.count) checks hold" }
            return failures.map(\.description).joined(separator: "\n")
        }
    }
}
