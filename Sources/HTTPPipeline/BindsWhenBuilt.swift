/// A layer that a ``Pipeline`` binds to the rest of its chain once, when it is built, rather than
/// composing it into one inlined function with its neighbours.
///
/// Package machinery, not API: this package's plugins adopt it with one line
/// (`extension RetryMiddleware: BindsWhenBuilt {}`), as do ``MiddlewareStack`` and the builder's
/// composites. A plugin's `intercept` lives in a module of its own, where nothing inlines it into
/// a user's block; composed, each such layer would cost the pair around it, its `next` closure and
/// an optional as async calls of their own on every request, where bound it costs one call, and a
/// layer left out costs nothing. A run of the user's own layers inside a block that binds stays
/// one composed, inlined closure. The behaviour of a pipeline never depends on it.
@usableFromInline
package protocol BindsWhenBuilt: HTTPMiddleware {
    /// Whether a block holding this layer is bound layer by layer; `true` unless a composite
    /// holds only layers that compose.
    static var bindsWhenBuilt: Bool { get }

    /// This layer bound to the rest of a chain: one closure, made once when the pipeline is
    /// built.
    ///
    /// The default, compiled in the module that declares the conformance, calls that type's
    /// `intercept` directly, where it can be inlined.
    func bound(to next: @escaping HTTPNext) -> HTTPNext
}

extension BindsWhenBuilt {
    @inlinable
    package static var bindsWhenBuilt: Bool { true }

    @inlinable
    package func bound(to next: @escaping HTTPNext) -> HTTPNext {
        composedBound(to: next)
    }
}

extension HTTPMiddleware {
    /// One closure that calls this value's `intercept` with `next`: a layer's own binding, and a
    /// composite's when it holds no layer that binds (its layers then stay composed and inlined).
    @inlinable
    package func composedBound(to next: @escaping HTTPNext) -> HTTPNext {
        { request in try await intercept(request, next: next) }
    }
}

/// Whether a block of type `M` is bound layer by layer when a pipeline is built.
@inlinable
package func bindsWhenBuilt<M: HTTPMiddleware>(_ type: M.Type) -> Bool {
    (type as? any BindsWhenBuilt.Type)?.bindsWhenBuilt ?? false
}

/// `layer` bound to `next`: its own binding when it has one, else a closure compiled for its type.
@inlinable
package func bind<M: HTTPMiddleware>(_ layer: M, to next: @escaping HTTPNext) -> HTTPNext {
    let bound: HTTPNext
    if let binding = layer as? any BindsWhenBuilt {
        bound = binding.bound(to: next)
    } else {
        bound = layer.composedBound(to: next)
    }
    // Once bound, the layer is below whatever is bound next: a deadline layer learns whether
    // the chain below it keeps a cut deadline (a composite's layers may be noted twice).
    DeadlineBinding.noteBound(layer)
    return bound
}
