public import HTTPPipeline

extension TimeoutMiddleware: PlacementDeclaring {
    /// A total deadline or a per-attempt timeout.
    public var roles: Set<MiddlewareRole> {
        switch kind {
        case .total: [.deadline]
        case .attempt: [.attemptTimeout]
        }
    }

    /// A deadline outside retry and redirects; a per-attempt timeout inside retry.
    public var placementExpectations: [PlacementExpectation] {
        switch kind {
        case .total:
            [
                .outside(
                    .retry,
                    because: "a deadline inside retry starts again with every attempt, so it never bounds the call"),
                .outside(.redirects, because: "a deadline inside redirects starts again with every hop"),
            ]
        case .attempt:
            [
                .inside(
                    .retry,
                    because:
                        "a per-attempt timeout outside retry cuts the whole call, and its retryable error is never retried"
                )
            ]
        }
    }
}
