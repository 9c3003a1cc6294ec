import Foundation
import HTTPPipeline

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A shared record of what each ``OrderProbe`` saw, in the order it happened.
///
/// Give one log to every probe of a pipeline, send requests, then ask the log about order:
///
/// ```swift
/// import Testing
///
/// let log = OrderLog()
/// let pipeline = Pipeline(transport: transport) {
///     OrderProbe("outer", log: log)
///     MyMiddleware()
///     OrderProbe("inner", log: log)
/// }
/// _ = try await pipeline.send(request)
/// #expect(log.layers(.request) == ["outer", "inner"])
/// #expect(log.layers(.response) == ["inner", "outer"])
/// ```
public final class OrderLog: Sendable, CustomStringConvertible {
    /// Which way an event travelled.
    public enum Phase: String, Sendable {
        /// The probe saw a request on its way down.
        case request
        /// The probe saw a response on its way up.
        case response
        /// The probe saw an error on its way up.
        case error
        /// A probe that records chunks (``OrderProbe/init(_:log:recordsChunks:)``) saw one chunk
        /// of a response body pass on its way to the reader.
        case chunk
    }

    /// One thing one probe saw.
    public struct Event: Sendable, Equatable, CustomStringConvertible {
        /// The probe's name.
        public let layer: String
        /// Request, response or error.
        public let phase: Phase
        /// The request's method.
        public let method: String
        /// The request's URL path.
        public let path: String
        /// The response status, for a response event.
        public let status: Int?
        /// The attempt number a retrying layer outside the probe set (`HTTPRequestContext.attempt`).
        public let attempt: Int?
        /// How many times, counting this one, this probe has seen a request with this method and
        /// path (1-based): 2 means "this layer ran a second time for the same request".
        public let visit: Int
        /// The chunk's size, for a chunk event.
        public let bytes: Int?

        public var description: String {
            let mark =
                switch phase {
                case .request: ">"
                case .response: "<"
                case .error: "!"
                case .chunk: "~"
                }
            return phase == .chunk ? "\(layer)~\(bytes ?? 0)" : "\(layer)\(mark)"
        }
    }

    private let storage = Locked<[Event]>([])

    /// Creates an empty log.
    public init() {}

    /// Every event so far, oldest first.
    public var events: [Event] {
        storage.withLock { $0 }
    }

    /// The layers that saw `phase`, in the order they saw it (a layer seen twice appears twice).
    ///
    /// - Parameter phase: Requests, responses or errors.
    /// - Returns: Layer names, oldest first.
    public func layers(_ phase: Phase) -> [String] {
        events.filter { $0.phase == phase }.map(\.layer)
    }

    /// How many times `layer` saw `phase`.
    ///
    /// - Parameters:
    ///   - layer: A probe's name.
    ///   - phase: Requests, responses or errors.
    /// - Returns: The count.
    public func count(_ layer: String, _ phase: Phase = .request) -> Int {
        events.count { $0.layer == layer && $0.phase == phase }
    }

    /// Whether `first` saw `phase` before `second` did (comparing their first such events).
    ///
    /// - Parameters:
    ///   - first: The layer expected earlier.
    ///   - second: The layer expected later.
    ///   - phase: Requests, responses or errors.
    /// - Returns: `false` when either never saw `phase`.
    public func saw(_ first: String, before second: String, _ phase: Phase = .request) -> Bool {
        let order = layers(phase)
        guard let a = order.firstIndex(of: first), let b = order.firstIndex(of: second) else {
            return false
        }
        return a < b
    }

    /// Forgets every event.
    public func reset() {
        storage.withLock { $0.removeAll() }
    }

    /// The events in one line, for example `outer> inner> inner< outer<`; a chunk shows as
    /// `inner~1024` (its size).
    public var description: String {
        events.map(\.description).joined(separator: " ")
    }

    /// Records one event. A chunk event passes the attempt and visit its response had, since the
    /// body may be read after a later attempt, or outside the retrying layer.
    func record(
        layer: String, phase: Phase, request: HTTPRequest, status: Int? = nil, bytes: Int? = nil,
        of response: (attempt: Int?, visit: Int)? = nil
    ) {
        let method = request.method.rawValue
        let path = request.url.path
        let attempt = response.map(\.attempt) ?? request.context.attempt
        storage.withLock { events in
            let visit: Int
            if let response {
                visit = response.visit
            } else if phase == .request {
                visit =
                    1
                    + events.count {
                        $0.layer == layer && $0.phase == .request && $0.method == method && $0.path == path
                    }
            } else {
                visit =
                    events.last { $0.layer == layer && $0.phase == .request && $0.method == method && $0.path == path }?
                    .visit ?? 0
            }
            events.append(
                Event(
                    layer: layer, phase: phase, method: method, path: path, status: status, attempt: attempt,
                    visit: visit, bytes: bytes))
        }
    }
}

extension OrderLog {
    /// The visit number the latest request event of `layer` for this request had.
    func currentVisit(layer: String, request: HTTPRequest) -> Int {
        let method = request.method.rawValue
        let path = request.url.path
        return storage.withLock { events in
            events.last { $0.layer == layer && $0.phase == .request && $0.method == method && $0.path == path }?
                .visit ?? 0
        }
    }
}
