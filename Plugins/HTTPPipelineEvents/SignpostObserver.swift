#if canImport(os)
public import HTTPPipeline
import Foundation
public import os

/// Shows each call and each attempt as a signpost interval, and every other event as a signpost
/// event, in Instruments' Points of Interest or a log of your own (Apple platforms).
///
/// Calls and attempts need no state to pair their ends with their starts: an interval's id is
/// made from the call's number (and the attempt's), so the observer keeps nothing between events.
/// The hedged copies of one attempt share its id. Only the method, the origin, the status and
/// the event's kind are written, all public: never a path, a query or a field.
///
/// ```swift
/// import HTTPPipeline
/// import HTTPPipelineEvents
/// import HTTPPipelineRetry
/// import HTTPPipelineURLSession
/// import os
///
/// let client = Pipeline(transport: URLSessionTransport()) {
///     ObserverMiddleware.call(SignpostObserver())
///     RetryMiddleware(policy: .default)
///     ObserverMiddleware.attempt()
/// }
/// ```
public struct SignpostObserver: HTTPObserver {
    private let log: OSLog

    /// An observer writing to `log`.
    ///
    /// - Parameter log: Where the signposts go; Points of Interest of the subsystem
    ///   `"HTTPPipeline"` by default.
    public init(log: OSLog = OSLog(subsystem: "HTTPPipeline", category: .pointsOfInterest)) {
        self.log = log
    }

    public func observe(_ event: HTTPEvent) {
        let call = OSSignpostID(event.call.rawValue)
        let what = NSString(string: "\(event.method.rawValue) \(event.origin?.description ?? "-")")
        let outcome = NSString(string: event.status.map { "\($0.code)" } ?? (event.error == nil ? "-" : "error"))
        switch event.kind {
        case .callStarted:
            os_signpost(.begin, log: log, name: "HTTP call", signpostID: call, "%{public}@", what)
        case .callFinished:
            os_signpost(.end, log: log, name: "HTTP call", signpostID: call, "%{public}@", outcome)
        case .attemptStarted:
            os_signpost(.begin, log: log, name: "HTTP attempt", signpostID: attemptID(event), "%{public}@", what)
        case .attemptFinished:
            os_signpost(.end, log: log, name: "HTTP attempt", signpostID: attemptID(event), "%{public}@", outcome)
        default:
            let kind = NSString(string: event.kind.name)
            os_signpost(.event, log: log, name: "HTTP event", signpostID: call, "%{public}@ %{public}@", kind, outcome)
        }
    }

    /// The id of an attempt's interval: the call's number and the attempt's, never an id another
    /// call's attempt has (while a process makes fewer than 2^48 calls).
    private func attemptID(_ event: HTTPEvent) -> OSSignpostID {
        OSSignpostID((event.call.rawValue << 16) | UInt64(truncatingIfNeeded: (event.attempt ?? 0) & 0xFFFF))
    }
}
#endif
