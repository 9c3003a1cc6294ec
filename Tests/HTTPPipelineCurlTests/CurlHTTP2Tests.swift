import Foundation
import HTTPPipeline
import HTTPPipelineCurl
import HTTPPipelineTesting
import TestSupport
import Testing

/// nginx (Debian's, built with `http_v2`) on loopback over TLS with a certificate made for the
/// test, logging each request's protocol and connection number.
private final class HTTP2Server: Sendable {
    let port: Int
    let certificate: URL
    let log: URL
    private let directory: URL
    private let process: Process

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("curl-h2-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("html"), withIntermediateDirectories: true)
        certificate = directory.appendingPathComponent("cert.pem")
        log = directory.appendingPathComponent("access.log")
        let key = directory.appendingPathComponent("key.pem")
        try Tool.run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key.path, "-out", certificate.path,
            ])
        try Data("hello".utf8).write(to: directory.appendingPathComponent("html/hello.txt"))
        let probe = try LoopbackServer.started()
        port = probe.port
        probe.stop()
        let root = directory.path
        let user = getuid() == 0 ? "user root;" : ""
        let configuration = """
            \(user)
            daemon off;
            master_process off;
            worker_processes 1;
            pid \(root)/nginx.pid;
            error_log \(root)/error.log warn;
            events { worker_connections 64; }
            http {
                log_format proto '$server_protocol $connection';
                access_log \(log.path) proto;
                client_body_temp_path \(root)/tmp;
                proxy_temp_path \(root)/tmp;
                fastcgi_temp_path \(root)/tmp;
                uwsgi_temp_path \(root)/tmp;
                scgi_temp_path \(root)/tmp;
                server {
                    listen 127.0.0.1:\(port) ssl http2;
                    ssl_certificate \(certificate.path);
                    ssl_certificate_key \(key.path);
                    root \(root)/html;
                }
            }
            """
        let file = directory.appendingPathComponent("nginx.conf")
        try Data(configuration.utf8).write(to: file)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        process.arguments = ["-c", file.path, "-p", root]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    var url: URL {
        // A scheme, an IPv4 literal, a decimal port and a path always make a valid URL.
        URL(string: "https://127.0.0.1:\(port)/hello.txt")!
    }

    /// The access log's lines: `HTTP/2.0 1`.
    var lines: [String] {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    func stop() {
        // SIGKILL: the child inherits the test runner's blocked signals, SIGTERM among them.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }
}

@Suite(
    "CurlTransport HTTP/2",
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")))
struct CurlHTTP2Tests {
    @Test func concurrentRequestsOverTLSShareOneHTTP2Connection() async throws {
        let server = try HTTP2Server()
        defer { server.stop() }
        var configuration = CurlTransport.Configuration.default
        configuration.certificateAuthorities = server.certificate.path
        let transport = CurlTransport(configuration: configuration)
        let request = HTTPRequest(url: server.url)
        // Until nginx listens, the connection is refused.
        for _ in 0..<500 {
            do {
                _ = try await transport.send(request)
                break
            } catch let error as CurlTransportError where error.category == .connectionRefused {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        try await withThrowingTaskGroup(of: Data.self) { group in
            for _ in 0..<16 {
                group.addTask { try await transport.send(request).body.collect(upTo: 1 << 10) }
            }
            for try await body in group { #expect(body == Data("hello".utf8)) }
        }
        #expect(await eventually { server.lines.count == 17 })
        let lines = server.lines
        #expect(lines.allSatisfy { $0.hasPrefix("HTTP/2.0 ") }, "\(lines)")
        #expect(Set(lines.map { $0.split(separator: " ").last ?? "" }).count == 1, "one connection: \(lines)")
    }
}

/// Runs a tool to its end.
enum Tool {
    static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.executableLoad) }
    }
}
