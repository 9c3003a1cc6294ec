import Foundation
import HTTPPipeline
import HTTPPipelineTesting

let orderingURL = URL(string: "https://api.example.invalid/books/1") ?? URL(fileURLWithPath: "/")

/// Each diagnostic of `layers` (over an empty script) in short: `layer side role other`, for
/// example `RedirectMiddleware outside auth AuthMiddleware`.
func placementReasons(_ layers: [any HTTPMiddleware]) -> [String] {
    Pipeline(transport: ScriptedTransport([]), middleware: layers).orderingDiagnostics.map {
        "\($0.layer) \($0.expectation.side == .outside ? "outside" : "inside") \($0.expectation.role) \($0.other)"
    }
}
