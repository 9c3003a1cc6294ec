import Foundation
import HTTPPipeline

/// A streamed request body written to a temporary file, for `URLSession` to upload from: the
/// stream is read once, chunk by chunk, and never held in memory whole.
struct RequestSpool {
    let file: URL

    /// Reads `body` into a new file in `directory`.
    ///
    /// - Throws: What reading the body threw (`HTTPBodyError.alreadyConsumed` for a single-pass
    ///   body read before), or a file error; the file is removed either way.
    init(_ body: HTTPBody, in directory: URL) async throws {
        let file = directory.appendingPathComponent("http-pipeline-upload-\(UUID().uuidString)")
        // Readable by this user only: the bytes of a request body are the caller's business.
        guard FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600])
        else {
            throw CocoaError(.fileWriteUnknown)
        }
        do {
            let handle = try FileHandle(forWritingTo: file)
            defer { try? handle.close() }
            for try await chunk in body {
                try handle.write(contentsOf: chunk)
            }
        } catch {
            try? FileManager.default.removeItem(at: file)
            throw error
        }
        self.file = file
    }

    func remove() {
        try? FileManager.default.removeItem(at: file)
    }
}
