import Foundation
import HTTPPipeline
import HTTPPipelineRedaction

/// One entry made ready to match and answer: its request as compared (placeholders written as
/// the plain mark) and its response, built once.
struct RecordedExchange: Sendable {
    /// The entry's index in the cassette.
    let index: Int
    let method: String
    /// The URL as recorded, for messages.
    let url: String
    let parts: URLParts
    /// Header names lowercased, values with the plain mark.
    let headers: [(name: String, value: String)]
    /// The numbers of the placeholders in each header's values as recorded, by lowercased name.
    let placeholderNumbers: [String: [Int]]
    let body: Data
    let reply: RecordedReply

    /// Reads an entry for matching. Its URL and header values go through `redaction` again, as a
    /// live request does: a file recorded by another tool (a browser's export) may hold real
    /// secrets, which then neither show in error messages nor fail to match a live request's
    /// mark; placeholders pass through unchanged.
    init(_ entry: HAR.Entry, index: Int, redaction: Redaction) throws(CassetteError) {
        let mark = Redaction.mark
        self.index = index
        method = entry.request.method
        url = Self.redactedURL(entry.request.url, redaction: redaction)
        parts = URLParts(url)
        headers = entry.request.headers.map { header in
            let value = redaction.headerValue(
                name: header.name, value: Placeholders.normalized(header.value, mark: mark))
            return (header.name.lowercased(), value)
        }
        placeholderNumbers = entry.request.headers.reduce(into: [:]) { numbers, header in
            numbers[header.name.lowercased(), default: []] += Placeholders.numbers(in: header.value)
        }
        let postData = entry.request.postData
        let requestBody = try HARDecoding.bytes(postData?.text, encoding: postData?.encoding, entry: index)
        body =
            postData?.encoding == "base64"
            ? requestBody : Data(Placeholders.normalized(postData?.text ?? "", mark: mark).utf8)
        let content = entry.response.content
        let responseBody = try HARDecoding.bytes(content.text, encoding: content.encoding, entry: index)
        reply = RecordedReply(entry, index: index, body: responseBody)
    }

    /// A recorded URL redacted by the same URL rules as a live one. Its placeholders stand in as
    /// a URL-safe word meanwhile: a mark (`<…>`) would make the engine read the URL as free text,
    /// whose rules end a path parameter's value at `;` rather than `/` (a recorded
    /// `/shop;token=<redacted-1>/cart` would lose `/cart` and never match again).
    static func redactedURL(_ recorded: String, redaction: Redaction) -> String {
        let standIn = "~redacted~"
        let text = Placeholders.normalized(recorded, mark: standIn)
        return redaction.urlString(text).replacingOccurrences(of: standIn, with: Redaction.mark)
    }

    /// The key entries are looked up by: method and path, with the origin unless ignored.
    static func key(method: String, parts: URLParts, origin: Bool) -> String {
        origin ? "\(method) \(parts.origin)\(parts.path)" : "\(method) \(parts.path)"
    }
}

/// A live request, redacted as a recording would be, with the plain mark.
struct LiveRequest: Sendable {
    let method: String
    let url: String
    let parts: URLParts
    let fields: HTTPFields
    let body: Data
    let redactor: CassetteRedactor

    init(_ request: HTTPRequest, body: Data?, redactor: CassetteRedactor, needsBody: Bool) {
        method = request.method.rawValue
        url = redactor.redaction.url(request.url)
        parts = URLParts(url)
        fields = request.fields
        self.body =
            needsBody
            ? body.map { data in
                let plain = Cassette.plain(data, fields: request.fields, limit: Int.max - 1)
                return redactor.liveBody(
                    plain.body, contentType: plain.fields["Content-Type"],
                    contentEncoding: plain.fields["Content-Encoding"])
            } ?? Data() : Data()
        self.redactor = redactor
    }

    /// The request as messages name it: method, origin and path, and only the names of its query
    /// items (their values are compared, and shown, item by item in the differences, where a
    /// value the recording redacted shows as the mark whatever this redaction says).
    var summary: String {
        let names = parts.queryItems.map(\.name)
        let query = names.isEmpty ? "" : "?" + names.map { "\($0)=…" }.joined(separator: "&")
        return "\(method) \(parts.origin)\(parts.path)\(query)"
    }

    /// The secrets a header's values hide, in order, as the redaction finds them; `nil` where
    /// they cannot be told apart from the text around them.
    func secrets(inHeader name: String) -> [String]? {
        var secrets: [String] = []
        for value in fields[values: HTTPField.Name(unchecked: name)] {
            let redacted = redactor.redaction.headerValue(name: name, value: value)
            guard let found = Placeholders.secrets(original: value, redacted: redacted, mark: Redaction.mark) else {
                return nil
            }
            secrets += found
        }
        return secrets
    }

    /// The values of a header, redacted, joined as one.
    func header(_ name: String) -> String? {
        let values = fields[values: HTTPField.Name(unchecked: name)]
        guard !values.isEmpty else { return nil }
        return values.map { redactor.redaction.headerValue(name: name, value: $0) }.joined(separator: ", ")
    }
}
