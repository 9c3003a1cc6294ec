import Foundation
import HTTPPipeline
import HTTPPipelineLogging
import HTTPPipelineTesting
import Testing

@Suite struct StandardErrorLogSinkTests {
    @Test func writesEachFormattedRecordAsWholeLinesToStandardError() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("stderr-\(UUID().uuidString).log")
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        defer { try? FileManager.default.removeItem(at: file) }
        let handle = try FileHandle(forWritingTo: file)
        let saved = dup(2)
        dup2(handle.fileDescriptor, 2)
        let pipeline = Pipeline(transport: ScriptedTransport([.ok("a"), .status(404)])) {
            LoggingMiddleware(level: .headers, sink: StandardErrorLogSink())
        }
        var request = HTTPRequest(
            url: URL(string: "https://api.example.invalid/x?access_token=tok-SECRET-11") ?? URL(fileURLWithPath: "/"))
        request.fields["Authorization"] = "Bearer tok-SECRET-12"
        _ = try? await pipeline.send(request)
        _ = try? await pipeline.send(request)
        dup2(saved, 2)
        close(saved)
        try handle.close()
        let written = try String(contentsOf: file, encoding: .utf8)
        let summaries = written.split(separator: "\n").filter {
            $0.hasPrefix("GET https://api.example.invalid/x?access_token=<redacted>")
        }
        #expect(summaries.count == 2)
        #expect(written.contains("-> 200") && written.contains("-> 404"))
        #expect(written.contains("  > Authorization: <redacted>"))
        #expect(!written.contains("tok-SECRET"))
    }
}
