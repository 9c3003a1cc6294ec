import Foundation
public import HTTPPipeline

/// The rules every middleware of this project keeps, as checks you can run on your own.
///
/// ```swift
/// import Testing
///
/// @Test func requestStampKeepsTheMiddlewareContract() async {
///     // RequestStamp stamps every request, so no request passes through it untouched.
///     let report = await MiddlewareContract(skipping: [.passThrough]).check { RequestStamp() }
///     #expect(report.violations.isEmpty, "\(report)")
/// }
/// ```
///
/// The rules (``Rule``): a request the middleware does not apply to passes through untouched;
/// on a plain successful exchange `next` is called exactly once, and never more than
/// ``maximumCallsToNext`` times even when everything fails; a repeated request reaches `next`
/// again, unless ``mayAnswerWithoutCallingNext``; requests pass layers outermost first and
/// responses come back innermost first; an error from below propagates unchanged unless
/// ``changesErrors``; cancelling the caller ends the call promptly with a cancellation error.
///
/// `check` takes a closure that makes the middleware and calls it for every exchange it checks,
/// so that what one check leaves behind (a cached response, an open circuit, a spent budget)
/// cannot fail the next. A cache declares what it does with
/// ``mayAnswerWithoutCallingNext``:
///
/// ```swift
/// let report = await MiddlewareContract(mayAnswerWithoutCallingNext: true).check { ResponseCache() }
/// ```
///
/// It imports no test framework, so it works under Swift Testing and XCTest alike.
public struct MiddlewareContract: Sendable {
    /// One rule of the contract.
    public enum Rule: String, Sendable, CaseIterable {
        /// A request the middleware does not apply to reaches the transport unchanged, and the
        /// response comes back unchanged.
        case passThrough
        /// `next` is called exactly once on a successful exchange, and a bounded number of times
        /// when every attempt fails. The same request sent again through the same middleware
        /// reaches `next` again, unless the middleware may answer without calling next (see
        /// ``MiddlewareContract/mayAnswerWithoutCallingNext``); then the repeat may be answered
        /// from memory, with the response `next` gave, but a request for another URL still
        /// reaches `next`.
        case callsNext
        /// Requests pass layers outermost first, responses innermost first.
        case ordering
        /// An error thrown below comes back to the caller unchanged.
        case errorPropagation
        /// Cancelling the calling task ends the call promptly with a cancellation error.
        case cancellation
    }

    /// A broken rule and what was observed.
    public struct Violation: Sendable, CustomStringConvertible {
        /// The rule broken.
        public let rule: Rule
        /// What was observed instead.
        public let detail: String

        public var description: String { "\(rule.rawValue): \(detail)" }
    }

    /// What a check found.
    public struct Report: Sendable, CustomStringConvertible {
        /// The rules that were checked.
        public let checked: [Rule]
        /// The rules broken, with what was observed.
        public let violations: [Violation]

        public var description: String {
            violations.isEmpty
                ? "kept: " + checked.map(\.rawValue).joined(separator: ", ")
                : violations.map(\.description).joined(separator: "; ")
        }
    }

    /// A request the middleware does not apply to.
    public var passThroughRequest: HTTPRequest
    /// The request used for the other rules.
    public var request: HTTPRequest
    /// The most times `next` may be called when every attempt fails: 1, unless the middleware's
    /// job is to retry.
    public var maximumCallsToNext: Int
    /// Whether the middleware may answer a request it has seen before without calling `next`, as a
    /// response cache does. A fresh middleware must still call `next` on its first exchange; a
    /// repeat may then be answered from memory, with the response `next` gave for it.
    public var mayAnswerWithoutCallingNext: Bool
    /// Whether the middleware's job is to change errors from below: skips
    /// ``Rule/errorPropagation``, and lets any error end a cancelled call.
    public var changesErrors: Bool
    /// How long a cancelled call may take to end.
    public var cancellationTimeLimit: Duration
    /// Rules not to check, for example ``Rule/passThrough`` for a middleware that applies to
    /// every request.
    public var skipping: Set<Rule>

    /// Creates a contract with the defaults that fit most middleware.
    ///
    /// - Parameters:
    ///   - request: The request used for the checks; a GET to `http://contract.invalid/resource`
    ///     by default.
    ///   - passThroughRequest: A request the middleware does not apply to; `request` by default.
    ///   - maximumCallsToNext: The most times `next` may be called when every attempt fails.
    ///   - changesErrors: Whether the middleware's job is to change errors from below; then any
    ///     error (not only a cancellation error) may end a cancelled call.
    ///   - mayAnswerWithoutCallingNext: Whether the middleware may answer a repeated request
    ///     without calling `next`, as a response cache does.
    ///   - cancellationTimeLimit: How long a cancelled call may take to end; 60 s by default. The
    ///     check's transport answers after 10 minutes unless cancelled, so a call that ignores
    ///     its cancellation fails once the limit has passed (the check waits no longer), while a
    ///     prompt one passes on a loaded machine: under the thread sanitizer on two busy cores, a
    ///     whole suite running beside it once starved the thread pool for 42 s before a prompt
    ///     layer's call could end.
    ///   - skipping: Rules not to check.
    public init(
        request: HTTPRequest? = nil,
        passThroughRequest: HTTPRequest? = nil,
        maximumCallsToNext: Int = 1,
        changesErrors: Bool = false,
        mayAnswerWithoutCallingNext: Bool = false,
        cancellationTimeLimit: Duration = .seconds(60),
        skipping: Set<Rule> = []
    ) {
        let request = request ?? Self.defaultRequest
        self.request = request
        self.passThroughRequest = passThroughRequest ?? request
        self.maximumCallsToNext = maximumCallsToNext
        self.changesErrors = changesErrors
        self.mayAnswerWithoutCallingNext = mayAnswerWithoutCallingNext
        self.cancellationTimeLimit = cancellationTimeLimit
        self.skipping = changesErrors ? skipping.union([.errorPropagation]) : skipping
    }

    /// Runs every applicable rule against middleware made fresh for each exchange.
    ///
    /// Every exchange a rule sends gets a middleware of its own from `makeMiddleware`, except
    /// the repeated request of ``Rule/callsNext``, which is sent twice through one.
    ///
    /// - Parameter makeMiddleware: Makes the middleware to check, as new, each time it is called.
    /// - Returns: The rules checked and the violations found.
    public func check<Middleware: HTTPMiddleware>(_ makeMiddleware: @Sendable () -> Middleware) async -> Report {
        var checked: [Rule] = []
        var violations: [Violation] = []
        func run(_ rule: Rule, _ body: () async -> String?) async {
            guard !skipping.contains(rule) else { return }
            checked.append(rule)
            if let detail = await body() {
                violations.append(Violation(rule: rule, detail: detail))
            }
        }
        await run(.passThrough) { await checkPassThrough(makeMiddleware(), passThroughRequest) }
        await run(.callsNext) { await checkCallsNext(makeMiddleware) }
        await run(.ordering) { await checkOrdering(makeMiddleware()) }
        await run(.errorPropagation) { await checkErrorPropagation(makeMiddleware()) }
        await run(.cancellation) { await checkCancellation(makeMiddleware()) }
        return Report(checked: checked, violations: violations)
    }

    /// Runs every applicable rule against one middleware value, shared by every exchange.
    ///
    /// Right for a middleware that keeps nothing from one request to the next. One that does (a
    /// cache, a circuit breaker, a budget) carries what an earlier check left into the later
    /// ones: check it with a closure that makes it instead, `check { ResponseCache() }`.
    ///
    /// - Parameter middleware: The middleware to check.
    /// - Returns: The rules checked and the violations found.
    public func check(_ middleware: some HTTPMiddleware) async -> Report {
        await check { middleware }
    }

    static var defaultRequest: HTTPRequest {
        var components = URLComponents()
        components.scheme = "http"
        components.host = "contract.invalid"
        components.path = "/resource"
        return HTTPRequest(url: components.url ?? URL(fileURLWithPath: "/"))
    }
}
