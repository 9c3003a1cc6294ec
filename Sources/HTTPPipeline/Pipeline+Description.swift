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

/// Lets a pipeline used as another's transport show its layers: in the outer pipeline's
/// description, and to its ordering diagnostics.
protocol _PipelineDescribing {
    /// This pipeline's layers, then those of every pipeline nested as its transport, outermost
    /// first, each with how many pipelines deep it sits (0 for this pipeline's own).
    var nestedLayers: [(layer: any HTTPMiddleware, depth: Int)] { get }
}

extension Pipeline: _PipelineDescribing {
    var nestedLayers: [(layer: any HTTPMiddleware, depth: Int)] {
        let own = layers.map { (layer: $0, depth: 0) }
        guard let nested = transport as? any _PipelineDescribing else { return own }
        return own + nested.nestedLayers.map { (layer: $0.layer, depth: $0.depth + 1) }
    }
}
