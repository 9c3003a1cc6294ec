import Foundation
import HTTPPipeline
import HTTPPipelineLogging

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
    let body: Data
    let response: HTTPResponse

    init(_ entry: HAR.Entry, index: Int) throws(CassetteError) {
        let mark = Redaction.mark
        self.index = index
        method = entry.request.method
        url = entry.request.url
        parts = URLParts(Placeholders.normalized(entry.request.url, mark: mark))
        headers = entry.request.headers.map { ($0.name.lowercased(), Placeholders.normalized($0.value, mark: mark)) }
        let postData = entry.request.postData
        let requestBody = try HARDecoding.bytes(postData?.text, encoding: postData?.encoding, entry: index)
        body =
            postData?.encoding == "base64"
            ? requestBody : Data(Placeholders.normalized(postData?.text ?? "", mark: mark).utf8)
        let content = entry.response.content
        let responseBody = try HARDecoding.bytes(content.text, encoding: content.encoding, entry: index)
        var fields = HTTPFields(entry.response.headers.map { HTTPField(name: $0.name, value: $0.value) })
        if fields["Content-Length"] != nil { fields["Content-Length"] = String(responseBody.count) }
        response = HTTPResponse(status: entry.response.status, fields: fields, body: HTTPBody(responseBody))
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
            ? body.map { redactor.liveBody($0, contentType: request.fields["Content-Type"]) } ?? Data() : Data()
        self.redactor = redactor
    }

    /// The request as messages name it: method and redacted URL.
    var summary: String { "\(method) \(url)" }

    /// The values of a header, redacted, joined as one.
    func header(_ name: String) -> String? {
        let values = fields.values(named: name)
        guard !values.isEmpty else { return nil }
        return values.map { redactor.redaction.headerValue(name: name, value: $0) }.joined(separator: ", ")
    }
}
