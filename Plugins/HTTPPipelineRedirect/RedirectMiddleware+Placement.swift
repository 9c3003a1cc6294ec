public import HTTPPipeline

extension RedirectMiddleware: PlacementDeclaring {
    /// Redirects; and it changes the request (each hop's URL, method and fields), so logging
    /// belongs inside it.
    public var roles: Set<MiddlewareRole> { [.redirects, .changesRequest] }

    /// Outside auth and retry, inside default headers.
    public var placementExpectations: [PlacementExpectation] {
        [
            .outside(
                .auth,
                because:
                    "each hop should be authorised for its own origin, and a 401 from another origin refresh nothing"
            ),
            .outside(.retry, because: "a failing hop should be retried on its own, not the chain from its first URL"),
            .inside(
                .headers,
                because: "default headers should be set once on the call, so a hop to another origin can drop them"),
        ]
    }
}
