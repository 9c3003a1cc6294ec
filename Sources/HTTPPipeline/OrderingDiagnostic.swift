/// A placement expectation that a pipeline's order breaks: advice, not an error.
///
/// Positions count the layers of a pipeline and of every pipeline nested as its transport, in the
/// order a request meets them: the outer pipeline's layers, then the inner one's.
public struct OrderingDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// The layer whose expectation is broken.
    public let layer: String
    /// The position of ``layer``, 0 being the outermost.
    public let position: Int
    /// How many pipelines deep ``layer`` sits: 0 in the pipeline asked, 1 in the pipeline that is
    /// its transport, and so on.
    public let depth: Int
    /// The layer on the wrong side of it.
    public let other: String
    /// The position of ``other``.
    public let otherPosition: Int
    /// How many pipelines deep ``other`` sits, as ``depth`` counts.
    public let otherDepth: Int
    /// The expectation that is broken.
    public let expectation: PlacementExpectation

    public var description: String {
        // A broken expectation always means the other layer is on the side this one wanted.
        let side = expectation.side == .outside ? "outside" : "inside"
        return "\(layer) (\(Self.place(position, depth))) expects to be \(side) every \(expectation.role) layer, "
            + "but \(other) (\(Self.place(otherPosition, otherDepth))) is \(side) it: \(expectation.reason)"
    }

    /// `layer 3`, or `layer 3, nested 1 deep` for a layer of a pipeline used as a transport.
    static func place(_ position: Int, _ depth: Int) -> String {
        depth == 0 ? "layer \(position + 1)" : "layer \(position + 1), nested \(depth) deep"
    }
}

extension Pipeline {
    /// The placement expectations this pipeline's order breaks, outermost layer first.
    ///
    /// Empty for the documented recommended order. Each entry names the layer, the one on the
    /// wrong side of it, and the reason. An unusual order can be intended: nothing is enforced.
    ///
    /// A pipeline whose transport is itself a pipeline (at any depth) is checked as one order:
    /// its own layers, then the nested pipeline's, as a request meets them. A signing layer in an
    /// inner pipeline that expects to be inside auth is reported when auth is in the inner
    /// pipeline below it, and not when auth is in the outer one.
    public var orderingDiagnostics: [OrderingDiagnostic] {
        let layers = nestedLayers
        var diagnostics: [OrderingDiagnostic] = []
        for (position, entry) in layers.enumerated() {
            guard let declaring = entry.layer as? any PlacementDeclaring else { continue }
            for expectation in declaring.placementExpectations {
                for (otherPosition, other) in layers.enumerated() where otherPosition != position {
                    guard let roles = (other.layer as? any PlacementDeclaring)?.roles, roles.contains(expectation.role)
                    else {
                        continue
                    }
                    let otherIsOutside = otherPosition < position
                    let broken = expectation.side == .outside ? otherIsOutside : !otherIsOutside
                    if broken {
                        diagnostics.append(
                            OrderingDiagnostic(
                                layer: entry.layer.name, position: position, depth: entry.depth,
                                other: other.layer.name, otherPosition: otherPosition, otherDepth: other.depth,
                                expectation: expectation
                            ))
                    }
                }
            }
        }
        return diagnostics
    }
}
