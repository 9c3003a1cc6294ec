// swift-tools-version: 6.1
import PackageDescription

/// One settings list, applied to every target.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "swift-http-pipeline",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "HTTPPipeline", targets: ["HTTPPipeline"]),
        .library(name: "HTTPPipelineTesting", targets: ["HTTPPipelineTesting"]),
        .executable(name: "pipeline-demo", targets: ["PipelineDemo"]),
        .executable(name: "pipeline-bench", targets: ["PipelineBench"]),
    ],
    targets: [
        .target(name: "HTTPPipeline", swiftSettings: swiftSettings),
        .target(name: "HTTPPipelineTesting", dependencies: ["HTTPPipeline"], swiftSettings: swiftSettings),
        .executableTarget(
            name: "PipelineDemo",
            dependencies: ["HTTPPipeline", "HTTPPipelineTesting"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "PipelineBench",
            dependencies: ["HTTPPipeline"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HTTPPipelineTests",
            dependencies: ["HTTPPipeline", "HTTPPipelineTesting"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PipelineDemoTests",
            dependencies: ["PipelineDemo", "HTTPPipeline", "HTTPPipelineTesting"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HTTPPipelineTestingTests",
            dependencies: ["HTTPPipeline", "HTTPPipelineTesting"],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
