public import Foundation
public import HTTPPipelineRedaction

extension Cassette {
    /// Loads a cassette from a HAR 1.2 file.
    ///
    /// - Parameters:
    ///   - url: The file.
    ///   - redaction: What is hidden in live requests before they are compared with the
    ///     entries, and in entries recorded into it; the logs' default.
    /// - Throws: ``CassetteError/file(path:reason:)`` when it cannot be read, and what
    ///   ``init(data:redaction:)`` throws.
    public convenience init(contentsOf url: URL, redaction: Redaction = .default) throws(CassetteError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .file(path: url.path, reason: "\(error.localizedDescription)")
        }
        try self.init(data: data, redaction: redaction)
    }

    /// Loads a cassette from the bytes of a HAR 1.2 file.
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - redaction: As for ``init(contentsOf:redaction:)``.
    /// - Throws: ``CassetteError/malformed(entry:reason:)`` for bytes that are not JSON, are cut
    ///   short or lack a field HAR 1.2 requires, naming the entry where it went wrong;
    ///   ``CassetteError/badBase64(entry:)`` for a body marked base64 that is not.
    public convenience init(data: Data, redaction: Redaction = .default) throws(CassetteError) {
        let file = try HARDecoding.decode(data)
        for (index, entry) in file.log.entries.enumerated() {
            _ = try HARDecoding.bytes(
                entry.request.postData?.text, encoding: entry.request.postData?.encoding, entry: index)
            _ = try HARDecoding.bytes(
                entry.response.content.text, encoding: entry.response.content.encoding, entry: index)
        }
        self.init(entries: file.log.entries, redaction: redaction)
    }

    /// The cassette as a HAR 1.2 file: pretty-printed JSON, keys sorted.
    ///
    /// - Returns: The file's bytes.
    /// - Throws: ``CassetteError/malformed(entry:reason:)`` if an entry cannot be encoded (a
    ///   time that is not a finite number).
    public func harData() throws(CassetteError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(HAR.File(log: HAR.Log(entries: entries)))
        } catch {
            throw .malformed(entry: nil, reason: "cannot be encoded: \(error)")
        }
    }

    /// Writes the cassette as a HAR 1.2 file, atomically: to a temporary file beside it, then
    /// renamed over it (Foundation's `.atomic` write), so a reader never sees half a file. Missing
    /// folders are created.
    ///
    /// - Parameter url: The file.
    /// - Throws: ``CassetteError/file(path:reason:)`` when it cannot be written.
    public func write(to url: URL) throws(CassetteError) {
        let data = try harData()
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            try data.write(to: url, options: .atomic)
        } catch {
            throw .file(path: url.path, reason: "\(error.localizedDescription)")
        }
    }
}
