public import HTTPPipeline

/// What one call asks of ``GzipMiddleware`` instead of its usual work: set it on the request's
/// context (`HTTPRequestContext.gzip`).
///
/// ```swift
/// var request = HTTPRequest(url: URL(string: "https://example.com/archive.tar.gz")!)
/// request.context.gzip = .off   // no Accept-Encoding added, the body handed up as it came
/// ```
public enum GzipOverride: Sendable {
    /// Leave this call alone: no `Accept-Encoding` added, no request compression, no decoding.
    case off
    /// Use these options for this call (other limits, request compression on or off).
    case options(GzipOptions)
}

/// The context key of a per-call gzip override: see `HTTPRequestContext.gzip`.
package enum GzipOverrideKey: HTTPContextKey {
    package typealias Value = GzipOverride
}

extension HTTPRequestContext {
    /// What ``GzipMiddleware`` does for this call instead of its usual work; `nil` (the default)
    /// for its usual work.
    public var gzip: GzipOverride? {
        get { self[GzipOverrideKey.self] }
        set { self[GzipOverrideKey.self] = newValue }
    }
}
