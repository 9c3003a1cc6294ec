import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import Testing

/// Every middleware the core ships (the builder's composites and ``MiddlewareStack``) keeps the
/// middleware contract.
@Suite struct CoreContractTests {
    static let log = OrderLog()

    @MiddlewareBuilder
    static func pair() -> some HTTPMiddleware {
        OrderProbe("a", log: log)
        OrderProbe("b", log: log)
    }

    @MiddlewareBuilder
    static func optional(_ present: Bool) -> some HTTPMiddleware {
        if present { OrderProbe("maybe", log: log) }
    }

    @MiddlewareBuilder
    static func either(_ first: Bool) -> some HTTPMiddleware {
        if first { OrderProbe("first", log: log) } else { MiddlewareStack([]) }
    }

    @MiddlewareBuilder
    static func loop() -> some HTTPMiddleware {
        for name in ["x", "y"] { OrderProbe(name, log: log) }
    }

    @MiddlewareBuilder
    static func empty() -> some HTTPMiddleware {}

    static let layers: [(String, any HTTPMiddleware)] = [
        ("pair", pair()),
        ("optional present", optional(true)),
        ("optional absent", optional(false)),
        ("either first", either(true)),
        ("either second", either(false)),
        ("for loop", loop()),
        ("empty block", empty()),
        ("empty stack", MiddlewareStack([])),
        ("stack", MiddlewareStack([OrderProbe("s1", log: log), OrderProbe("s2", log: log)])),
        ("order probe", OrderProbe("probe", log: log)),
    ]

    @Test(arguments: layers.indices)
    func coreMiddlewareKeepsTheContract(index: Int) async {
        let (label, middleware) = Self.layers[index]
        let report = await MiddlewareContract().check(middleware)
        #expect(report.violations.isEmpty, "\(label): \(report)")
        #expect(report.checked == MiddlewareContract.Rule.allCases, "\(label)")
    }
}
