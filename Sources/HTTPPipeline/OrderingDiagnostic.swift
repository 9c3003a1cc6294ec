/// A placement expectation that a pipeline's order breaks: advice, not an error.
public struct OrderingDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// The layer whose expectation is broken, and its position (0 is the outermost).
    public let layer: String
    /// The position of ``layer``, 0 being the outermost.
    public let position: Int
    /// The layer on the wrong side of it, and its position.
    public let other: String
    /// The position of ``other``.
    public let otherPosition: Int
    /// The expectation that is broken.
    public let expectation: PlacementExpectation

    public var description: String {
        // A broken expectation always means the other layer is on the side this one wanted.
        let side = expectation.side == .outside ? "outside" : "inside"
        return "\(layer) (layer \(position + 1)) expects to be \(side) every \(expectation.role) layer, "
            + "but \(other) (layer \(otherPosition + 1)) is \(side) it: \(expectation.reason)"
    }
}

extension Pipeline {
    /// The placement expectations this pipeline's order breaks, outermost layer first.
    ///
    /// Empty for the documented recommended order. Each entry names the layer, the one on the
    /// wrong side of it, and the reason. An unusual order can be intended: nothing is enforced.
    public var orderingDiagnostics: [OrderingDiagnostic] {
        let layers = self.layers
        var diagnostics: [OrderingDiagnostic] = []
        for (position, layer) in layers.enumerated() {
            guard let declaring = layer as? any PlacementDeclaring else { continue }
            for expectation in declaring.placementExpectations {
                for (otherPosition, other) in layers.enumerated() where otherPosition != position {
                    guard let roles = (other as? any PlacementDeclaring)?.roles, roles.contains(expectation.role) else {
                        continue
                    }
                    let otherIsOutside = otherPosition < position
                    let broken = expectation.side == .outside ? otherIsOutside : !otherIsOutside
                    if broken {
                        diagnostics.append(
                            OrderingDiagnostic(
                                layer: layer.name, position: position,
                                other: other.name, otherPosition: otherPosition,
                                expectation: expectation
                            ))
                    }
                }
            }
        }
        return diagnostics
    }
}
