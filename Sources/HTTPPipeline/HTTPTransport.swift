public import Foundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// Something that sends one HTTP request and returns the response body and head.
///
/// This is the bottom of every pipeline: the one place where bytes leave the process. It has
/// exactly one requirement, shaped like `URLSession.data(for:)`, so any client can be adapted to
/// it in a few lines. Write a transport when you move bytes (a real client, a recorded fixture, a
/// scripted test double); write an ``HTTPMiddleware`` when you change *how* requests are sent.
///
/// A ``Pipeline`` is itself an `HTTPTransport`, so pipelines nest and a layer above never knows
/// whether it talks to the network or to a stack of middleware.
///
/// Conforming types must be `Sendable`: one transport serves many concurrent requests.
public protocol HTTPTransport: Sendable {
    /// Sends a request and returns the response body and head.
    ///
    /// - Parameter request: The request to send, complete with method, URL, headers and body.
    /// - Returns: The response body bytes and the HTTP response head.
    /// - Throws: A transport-level failure: `URLError` from a URL loading system,
    ///   ``HTTPTransportError`` for a request that cannot be sent or a reply that is not HTTP, or
    ///   `CancellationError` when the calling task was cancelled. An HTTP error status is *not*
    ///   thrown: it is a response like any other.
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}
