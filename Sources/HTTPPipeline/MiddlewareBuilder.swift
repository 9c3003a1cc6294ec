/// Builds an ordered middleware stack from a block of code.
///
/// Each line of the block is one middleware; **the first line is the outermost layer**: it sees
/// the request first and the response last. `if`, `if`/`else`, `if let`, `for` loops and
/// optional values (`M?`, skipped when `nil`) all work:
///
/// ```swift
/// let pipeline = Pipeline(transport: URLSessionTransport()) {
///     RequestStamp()                    // outermost
///     if verbose { TimingLog() }
///     for name in extraHeaders { HeaderStamp(name: name) }
///     optionalCache                     // a `Cache?`
/// }
/// ```
///
/// The builder nests concrete generic types, so the compiler sees the whole chain and can inline
/// it: an added layer costs little more than the layer's own work, and nothing is allocated per
/// request. A block that holds one of this package's plugins (whose code lives in its own module,
/// where nothing inlines it) is instead bound once, when the pipeline is built: one async call a
/// plugin, nothing for a layer left out, a run of your own layers still inlined together. For a stack known only at run time, use ``Pipeline/init(transport:middleware:)``, or
/// put a ``MiddlewareStack`` among the lines of a block.
@resultBuilder
public enum MiddlewareBuilder {
    /// Passes a middleware through unchanged.
    public static func buildExpression<M: HTTPMiddleware>(_ middleware: M) -> M {
        middleware
    }

    /// Accepts an optional middleware: `nil` contributes no layer.
    public static func buildExpression<M: HTTPMiddleware>(_ middleware: M?) -> _OptionalMiddleware<M> {
        _OptionalMiddleware(middleware)
    }

    /// An empty block: no layer at all.
    public static func buildBlock() -> _IdentityMiddleware {
        _IdentityMiddleware()
    }

    /// The first layer of a block.
    public static func buildPartialBlock<M: HTTPMiddleware>(first: M) -> M {
        first
    }

    /// Adds `next` inside the layers accumulated so far.
    public static func buildPartialBlock<Outer: HTTPMiddleware, Inner: HTTPMiddleware>(
        accumulated: Outer,
        next: Inner
    ) -> _MiddlewarePair<Outer, Inner> {
        _MiddlewarePair(outer: accumulated, inner: next)
    }

    /// An `if` without `else`, or an `if let`.
    public static func buildOptional<M: HTTPMiddleware>(_ middleware: M?) -> _OptionalMiddleware<M> {
        _OptionalMiddleware(middleware)
    }

    /// The `if` branch of an `if`/`else`.
    public static func buildEither<First: HTTPMiddleware, Second: HTTPMiddleware>(
        first: First
    ) -> _EitherMiddleware<First, Second> {
        .first(first)
    }

    /// The `else` branch of an `if`/`else`.
    public static func buildEither<First: HTTPMiddleware, Second: HTTPMiddleware>(
        second: Second
    ) -> _EitherMiddleware<First, Second> {
        .second(second)
    }

    /// A `for` loop: its layers in loop order, the first one outermost.
    public static func buildArray<M: HTTPMiddleware>(_ middleware: [M]) -> _MiddlewareArray<M> {
        _MiddlewareArray(middleware)
    }

    /// An `if #available` block.
    public static func buildLimitedAvailability(_ middleware: some HTTPMiddleware) -> _AnyMiddleware {
        _AnyMiddleware(middleware)
    }
}
