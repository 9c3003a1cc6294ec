public import HTTPPipeline

extension HedgingMiddleware: PlacementDeclaring {
    /// Hedging.
    public var roles: Set<MiddlewareRole> { [.hedging] }

    /// Inside retry, auth and a deadline; outside a per-attempt timeout.
    public var placementExpectations: [PlacementExpectation] {
        [
            .inside(
                .retry,
                because:
                    "outside retry, each hedged attempt runs a whole retry sequence: its backoff waits count as slowness, so a hedge is sent during the wait the server asked for"
            ),
            .inside(
                .auth,
                because:
                    "outside auth, a token refresh counts as a slow response: a hedge starts, waits on the same refresh and is sent as well"
            ),
            .inside(
                .deadline,
                because: "a deadline inside hedging starts again with every hedged attempt, so it never bounds the call"
            ),
            .outside(
                .attemptTimeout,
                because:
                    "a per-attempt timeout outside hedging cuts the whole hedged call, the hedge that was about to win included"
            ),
        ]
    }
}
