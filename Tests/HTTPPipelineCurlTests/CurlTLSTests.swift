import Foundation
import HTTPPipeline
import HTTPPipelineCurl
import HTTPPipelineTesting
import Testing

/// `openssl s_server` on loopback with a certificate made for the test (`openssl req -x509`,
/// valid for 127.0.0.1): signed by nobody the system trusts.
private final class SelfSignedServer: Sendable {
    let port: Int
    let certificate: URL
    private let directory: URL
    private let process: Process

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("curl-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        certificate = directory.appendingPathComponent("cert.pem")
        let key = directory.appendingPathComponent("key.pem")
        try Tool.run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key.path, "-out", certificate.path,
            ])
        // A port that was free a moment ago: the loopback server's, stopped.
        let probe = try LoopbackServer.started()
        port = probe.port
        probe.stop()
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = [
            "s_server", "-accept", "127.0.0.1:\(port)", "-cert", certificate.path, "-key", key.path, "-www", "-quiet",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    var url: URL {
        // A scheme, an IPv4 literal and a decimal port always make a valid URL.
        URL(string: "https://127.0.0.1:\(port)/")!
    }

    func stop() {
        // SIGKILL: the child inherits the test runner's blocked signals, SIGTERM among them.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }
}

@Suite("CurlTransport TLS", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")))
struct CurlTLSTests {
    @Test func aSelfSignedCertificateIsRefusedWithTheTLSCategoryAndAcceptedWhenItsAuthorityIsGiven() async throws {
        let server = try SelfSignedServer()
        defer { server.stop() }
        let request = HTTPRequest(url: server.url)
        // Until s_server listens, the connection is refused.
        var refusal: CurlTransportError?
        for _ in 0..<500 {
            do {
                _ = try await CurlTransport(configuration: .default).send(request)
                break
            } catch let error as CurlTransportError where error.category == .connectionRefused {
                try await Task.sleep(for: .milliseconds(20))
            } catch let error as CurlTransportError {
                refusal = error
                break
            }
        }
        let error = try #require(refusal)
        #expect(error.category == .tls)
        #expect(error.isTransient == false)
        var trusting = CurlTransport.Configuration.default
        trusting.certificateAuthorities = server.certificate.path
        let response = try await CurlTransport(configuration: trusting).send(request)
        #expect(response.status == 200)
    }
}
