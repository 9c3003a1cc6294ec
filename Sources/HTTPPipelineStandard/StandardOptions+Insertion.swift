public import HTTPPipeline

extension StandardOptions {
    /// A named place in the standard stack where your own middleware can go.
    ///
    /// Each point is named after the built-in layer it sits next to, and keeps that meaning when
    /// plugins are left out or join the stack. Outermost first:
    ///
    /// ```
    /// outermost → [deadline] → DefaultHeaders → [limit] → outsideRetry → RedirectMiddleware
    ///   → RetryMiddleware → [breaker] → [perAttempt] → insideRetry → AuthMiddleware → insideAuth
    ///   → LoggingMiddleware → GzipMiddleware → beforeTransport → transport
    /// ```
    ///
    /// (`[deadline]` and `[perAttempt]` are the two `TimeoutMiddleware` layers, `[limit]` the
    /// `ConcurrencyLimitMiddleware` and `[breaker]` the `CircuitBreakerMiddleware`, when set.)
    public struct InsertionPoint: Hashable, Sendable, CustomStringConvertible {
        @usableFromInline enum Place: Int, Sendable {
            case outermost, outsideRetry, insideRetry, insideAuth, beforeTransport
        }

        @usableFromInline let place: Place

        @usableFromInline
        init(_ place: Place) {
            self.place = place
        }

        /// Outside every built-in layer, the deadline included: runs once per call and sees the
        /// request as the caller made it, before default headers; sees the response last. For call-level metrics, or a
        /// header that must win over a default (default headers never replace a header already
        /// set).
        public static let outermost = InsertionPoint(.outermost)

        /// Inside default headers, outside redirects and retry: runs once per call and sees the
        /// default headers. For a value that every hop and attempt of one call must share, such
        /// as an idempotency key that retry reads to decide whether a `POST` may be sent again.
        public static let outsideRetry = InsertionPoint(.outsideRetry)

        /// Inside retry and the per-attempt timeout, outside auth: runs once per attempt of each
        /// hop, before the credential is attached, within the attempt's time.
        /// For a value that must be fresh on every attempt, such as a timestamp or an attempt
        /// header.
        public static let insideRetry = InsertionPoint(.insideRetry)

        /// Inside auth, the cache and hedging, outside logging: sees each request with its
        /// credential, and runs again for auth's replay after a refresh, so it sees the new
        /// credential; logging shows what it added. For request signing over the credential and
        /// headers.
        public static let insideAuth = InsertionPoint(.insideAuth)

        /// Inside every built-in layer, right above the transport: sees the request and response
        /// as they cross the wire (gzip's `Accept-Encoding`, compressed bodies). Logging does not
        /// show what it changes. For wire-level checks and fault injection.
        public static let beforeTransport = InsertionPoint(.beforeTransport)

        /// The point's name, for example `"insideAuth"`.
        public var description: String {
            switch place {
            case .outermost: "outermost"
            case .outsideRetry: "outsideRetry"
            case .insideRetry: "insideRetry"
            case .insideAuth: "insideAuth"
            case .beforeTransport: "beforeTransport"
            }
        }
    }

    /// Adds your own middleware at a named point of the stack, after any inserted there before:
    /// layers inserted at one point run in the order they were inserted, the first outermost.
    ///
    /// ```swift
    /// var options = StandardOptions(credentials: tokenStore)
    /// options.insert(RequestStamp(), at: .outermost)
    /// options.insert(TimingLog(), at: .insideRetry)
    /// let client = try StandardPipeline.build(over: URLSessionTransport(), options: options)
    /// print(client)
    /// // Pipeline(RequestStamp -> ConcurrencyLimitMiddleware -> RedirectMiddleware -> RetryMiddleware -> TimingLog -> AuthMiddleware -> GzipMiddleware -> URLSessionTransport)
    /// ```
    ///
    /// An inserted layer is called through an existential, so it costs a little more than a layer
    /// written in a `Pipeline` block; a stack with nothing inserted has no such layer at all.
    /// `Pipeline.orderingDiagnostics` checks inserted layers like the built-in ones.
    ///
    /// - Parameters:
    ///   - middleware: The layer to add.
    ///   - point: Where it goes.
    public mutating func insert(_ middleware: any HTTPMiddleware, at point: InsertionPoint) {
        insertions[point, default: []].append(middleware)
    }
}
