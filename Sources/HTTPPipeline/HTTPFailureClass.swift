import Foundation

/// What a transport's failure tells a layer that may send the request again: whether another
/// attempt may succeed, and whether the request may have reached the server.
///
/// The one reading of a failure every layer shares, whatever transport failed: retry sends a
/// request again after a ``notSent`` failure whatever its method (when its body can be read
/// again), after a ``transient`` one only when the request is idempotent, never after a
/// ``permanent`` one. The transport conformance suite (`TransportConformance`) checks that a
/// transport's errors read as their failures were.
///
/// ```swift
/// let refused = HTTPFailureClass(URLError(.cannotConnectToHost))
/// print(refused == .notSent, refused)   // true, "transient, not sent"
/// ```
///
/// `URLError` codes read as `URLError.Code`'s documentation says; an error of another transport
/// reads through ``HTTPTransientFailure`` (``HTTPTransientFailure/isTransient`` and
/// ``HTTPTransientFailure/mayHaveReachedServer``); any other error is permanent.
public struct HTTPFailureClass: Hashable, Sendable, CustomStringConvertible {
    private enum Kind: Hashable, Sendable {
        case notSent, transient, permanent
    }

    private let kind: Kind

    private init(_ kind: Kind) { self.kind = kind }

    /// Transient, and nothing of the request reached the server (nothing accepted the
    /// connection, the name did not resolve, no network): any request may be sent again.
    public static let notSent = HTTPFailureClass(.notSent)
    /// Transient, but the request may have reached the server (the connection was lost, a
    /// timeout): only a request that is safe to repeat may be sent again.
    public static let transient = HTTPFailureClass(.transient)
    /// Another attempt would most likely fail the same way (a TLS failure, an invalid request,
    /// an error that is not a transport's).
    public static let permanent = HTTPFailureClass(.permanent)

    /// Reads a failure.
    ///
    /// - Parameter error: What an attempt threw.
    public init(_ error: any Error) {
        if let urlError = error as? URLError {
            if URLError.notSentCodes.contains(urlError.code) {
                self = .notSent
            } else {
                self = URLError.transientCodes.contains(urlError.code) ? .transient : .permanent
            }
        } else if let failure = error as? any HTTPTransientFailure, failure.isTransient {
            self = failure.mayHaveReachedServer ? .transient : .notSent
        } else {
            self = .permanent
        }
    }

    /// Whether another attempt may succeed: ``notSent`` or ``transient``.
    public var isTransient: Bool { kind != .permanent }

    public var description: String {
        switch kind {
        case .notSent: "transient, not sent"
        case .transient: "transient, may have reached the server"
        case .permanent: "permanent"
        }
    }
}
