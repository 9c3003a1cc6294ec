/// Implemented by the builder's helper types, which stand for zero or more layers and so report
/// the layers they hold instead of being a layer of their own.
protocol LayerComposite {
    var flattenedLayers: [any HTTPMiddleware] { get }
}

/// The layers a middleware stands for, outermost first: itself, or the layers of a composite.
func layers(of middleware: some HTTPMiddleware) -> [any HTTPMiddleware] {
    if let composite = middleware as? any LayerComposite {
        return composite.flattenedLayers
    }
    return [middleware]
}
