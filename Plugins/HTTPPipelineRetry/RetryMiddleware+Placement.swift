public import HTTPPipeline

extension RetryMiddleware: PlacementDeclaring {
    /// Retry.
    public var roles: Set<MiddlewareRole> { [.retry] }

    /// Outside auth.
    public var placementExpectations: [PlacementExpectation] {
        [
            .outside(
                .auth,
                because: "each attempt should run auth again, so an attempt after a refresh carries the new token")
        ]
    }
}
