#if canImport(FoundationNetworking)
import Foundation
public import FoundationNetworking
#else
public import Foundation
#endif

extension URLRequest {
    /// Whether the request's body can be sent again: it has no body, or a buffered one
    /// (`httpBody`). A body stream (`httpBodyStream`) is read once by the transport, so a second
    /// send would carry nothing (or what is left of it).
    ///
    /// Every layer that sends a request more than once (retry, auth's replay after a refresh,
    /// yours) checks this first: a request it cannot replay is answered with the response it
    /// already has.
    public var hasReplayableBody: Bool {
        httpBodyStream == nil
    }
}
