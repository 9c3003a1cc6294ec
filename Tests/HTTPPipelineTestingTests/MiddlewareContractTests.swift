import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import Testing

/// The contract must catch each kind of broken middleware, or it proves nothing.
@Suite struct MiddlewareContractTests {
    struct Honest: HTTPMiddleware {
        func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
            try await next(request)
        }
    }

    struct AddsHeader: HTTPMiddleware {
        func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
            var request = request
            request.fields["X-Added"] = "1"
            return try await next(request)
        }
    }

    struct CallsNextTwice: HTTPMiddleware {
        func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
            _ = try? await next(request)
            return try await next(request)
        }
    }

    struct SwallowsErrors: HTTPMiddleware {
        struct Replaced: Error {}
        func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
            do { return try await next(request) } catch { throw Replaced() }
        }
    }

    struct IgnoresCancellation: HTTPMiddleware {
        func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
            do {
                return try await next(request)
            } catch {
                // Hides the cancellation behind a made-up success, which a caller cannot tell apart.
                return HTTPResponse(status: 200)
            }
        }
    }

    struct EndsLateWhenCancelled: HTTPMiddleware {
        func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
            do {
                return try await next(request)
            } catch let error as CancellationError {
                // Cleans up for minutes in a task of its own, which the caller's cancellation
                // does not reach, before it passes the cancellation on (long enough that the
                // check's limit passes first even on a starved thread pool).
                await Task.detached { try? await Task.sleep(for: .seconds(600)) }.value
                throw error
            }
        }
    }

    struct RespondsInsteadOfCallingNext: HTTPMiddleware {
        func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
            HTTPResponse(status: 200)
        }
    }

    @Test func honestPassThroughMiddlewareKeepsEveryRule() async {
        let report = await MiddlewareContract().check(Honest())
        #expect(report.violations.isEmpty, "\(report)")
        #expect(report.checked == MiddlewareContract.Rule.allCases)
    }

    @Test func orderProbeKeepsEveryRule() async {
        let report = await MiddlewareContract().check(OrderProbe("probe", log: OrderLog()))
        #expect(report.violations.isEmpty, "\(report)")
    }

    @Test func changingARequestItShouldNotTouchBreaksPassThrough() async {
        let report = await MiddlewareContract().check(AddsHeader())
        #expect(report.violations.map(\.rule) == [.passThrough])
    }

    @Test func middlewareThatAlwaysAppliesSkipsPassThroughWhenToldSo() async {
        let report = await MiddlewareContract(skipping: [.passThrough]).check(AddsHeader())
        #expect(report.violations.isEmpty, "\(report)")
        #expect(!report.checked.contains(.passThrough))
    }

    @Test func callingNextTwiceBreaksTheCallsNextRuleUnlessRetryingIsItsJob() async {
        let strict = await MiddlewareContract().check(CallsNextTwice())
        #expect(strict.violations.contains { $0.rule == .callsNext })
        let lenient = await MiddlewareContract(maximumCallsToNext: 2).check(CallsNextTwice())
        // Still wrong: it calls next twice even when the first attempt succeeded.
        #expect(lenient.violations.contains { $0.rule == .callsNext })
    }

    @Test func replacingErrorsBreaksErrorPropagationUnlessThatIsItsJob() async {
        let strict = await MiddlewareContract().check(SwallowsErrors())
        #expect(strict.violations.map(\.rule) == [.errorPropagation, .cancellation])
        let lenient = await MiddlewareContract(changesErrors: true).check(SwallowsErrors())
        #expect(lenient.violations.isEmpty, "\(lenient)")
    }

    @Test func hidingCancellationBreaksTheCancellationRule() async {
        let report = await MiddlewareContract().check(IgnoresCancellation())
        #expect(report.violations.contains { $0.rule == .cancellation })
    }

    @Test func aCancelledCallThatEndsAfterTheLimitBreaksTheCancellationRuleWithoutWaitingForIt() async {
        let report = await MiddlewareContract(cancellationTimeLimit: .milliseconds(300)).check(EndsLateWhenCancelled())
        #expect(report.violations.map(\.rule) == [.cancellation])
        // The check stopped waiting at the limit, not when the call ended minutes later.
        #expect(report.violations.first?.description.contains("had not ended") == true, "\(report)")
    }

    @Test func answeringWithoutNextBreaksCallsNextAndOrdering() async {
        let report = await MiddlewareContract().check(RespondsInsteadOfCallingNext())
        let rules = Set(report.violations.map(\.rule))
        #expect(rules.isSuperset(of: [.passThrough, .callsNext, .ordering]))
    }
}
