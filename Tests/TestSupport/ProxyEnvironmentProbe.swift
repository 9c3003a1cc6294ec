package import Foundation
import HTTPPipelineTesting

/// Whether a transport sends requests through the proxy the environment names (`http_proxy` and
/// friends), checked in a child process: the variables are process-wide, and setting them here
/// would send every other test's requests to the probe.
///
/// The parent test starts a loopback server standing in for a proxy and runs one child test of
/// this test binary with every proxy variable pointing at it; the child sends one `GET` to a
/// host that does not resolve (`proxy-probe.invalid`) and leaves a marker file. A transport that
/// honours the variables hands that request to the stand-in; one that does not fails to resolve
/// the host.
package enum ProxyEnvironmentProbe {
    static let markerVariable = "PROXY_PROBE_MARKER"

    /// Whether this process is the probe's child.
    package static var isChild: Bool { ProcessInfo.processInfo.environment[markerVariable] != nil }

    /// What the child requests.
    package static let target = URL(string: "http://proxy-probe.invalid/probe") ?? URL(fileURLWithPath: "/")

    /// The child's last step: records that it ran and sent its request.
    package static func childSent() {
        guard let path = ProcessInfo.processInfo.environment[markerVariable] else { return }
        _ = FileManager.default.createFile(atPath: path, contents: Data("sent".utf8))
    }

    /// What the probe saw.
    package struct Outcome: Sendable {
        /// Whether the child ran and sent its request.
        package var childSent: Bool
        /// Requests the stand-in proxy received.
        package var proxied: Int
    }

    /// Runs the child test whose name contains `childTest` with the proxy variables set.
    package static func run(childTest: String) throws -> Outcome {
        let proxy = LoopbackServer()
        proxy.route("GET", "/probe", .init(status: 200, body: Data("proxied".utf8)))
        try proxy.start()
        defer { proxy.stop() }
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("proxy-probe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: marker) }
        var environment = ProcessInfo.processInfo.environment
        for name in ["no_proxy", "NO_PROXY"] { environment[name] = nil }
        for name in ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] {
            environment[name] = "http://127.0.0.1:\(proxy.port)"
        }
        environment[markerVariable] = marker.path
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = ["--testing-library", "swift-testing", "--filter", childTest]
        child.environment = environment
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()
        child.waitUntilExit()
        return Outcome(
            childSent: FileManager.default.fileExists(atPath: marker.path), proxied: proxy.requests.count)
    }
}
