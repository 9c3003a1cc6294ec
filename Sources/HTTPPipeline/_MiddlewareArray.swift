public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// Layers held in an array, the first outermost: a `for` loop in a builder block, or the array
/// form of ``Pipeline``.
///
/// The array is fixed when the pipeline is built; a request walks it with a cursor that lives on
/// the stack, so nothing is allocated per request.
public struct _MiddlewareArray<Element: HTTPMiddleware>: HTTPMiddleware, _LayerNaming {
    @usableFromInline let elements: [Element]

    init(_ elements: [Element]) {
        self.elements = elements
    }

    @inlinable
    public func intercept(
        _ request: URLRequest,
        next: some HTTPTransport
    ) async throws -> (Data, HTTPURLResponse) {
        try await _ArrayCursor(elements: elements, index: elements.startIndex, next: next).send(request)
    }

    var _layerNames: [String] { elements.flatMap { layerNames(of: $0) } }
}

/// The rest of a ``_MiddlewareArray`` from `index` on, then `next`.
public struct _ArrayCursor<Element: HTTPMiddleware, Next: HTTPTransport>: HTTPTransport {
    @usableFromInline let elements: [Element]
    @usableFromInline let index: Int
    @usableFromInline let next: Next

    @inlinable
    init(elements: [Element], index: Int, next: Next) {
        self.elements = elements
        self.index = index
        self.next = next
    }

    @inlinable
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        guard index < elements.endIndex else { return try await next.send(request) }
        let rest = _ArrayCursor(elements: elements, index: index + 1, next: next)
        return try await elements[index].intercept(request, next: rest)
    }
}
