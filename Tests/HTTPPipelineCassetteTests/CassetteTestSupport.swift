import Foundation
import HTTPPipeline
import HTTPPipelineCassette
import HTTPPipelineTesting

/// A URL from a literal written in a test.
func testURL(_ text: String) -> URL {
    guard let url = URL(string: text) else { preconditionFailure("not a URL: \(text)") }
    return url
}

/// A cassette recorded from scripted exchanges: each request answered by `reply`.
func recordedCassette(
    _ requests: [HTTPRequest],
    reply: @escaping @Sendable (HTTPRequest) -> ScriptedTransport.Reply = { _ in .ok("ok") }
) async throws -> Cassette {
    let cassette = Cassette()
    let recorder = RecordingTransport(over: ScriptedTransport { reply($0) }, into: cassette)
    for request in requests { _ = try await recorder.send(request) }
    return cassette
}

/// The text of a cassette's HAR file.
func harText(_ cassette: Cassette) throws -> String {
    String(decoding: try cassette.harData(), as: UTF8.self)
}

/// A temporary file path, unique per call.
func temporaryFile(_ name: String) -> URL {
    FileManager.default.temporaryDirectory
        .appending(path: "cassette-tests-\(UUID().uuidString)")
        .appending(path: name)
}

/// Replies `1`, `2`, `3`, … in the order requests arrive: which recorded answer a replay served.
func numberedReplies() -> @Sendable (HTTPRequest) -> ScriptedTransport.Reply {
    let counter = Locked(0)
    return { _ in
        let number = counter.withLock { count in
            count += 1
            return count
        }
        return .ok("\(number)")
    }
}
