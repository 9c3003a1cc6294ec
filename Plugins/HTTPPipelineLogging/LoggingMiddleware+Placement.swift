public import HTTPPipeline

extension LoggingMiddleware: PlacementDeclaring {
    /// Logging.
    public var roles: Set<MiddlewareRole> { [.logging] }

    /// Inside everything that changes the request, outside decoding.
    public var placementExpectations: [PlacementExpectation] {
        [
            .inside(.changesRequest, because: "the log should show the request as it is sent"),
            .outside(.decoding, because: "the log should show decoded bodies and sizes, not wire bytes"),
        ]
    }
}
