extension Pipeline: CustomStringConvertible {
    /// The layers, outermost first, each one middleware (the builder's composites and
    /// ``MiddlewareStack``s are flattened).
    public var layers: [any HTTPMiddleware] {
        HTTPPipeline.layers(of: middleware)
    }

    /// The names of the layers, outermost first, as ``HTTPMiddleware/name`` gives them.
    public var layerNames: [String] {
        layers.map(\.name)
    }

    /// The name of the transport at the bottom: its type's name, or a nested pipeline's
    /// description.
    public var transportName: String {
        if let nested = transport as? any CustomStringConvertible & HTTPTransport,
            nested is any _PipelineDescribing
        {
            return nested.description
        }
        return String(describing: Transport.self)
    }

    /// The order of the pipeline in one line, outermost first, for example
    /// `Pipeline(RequestStamp -> TimingLog -> URLSessionTransport)`.
    public var description: String {
        "Pipeline(" + (layerNames + [transportName]).joined(separator: " -> ") + ")"
    }
}

/// Marks ``Pipeline`` so that a pipeline used as another's transport describes its own layers.
protocol _PipelineDescribing {}

extension Pipeline: _PipelineDescribing {}
