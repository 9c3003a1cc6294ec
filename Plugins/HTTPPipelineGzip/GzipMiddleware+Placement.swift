public import HTTPPipeline

extension GzipMiddleware: PlacementDeclaring {
    /// Decoding. (Its `Accept-Encoding` is not a change a log needs to show, so it does not
    /// claim `MiddlewareRole.changesRequest`: logging belongs outside it.)
    public var roles: Set<MiddlewareRole> { [.decoding] }
}
