public import HTTPPipeline

/// The context key of a call's circuit: see `HTTPRequestContext.circuitBreakerKey`.
package enum CircuitBreakerKey: HTTPContextKey {
    package typealias Value = String
}

extension HTTPRequestContext {
    /// The circuit a ``CircuitBreakerMiddleware`` judges this call in; `nil` (the default) for
    /// the circuit of the request's origin. Calls with one key share one circuit, whatever their
    /// URL.
    ///
    /// ```swift
    /// var request = HTTPRequest(url: URL(string: "https://api.example.com/search?q=swift")!)
    /// request.context.circuitBreakerKey = "search"   // search fails apart from the rest of the API
    /// ```
    public var circuitBreakerKey: String? {
        get { self[CircuitBreakerKey.self] }
        set { self[CircuitBreakerKey.self] = newValue }
    }
}
