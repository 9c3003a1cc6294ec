public import HTTPPipeline

extension ConcurrencyLimitMiddleware: PlacementDeclaring {
    /// A concurrency limit.
    public var roles: Set<MiddlewareRole> { [.concurrencyLimit] }

    /// Outside auth, inside the deadline.
    public var placementExpectations: [PlacementExpectation] {
        [
            .outside(
                .auth,
                because:
                    "calls queued inside auth keep the credential they were given before they waited, so a stale token is sent by every one of them"
            ),
            .inside(
                .deadline,
                because: "a deadline inside the limit does not count the wait for a slot, so a call can wait past it"),
        ]
    }
}
