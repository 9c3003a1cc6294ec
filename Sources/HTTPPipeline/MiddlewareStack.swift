/// Middleware assembled at run time, as one layer: the first element outermost.
///
/// Use it for stacks whose content is decided by configuration, or to mix such a stack into a
/// ``MiddlewareBuilder`` block among statically known layers:
///
/// ```swift
/// let pipeline = Pipeline(transport: transport) {
///     RequestStamp()
///     MiddlewareStack(pluginsFromConfiguration)   // [any HTTPMiddleware]
///     TimingLog()
/// }
/// ```
///
/// Each layer is called through an existential, so a layer here costs a little more than the
/// same layer written directly in a block; nothing is allocated per request. A block holding a
/// stack binds each layer once when the pipeline is built: one async call a layer.
///
/// ## Ordering
/// The stack's layers sit, in array order, exactly where the stack is placed.
public struct MiddlewareStack: HTTPMiddleware, LayerComposite, BindsWhenBuilt {
    @usableFromInline let layers: _MiddlewareArray<_AnyMiddleware>

    /// Creates a stack from layers listed outermost first.
    ///
    /// - Parameter layers: The layers; an empty array passes every request straight to `next`.
    public init(_ layers: [any HTTPMiddleware]) {
        self.layers = _MiddlewareArray(layers.map(_AnyMiddleware.init))
    }

    /// Sends the request through the stack's layers in order, then `next`.
    ///
    /// - Parameters:
    ///   - request: The request from the layer above.
    ///   - next: The rest of the pipeline below the stack.
    /// - Returns: The response as the stack's outermost layer hands it back.
    /// - Throws: Whatever a layer or `next` threw and no layer of the stack handled.
    @inlinable
    public func intercept(
        _ request: HTTPRequest,
        next: HTTPNext
    ) async throws -> HTTPResponse {
        try await layers.intercept(request, next: next)
    }

    /// Each layer bound to the rest, innermost first (it binds: its layers are called through
    /// existentials, which nothing inlines).
    @inlinable
    package func bound(to next: @escaping HTTPNext) -> HTTPNext { layers.bound(to: next) }

    var flattenedLayers: [any HTTPMiddleware] { layers.flattenedLayers }
}
