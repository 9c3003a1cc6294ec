public import HTTPPipeline

extension AuthMiddleware: PlacementDeclaring {
    /// Auth; and it changes the request (the credential), so logging belongs inside it.
    public var roles: Set<MiddlewareRole> { [.auth, .changesRequest] }
}
