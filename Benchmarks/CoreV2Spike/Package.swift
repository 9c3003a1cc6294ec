// swift-tools-version: 6.1
import PackageDescription

// core-v2 spike: heads as URLRequest/HTTPURLResponse vs light value types, `next` shapes,
// per-request context. No outside packages. SpikeCore plays the core module (everything hot is
// @inlinable, as the real core's builder types are); `spike` plays the user's module that builds
// the pipeline and owns the layers.
let package = Package(
    name: "corev2-spike",
    targets: [
        .target(name: "SpikeCore"),
        .executableTarget(name: "spike", dependencies: ["SpikeCore"]),
    ]
)
