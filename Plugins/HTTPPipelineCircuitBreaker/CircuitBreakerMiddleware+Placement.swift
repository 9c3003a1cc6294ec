public import HTTPPipeline

extension CircuitBreakerMiddleware: PlacementDeclaring {
    /// A circuit breaker.
    public var roles: Set<MiddlewareRole> { [.circuitBreaker] }

    /// Inside retry, outside the per-attempt timeout.
    public var placementExpectations: [PlacementExpectation] {
        [
            .inside(
                .retry,
                because:
                    "outside retry it judges one outcome per call instead of one per attempt, and opens several times slower"
            ),
            .outside(
                .attemptTimeout,
                because:
                    "inside a per-attempt timeout it sees a cut attempt as a cancellation, so a hanging service never opens it"
            ),
        ]
    }
}
