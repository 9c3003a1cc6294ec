/// Where one attempt's time went and what crossed the wire, as the transport that sent it saw
/// them: on ``HTTPResponse/transferMetrics``.
///
/// Each time counts from the moment the transport began the attempt. A value the transport
/// cannot know is `nil` (which ones, each transport's documentation says). The times are
/// ordered: name resolution, then connect, then the TLS handshake, then the request sent, then
/// the first response byte, then the last. They are final once the response's body has been
/// read to its end (a buffered body already has been).
///
/// ```swift
/// func timeToFirstByte(of request: HTTPRequest, through client: some HTTPTransport) async throws {
///     let response = try await client.send(request)
///     _ = try await response.body.collect(upTo: 1 << 20)
///     if let metrics = response.transferMetrics, let firstByte = metrics.firstByte {
///         print("waited \(firstByte) for the head, reused: \(metrics.reusedConnection ?? false)")
///     }
/// }
/// ```
public struct HTTPTransferMetrics: Sendable, Hashable {
    /// The host's name resolved (`nil` for an address, a reused connection, or unknown).
    public var nameLookup: Duration?
    /// The connection made (TCP connected, or the proxy's).
    public var connect: Duration?
    /// The TLS handshake done; `nil` over `http`.
    public var secureConnect: Duration?
    /// The request about to be sent: the connection ready, the head going out.
    public var requestStart: Duration?
    /// The first byte of the response arrived.
    public var firstByte: Duration?
    /// The last byte of the response arrived: the attempt's whole time.
    public var lastByte: Duration?
    /// Bytes sent: the request head and body as they went on the wire.
    public var bytesSent: Int64?
    /// Bytes of the response's head received.
    public var headBytesReceived: Int64?
    /// Bytes of the response's body received, as they came on the wire (before any decoding).
    public var bodyBytesReceived: Int64?
    /// Bytes of the response's body handed up (after the transport's own decoding, if any).
    public var bodyBytesDecoded: Int64?
    /// Whether the attempt went over a connection an earlier one had opened.
    public var reusedConnection: Bool?
    /// The protocol spoken, for example `"HTTP/1.1"` or `"HTTP/2"`.
    public var httpVersion: String?
    /// The address connected to, for example `"127.0.0.1"` or `"::1"`.
    public var remoteAddress: String?
    /// The port connected to.
    public var remotePort: Int?

    /// Metrics with nothing known.
    public init() {}

    /// The known times in their order, for checks: the first that is earlier than one before it
    /// breaks the order.
    public var orderedTimes: [(phase: String, time: Duration)] {
        [
            ("nameLookup", nameLookup), ("connect", connect), ("secureConnect", secureConnect),
            ("requestStart", requestStart), ("firstByte", firstByte), ("lastByte", lastByte),
        ].compactMap { phase, time in time.map { (phase, $0) } }
    }
}

/// The metrics of one attempt as the transport fills them in: the transport keeps it, the
/// response carries it in its context, and ``HTTPResponse/transferMetrics`` reads it.
public final class HTTPTransferRecord: Sendable {
    private let state = Locked(HTTPTransferMetrics())

    /// A record with nothing known yet.
    public init() {}

    /// The metrics known now.
    public var metrics: HTTPTransferMetrics { state.value }

    /// Changes the metrics (the transport, as it learns them).
    public func update(_ change: (inout HTTPTransferMetrics) -> Void) {
        state.withLock { change(&$0) }
    }
}

enum TransferRecordKey: HTTPContextKey {
    typealias Value = HTTPTransferRecord
}

extension HTTPResponseContext {
    /// The record of the attempt that produced the response, set by the transport.
    public var transferRecord: HTTPTransferRecord? {
        get { self[TransferRecordKey.self] }
        set { self[TransferRecordKey.self] = newValue }
    }
}

extension HTTPResponse {
    /// Where the attempt's time went and what crossed the wire, as the transport saw it; `nil`
    /// from a transport that does not tell. Final once the body has been read to its end.
    public var transferMetrics: HTTPTransferMetrics? {
        context.transferRecord?.metrics
    }
}
