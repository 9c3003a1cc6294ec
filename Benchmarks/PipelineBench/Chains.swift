import HTTPPipeline

/// The chains under test, by family and number of layers.
enum Family: String, CaseIterable {
    /// Result-builder form: statically nested generic types.
    case builder
    /// Array form: `[any HTTPMiddleware]` fixed at build time.
    case array
    /// Baseline: closures folded anew for every request.
    case closures
}

let layerCounts = [0, 1, 5, 10]

func builderChain(_ layers: Int, over transport: InMemoryTransport) -> any HTTPTransport {
    switch layers {
    case 0:
        return Pipeline(transport: transport) {}
    case 1:
        return Pipeline(transport: transport) { NoOp() }
    case 5:
        return Pipeline(transport: transport) {
            NoOp()
            NoOp()
            NoOp()
            NoOp()
            NoOp()
        }
    default:
        return Pipeline(transport: transport) {
            NoOp()
            NoOp()
            NoOp()
            NoOp()
            NoOp()
            NoOp()
            NoOp()
            NoOp()
            NoOp()
            NoOp()
        }
    }
}
