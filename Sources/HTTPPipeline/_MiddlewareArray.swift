/// Layers held in an array, the first outermost: a `for` loop in a builder block, or the array
/// form of ``Pipeline``.
///
/// The array is fixed when the pipeline is built; a request walks it by index, handing each layer
/// a non-escaping closure for the rest (or, in a block that binds when built, each element is
/// bound to the rest once), so nothing is allocated on the heap per request.
///
/// An implementation detail of ``MiddlewareBuilder`` and ``MiddlewareStack``, public only because
/// their result types must be, and `@inlinable` so that a pipeline specialises; not API. DocC
/// hides it.
public struct _MiddlewareArray<Element: HTTPMiddleware>: HTTPMiddleware, LayerComposite {
    @usableFromInline let elements: [Element]

    @usableFromInline
    init(_ elements: [Element]) {
        self.elements = elements
    }

    @inlinable
    public func intercept(
        _ request: HTTPRequest,
        next: HTTPNext
    ) async throws -> HTTPResponse {
        try await send(request, from: elements.startIndex, then: next)
    }

    /// Sends `request` through the layers from `index` on, then `next`.
    @inlinable
    func send(
        _ request: HTTPRequest,
        from index: Int,
        then next: HTTPNext
    ) async throws -> HTTPResponse {
        guard index < elements.endIndex else { return try await next(request) }
        return try await elements[index].intercept(request) { request in
            try await send(request, from: index + 1, then: next)
        }
    }

    var flattenedLayers: [any HTTPMiddleware] { elements.flatMap { layers(of: $0) } }
}

extension _MiddlewareArray: BindsWhenBuilt {
    /// Bound when its element type is.
    @inlinable
    package static var bindsWhenBuilt: Bool { HTTPPipeline.bindsWhenBuilt(Element.self) }

    /// Each element bound to the rest, innermost first.
    @inlinable
    package func bound(to next: @escaping HTTPNext) -> HTTPNext {
        // A run of the user's own layers stays one composed, inlined closure.
        guard Self.bindsWhenBuilt else { return composedBound(to: next) }
        // A loop, not `reduce`: a function value passed through a generic is reabstracted, a
        // thunk of two async calls more on every request.
        var chain = next
        for element in elements.reversed() { chain = bind(element, to: chain) }
        return chain
    }
}
