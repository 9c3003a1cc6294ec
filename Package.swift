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
        .library(name: "HTTPPipelineURLSession", targets: ["HTTPPipelineURLSession"]),
        .library(name: "HTTPPipelineTesting", targets: ["HTTPPipelineTesting"]),
        .library(name: "HTTPPipelineHeaders", targets: ["HTTPPipelineHeaders"]),
        .library(name: "HTTPPipelineLogging", targets: ["HTTPPipelineLogging"]),
        .library(name: "HTTPPipelineRedaction", targets: ["HTTPPipelineRedaction"]),
        .library(name: "HTTPPipelineZlib", targets: ["HTTPPipelineZlib"]),
        .library(name: "HTTPPipelineGzip", targets: ["HTTPPipelineGzip"]),
        .library(name: "HTTPPipelineRetry", targets: ["HTTPPipelineRetry"]),
        .library(name: "HTTPPipelineAuth", targets: ["HTTPPipelineAuth"]),
        .library(name: "HTTPPipelineRedirect", targets: ["HTTPPipelineRedirect"]),
        .library(name: "HTTPPipelineTimeout", targets: ["HTTPPipelineTimeout"]),
        .library(name: "HTTPPipelineConcurrencyLimit", targets: ["HTTPPipelineConcurrencyLimit"]),
        .library(name: "HTTPPipelineCircuitBreaker", targets: ["HTTPPipelineCircuitBreaker"]),
        .library(name: "HTTPPipelineHedging", targets: ["HTTPPipelineHedging"]),
        .library(name: "HTTPPipelineCache", targets: ["HTTPPipelineCache"]),
        .library(name: "HTTPPipelineCookies", targets: ["HTTPPipelineCookies"]),
        .library(name: "HTTPPipelineTracing", targets: ["HTTPPipelineTracing"]),
        .library(name: "HTTPPipelineEvents", targets: ["HTTPPipelineEvents"]),
        .library(name: "HTTPPipelineStandard", targets: ["HTTPPipelineStandard"]),
        .library(name: "HTTPPipelineAPI", targets: ["HTTPPipelineAPI"]),
        .library(name: "HTTPPipelineCassette", targets: ["HTTPPipelineCassette"]),
        .library(name: "HTTPPipelineCurl", targets: ["HTTPPipelineCurl"]),
    ],
    targets: [
        // Libraries a dependent may use: the core, the transports, the test kit, the standard stack, the
        // API layer, the cassettes and the mechanisms beneath them (Sources/), and one library per
        // plugin (Plugins/: ordinary library targets, not SwiftPM package plugins).
        .target(name: "HTTPPipeline", swiftSettings: swiftSettings),
        // The URL loading system's transport, beside the core so that the core never imports
        // FoundationNetworking (as swift-http-types keeps HTTPTypesFoundation apart).
        .target(
            name: "HTTPPipelineURLSession",
            dependencies: ["HTTPPipeline"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "HTTPPipelineTesting",
            dependencies: ["HTTPPipeline"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "HTTPPipelineHeaders",
            dependencies: ["HTTPPipeline"],
            path: "Plugins/HTTPPipelineHeaders",
            swiftSettings: swiftSettings
        ),
        // The redaction engine and the body tee, beneath the logging plugin and the cassettes.
        .target(
            name: "HTTPPipelineRedaction",
            dependencies: ["HTTPPipeline"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "HTTPPipelineLogging",
            dependencies: ["HTTPPipeline", "HTTPPipelineRedaction"],
            path: "Plugins/HTTPPipelineLogging",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "HTTPPipelineCurl",
            dependencies: ["HTTPPipeline", "CHTTPPipelineCurl"],
            swiftSettings: swiftSettings
        ),
        // The zlib codec (gzip and deflate, bounded), beneath the gzip plugin and the cassettes.
        .target(
            name: "HTTPPipelineZlib",
            dependencies: ["HTTPPipeline", "CHTTPPipelineZlib"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "HTTPPipelineGzip",
            dependencies: ["HTTPPipeline", "HTTPPipelineZlib"],
            path: "Plugins/HTTPPipelineGzip",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "HTTPPipelineRetry",
            dependencies: ["HTTPPipeline"],
            path: "Plugins/HTTPPipelineRetry",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "HTTPPipelineAuth",
            dependencies: ["HTTPPipeline"],
            path: "Plugins/HTTPPipelineAuth",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "HTTPPipelineRedirect",
            dependencies: ["HTTPPipeline", "HTTPPipelineRedaction"],
            path: "Plugins/HTTPPipelineRedirect",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "HTTPPipelineTimeout",
            dependencies: ["HTTPPipeline"],
            path: "Plugins/HTTPPipelineTimeout",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "HTTPPipelineConcurrencyLimit",
            dependencies: ["HTTPPipeline"],
            path: "Plugins/HTTPPipelineConcurrencyLimit",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "HTTPPipelineCircuitBreaker",
            dependencies: ["HTTPPipeline"],
            path: "Plugins/HTTPPipelineCircuitBreaker",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "HTTPPipelineHedging",
            dependencies: ["HTTPPipeline"],
            path: "Plugins/HTTPPipelineHedging",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "HTTPPipelineCache",
            dependencies: ["HTTPPipeline"],
            path: "Plugins/HTTPPipelineCache",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "HTTPPipelineCookies",
            dependencies: ["HTTPPipeline"],
            path: "Plugins/HTTPPipelineCookies",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "HTTPPipelineTracing",
            dependencies: ["HTTPPipeline"],
            path: "Plugins/HTTPPipelineTracing",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HTTPPipelineTracingTests",
            dependencies: [
                "HTTPPipelineTracing", "HTTPPipeline", "HTTPPipelineTesting", "HTTPPipelineRetry",
                "HTTPPipelineRedirect",
                "HTTPPipelineHedging",
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "HTTPPipelineEvents",
            dependencies: ["HTTPPipeline", "HTTPPipelineRedaction"],
            path: "Plugins/HTTPPipelineEvents",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HTTPPipelineEventsTests",
            dependencies: [
                "HTTPPipelineEvents", "HTTPPipeline", "HTTPPipelineTesting", "HTTPPipelineRetry",
                "HTTPPipelineRedirect", "HTTPPipelineAuth", "HTTPPipelineHedging", "HTTPPipelineCache",
                "HTTPPipelineConcurrencyLimit", "HTTPPipelineCircuitBreaker", "HTTPPipelineStandard",
                "HTTPPipelineCurl", "HTTPPipelineURLSession", "HTTPPipelineTimeout", "TestSupport",
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "HTTPPipelineStandard",
            dependencies: [
                "HTTPPipelineRedaction",
                "HTTPPipeline", "HTTPPipelineHeaders", "HTTPPipelineLogging", "HTTPPipelineAuth",
                "HTTPPipelineRetry", "HTTPPipelineGzip", "HTTPPipelineRedirect", "HTTPPipelineTimeout",
                "HTTPPipelineConcurrencyLimit", "HTTPPipelineCircuitBreaker", "HTTPPipelineHedging",
                "HTTPPipelineCache", "HTTPPipelineCookies", "HTTPPipelineEvents",
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "HTTPPipelineCassette",
            dependencies: ["HTTPPipeline", "HTTPPipelineRedaction", "HTTPPipelineZlib"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "HTTPPipelineAPI",
            dependencies: ["HTTPPipeline"],
            swiftSettings: swiftSettings
        ),
        // C libraries: zlib through its system library (pkg-config), libcurl declared here and bound at
        // run time from the installed runtime (no headers needed).
        .systemLibrary(
            name: "CHTTPPipelineZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        // libcurl's few entry points, bound at run time from the runtime the system already has
        // (no libcurl headers needed to build).
        .target(
            name: "CHTTPPipelineCurl",
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]
        ),
        // Not shipped: the demo and the library scenario (Examples/), the bench and the soak
        // (Benchmarks/), and the fuzzers. The two executables are no products: a dependent never
        // sees them, and this package runs them by target name (`swift run pipeline-demo`,
        // `swift run -c release pipeline-bench`; their modules are `pipeline_demo` and
        // `pipeline_bench`). The bench stays in this package because it measures package-level
        // mechanisms (the codec's buffer growth, the locks, the HAR model) no other package sees.
        // The fuzzers (Fuzz/): Scripts/fuzz.sh builds them with libFuzzer; built normally, each
        // replays the files named on its command line.
        .executableTarget(
            name: "pipeline-demo",
            dependencies: [
                "HTTPPipelineURLSession",
                "HTTPPipeline", "HTTPPipelineTesting", "HTTPPipelineHeaders", "HTTPPipelineLogging",
                "HTTPPipelineRetry",
                "HTTPPipelineAuth", "HTTPPipelineGzip", "HTTPPipelineStandard", "HTTPPipelineAPI",
                "LibraryFeatures", "LibraryFixtures",
                "HTTPPipelineRedirect", "HTTPPipelineTimeout", "HTTPPipelineConcurrencyLimit",
                "HTTPPipelineHedging", "HTTPPipelineCache", "HTTPPipelineCookies", "HTTPPipelineCurl",
                "HTTPPipelineEvents",
            ],
            path: "Examples/PipelineDemo",
            swiftSettings: swiftSettings
        ),
        // The C floor of the curl measurements: libcurl's easy API in a loop, bound at run time,
        // in a process of its own that pipeline-bench runs.
        .executableTarget(
            name: "curl-c-loop",
            path: "Benchmarks/CCurlLoop",
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]
        ),
        .executableTarget(
            name: "pipeline-bench",
            dependencies: [
                "curl-c-loop",
                "HTTPPipelineURLSession",
                "HTTPPipeline", "HTTPPipelineLogging", "HTTPPipelineGzip", "HTTPPipelineRetry", "HTTPPipelineAuth",
                "HTTPPipelineStandard", "HTTPPipelineTesting", "HTTPPipelineHeaders", "PipelineSoak",
                "HTTPPipelineTimeout", "HTTPPipelineCassette", "HTTPPipelineConcurrencyLimit",
                "HTTPPipelineHedging", "HTTPPipelineCurl", "HTTPPipelineCache", "HTTPPipelineCookies",
                "HTTPPipelineTracing", "HTTPPipelineEvents",
            ],
            path: "Benchmarks/PipelineBench",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PipelineSoak",
            dependencies: [
                "HTTPPipeline", "HTTPPipelineTesting", "HTTPPipelineStandard", "HTTPPipelineAuth", "HTTPPipelineRetry",
                "HTTPPipelineLogging", "HTTPPipelineGzip", "HTTPPipelineHeaders", "TestSupport",
            ],
            path: "Benchmarks/PipelineSoak",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "LibraryFeatures",
            dependencies: ["HTTPPipelineAPI", "HTTPPipeline"],
            path: "Examples/LibraryFeatures",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "LibraryFixtures",
            dependencies: ["HTTPPipelineURLSession", "HTTPPipeline", "HTTPPipelineAPI", "HTTPPipelineTesting"],
            path: "Examples/LibraryFixtures",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "FuzzChecks",
            dependencies: [
                "HTTPPipelineRedaction", "HTTPPipelineZlib", "HTTPPipelineRetry", "CHTTPPipelineZlib",
            ],
            path: "Fuzz/Checks",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "FuzzGzip",
            dependencies: ["FuzzChecks"],
            path: "Fuzz/FuzzGzip",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "FuzzRetryAfter",
            dependencies: ["FuzzChecks"],
            path: "Fuzz/FuzzRetryAfter",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "FuzzRedaction",
            dependencies: ["FuzzChecks"],
            path: "Fuzz/FuzzRedaction",
            swiftSettings: swiftSettings
        ),
        // Tests: one target per module, the cross-plugin ordering, interop and end-to-end suites, the
        // documentation's code blocks, and the plain targets they share.
        .testTarget(
            name: "HTTPPipelineCurlTests",
            dependencies: [
                "TestSupport", "HTTPPipelineCurl", "HTTPPipeline", "HTTPPipelineTesting", "HTTPPipelineLogging",
                "HTTPPipelineTimeout", "HTTPPipelineRetry", "HTTPPipelineConcurrencyLimit",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PipelineSoakTests",
            dependencies: ["PipelineSoak"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HTTPPipelineTests",
            dependencies: ["TestSupport", "HTTPPipelineURLSession", "HTTPPipeline", "HTTPPipelineTesting"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HTTPPipelineHeadersTests",
            dependencies: ["HTTPPipelineURLSession", "HTTPPipelineHeaders", "HTTPPipeline", "HTTPPipelineTesting"],
            swiftSettings: swiftSettings
        ),
        // Helpers every test target may share (waiting on another thread's progress, chunked
        // bodies): a plain target under Tests/, not a product.
        .target(
            name: "TestSupport",
            dependencies: ["HTTPPipeline", "HTTPPipelineTesting"],
            path: "Tests/TestSupport",
            swiftSettings: swiftSettings
        ),
        // The adversarial secrets corpus, shared by the tests of everything that redacts (logs,
        // cassettes): a plain target under Tests/, not a product.
        .target(
            name: "RedactionCorpus",
            dependencies: ["HTTPPipeline", "HTTPPipelineTesting"],
            path: "Tests/RedactionCorpus",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HTTPPipelineLoggingTests",
            dependencies: [
                "HTTPPipelineRedaction", "HTTPPipelineLogging", "HTTPPipeline", "HTTPPipelineTesting",
                "RedactionCorpus",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HTTPPipelineGzipTests",
            dependencies: [
                "TestSupport", "HTTPPipelineURLSession", "HTTPPipelineGzip", "HTTPPipeline", "HTTPPipelineTesting",
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HTTPPipelineRetryTests",
            dependencies: [
                "TestSupport", "HTTPPipelineURLSession", "HTTPPipelineRetry", "HTTPPipeline", "HTTPPipelineTesting",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HTTPPipelineTimeoutTests",
            dependencies: ["TestSupport", "HTTPPipelineTimeout", "HTTPPipeline", "HTTPPipelineTesting"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HTTPPipelineConcurrencyLimitTests",
            dependencies: ["TestSupport", "HTTPPipelineConcurrencyLimit", "HTTPPipeline", "HTTPPipelineTesting"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HTTPPipelineCircuitBreakerTests",
            dependencies: ["TestSupport", "HTTPPipelineCircuitBreaker", "HTTPPipeline", "HTTPPipelineTesting"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HTTPPipelineCookiesTests",
            dependencies: [
                "TestSupport", "HTTPPipelineCookies", "HTTPPipeline", "HTTPPipelineTesting", "HTTPPipelineCurl",
                "HTTPPipelineURLSession", "HTTPPipelineRedirect",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HTTPPipelineCacheTests",
            dependencies: [
                "TestSupport", "HTTPPipelineCache", "HTTPPipeline", "HTTPPipelineTesting", "HTTPPipelineCurl",
                "HTTPPipelineURLSession",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HTTPPipelineHedgingTests",
            dependencies: [
                "TestSupport", "HTTPPipelineURLSession", "HTTPPipelineHedging", "HTTPPipeline", "HTTPPipelineTesting",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HTTPPipelineAuthTests",
            dependencies: [
                "TestSupport", "HTTPPipelineURLSession", "HTTPPipelineAuth", "HTTPPipeline", "HTTPPipelineTesting",
                "HTTPPipelineCurl", "HTTPPipelineTimeout", "HTTPPipelineRetry",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HTTPPipelineRedirectTests",
            dependencies: [
                "HTTPPipelineURLSession", "HTTPPipelineRedirect", "HTTPPipeline", "HTTPPipelineTesting",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HTTPPipelineOrderingTests",
            dependencies: [
                "TestSupport", "HTTPPipelineRedaction",
                "HTTPPipelineURLSession",
                "HTTPPipeline", "HTTPPipelineTesting", "HTTPPipelineHeaders", "HTTPPipelineLogging",
                "HTTPPipelineAuth", "HTTPPipelineRetry", "HTTPPipelineGzip", "HTTPPipelineStandard",
                "HTTPPipelineRedirect", "HTTPPipelineTimeout", "HTTPPipelineConcurrencyLimit",
                "HTTPPipelineCircuitBreaker",
                "HTTPPipelineHedging", "HTTPPipelineCache", "HTTPPipelineCookies",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HTTPPipelineInteropTests",
            dependencies: [
                "HTTPPipelineRedaction",
                "HTTPPipelineURLSession",
                "HTTPPipeline", "HTTPPipelineTesting", "HTTPPipelineHeaders", "HTTPPipelineLogging",
                "HTTPPipelineAuth", "HTTPPipelineRetry", "HTTPPipelineGzip", "HTTPPipelineStandard",
                "HTTPPipelineRedirect", "HTTPPipelineTimeout", "HTTPPipelineCassette", "HTTPPipelineCache",
                "HTTPPipelineCurl", "HTTPPipelineCookies",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PipelineDemoTests",
            dependencies: [
                "HTTPPipelineURLSession",
                "pipeline-demo", "HTTPPipeline", "HTTPPipelineTesting", "HTTPPipelineAuth", "HTTPPipelineLogging",
                "HTTPPipelineHeaders", "HTTPPipelineRetry", "HTTPPipelineGzip",
                "HTTPPipelineRedirect", "HTTPPipelineTimeout",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HTTPPipelineCassetteTests",
            dependencies: [
                "HTTPPipelineRedaction",
                "HTTPPipelineURLSession",
                "HTTPPipelineCassette", "HTTPPipeline", "HTTPPipelineTesting", "HTTPPipelineLogging",
                "HTTPPipelineStandard", "HTTPPipelineGzip", "RedactionCorpus",
            ],
            exclude: ["Cassettes"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HTTPPipelineTestingTests",
            dependencies: ["TestSupport", "HTTPPipelineURLSession", "HTTPPipeline", "HTTPPipelineTesting"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HTTPPipelineAPITests",
            dependencies: ["HTTPPipelineURLSession", "HTTPPipelineAPI", "HTTPPipeline", "HTTPPipelineTesting"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "FuzzCorpusTests",
            dependencies: ["FuzzChecks"],
            swiftSettings: swiftSettings
        ),
        // Every Swift code block of the documentation, extracted by Scripts/extract-snippets.py into
        // Tests/DocSnippetsTests/Generated (compiled; the @Test functions they show run), and the
        // names those blocks use as context.
        .target(
            name: "DocSnippetsContext",
            dependencies: [
                "HTTPPipelineURLSession",
                "HTTPPipeline", "HTTPPipelineTesting", "HTTPPipelineLogging", "HTTPPipelineAuth", "HTTPPipelineAPI",
            ],
            path: "Tests/DocSnippetsContext",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "DocSnippetsTests",
            dependencies: [
                "HTTPPipelineRedaction",
                "HTTPPipelineURLSession",
                "DocSnippetsContext", "HTTPPipeline", "HTTPPipelineTesting", "HTTPPipelineHeaders",
                "HTTPPipelineLogging",
                "HTTPPipelineRetry", "HTTPPipelineAuth", "HTTPPipelineGzip", "HTTPPipelineStandard", "HTTPPipelineAPI",
                "LibraryFeatures",
                "HTTPPipelineRedirect", "HTTPPipelineTimeout", "HTTPPipelineCassette",
                "HTTPPipelineConcurrencyLimit", "HTTPPipelineCircuitBreaker",
                "HTTPPipelineHedging", "HTTPPipelineCurl", "HTTPPipelineCache", "HTTPPipelineCookies",
                "HTTPPipelineTracing", "HTTPPipelineEvents",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "LibraryFeaturesTests",
            dependencies: [
                "LibraryFeatures", "LibraryFixtures", "HTTPPipelineAPI", "HTTPPipeline", "HTTPPipelineTesting",
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
