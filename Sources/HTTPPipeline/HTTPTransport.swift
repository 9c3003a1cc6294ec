/// Something that sends one HTTP request and returns its response.
///
/// This is the bottom of every pipeline: the one place where bytes leave the process. It has
/// exactly one requirement, so any client can be adapted to it in a few lines. Write a transport when you move bytes (a real client, a recorded fixture, a
/// scripted test double); write an ``HTTPMiddleware`` when you change *how* requests are sent.
///
/// A ``Pipeline`` is itself an `HTTPTransport`, so pipelines nest and a layer above never knows
/// whether it talks to the network or to a stack of middleware.
///
/// Conforming types must be `Sendable`: one transport serves many concurrent requests.
///
/// **Do not follow redirects: return the 3xx response**, `Location` and all. A redirect followed
/// below the pipeline is invisible to it: no log records the hop, and no layer decides which
/// credentials go to the other origin. A redirect layer (`RedirectMiddleware`) follows them as
/// hops of the pipeline instead; `URLSessionTransport` hands them back by default.
///
/// **Send a request at most once** unless ``HTTPRequest/mayBeResentByTransport`` allows more,
/// and fail with ``HTTPTransportError/outcomeUnknown`` when its connection dies after it was
/// sent. The whole contract a transport keeps, from request fidelity to cancellation, is the
/// test kit's `TransportConformance` (module `HTTPPipelineTesting`, article "Writing a
/// transport"): run it in your transport's tests.
public protocol HTTPTransport: Sendable {
    /// Sends a request and returns its response.
    ///
    /// A request body that is a single-pass stream is read at most once. A redirect is returned
    /// as the response it is, not followed.
    ///
    /// - Parameter request: The request to send, complete with head, body and context.
    /// - Returns: The response head and its body, buffered or streamed as the transport reads it.
    /// - Throws: A transport-level failure: `URLError` from a URL loading system,
    ///   ``HTTPTransportError`` for a request that cannot be sent or a reply that is not HTTP, or
    ///   `CancellationError` when the calling task was cancelled. An HTTP error status is *not*
    ///   thrown: it is a response like any other.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}
