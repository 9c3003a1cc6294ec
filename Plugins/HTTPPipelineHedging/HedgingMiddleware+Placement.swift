public import HTTPPipeline

extension HedgingMiddleware: PlacementDeclaring {
    /// Hedging.
    public var roles: Set<MiddlewareRole> { [.hedging] }

    /// Inside retry, auth and a deadline.
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
                    "outside auth, a token refresh counts as a slow response: a hedge goes out with the stale token, meets the same 401 and is sent again after the refresh"
            ),
            .inside(
                .deadline,
                because: "a deadline inside hedging starts again with every hedged attempt, so it never bounds the call"
            ),
        ]
    }
}
