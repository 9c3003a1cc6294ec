public import HTTPPipeline

extension DefaultHeaders: PlacementDeclaring {
    /// Headers; and it changes the request, so logging belongs inside it.
    public var roles: Set<MiddlewareRole> { [.headers, .changesRequest] }

    /// Outside retry and outside auth.
    public var placementExpectations: [PlacementExpectation] {
        [
            .outside(.retry, because: "every attempt of one call should carry the same computed headers"),
            .outside(
                .auth,
                because: "a replay after a refresh should carry the same computed headers as the rejected request"),
        ]
    }
}
