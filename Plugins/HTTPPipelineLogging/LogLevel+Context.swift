public import HTTPPipeline
import HTTPPipelineRedaction

/// The context key of a per-call log level: see `HTTPRequestContext.logLevel`.
package enum LogLevelKey: HTTPContextKey {
    package typealias Value = LogLevel
}

extension HTTPRequestContext {
    /// The level ``LoggingMiddleware`` logs this call at instead of its own: `.none` for a call
    /// that must leave no record, `.body` to look closely at one call. `nil` (the default) keeps
    /// the middleware's level. Redaction applies at every level.
    public var logLevel: LogLevel? {
        get { self[LogLevelKey.self] }
        set { self[LogLevelKey.self] = newValue }
    }
}
