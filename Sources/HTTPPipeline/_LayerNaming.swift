/// Implemented by the builder's helper types, which stand for zero or more layers and so report
/// the names of the layers they hold instead of a name of their own.
protocol _LayerNaming {
    var _layerNames: [String] { get }
}

/// The names of the layers a middleware stands for, outermost first.
func layerNames(of middleware: some HTTPMiddleware) -> [String] {
    if let composite = middleware as? any _LayerNaming {
        return composite._layerNames
    }
    return [middleware.name]
}
