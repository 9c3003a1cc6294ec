public import HTTPPipeline

extension MiddlewareRole {
    /// Serves stored responses instead of sending requests.
    public static let cache: MiddlewareRole = "cache"
}

extension CacheMiddleware: PlacementDeclaring {
    /// Cache.
    public var roles: Set<MiddlewareRole> { [.cache] }

    /// Inside auth.
    public var placementExpectations: [PlacementExpectation] {
        [
            .inside(
                .auth,
                because:
                    "the cache keeps users apart by the credential each request carries; outside auth every request is anonymous to it, and one user's private responses would be served to the next"
            )
        ]
    }
}
