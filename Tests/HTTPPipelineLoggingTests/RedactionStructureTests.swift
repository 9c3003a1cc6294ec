import Foundation
import HTTPPipelineLogging
import HTTPPipelineRedaction
import Testing

/// Secrets hidden by the structure around them: escaped JSON keys at any size, values on the
/// lines after their name, multipart form fields.
@Suite("Redaction by structure")
struct RedactionStructureTests {
    let redaction = Redaction.default

    func body(_ text: String, _ contentType: String?, limit: Int = 4096) -> String {
        redaction.body(Data(text.utf8), contentType: contentType, limit: limit)
    }

    @Test("A \\u-escaped secret key is redacted in JSON of any size", arguments: [200, 20_000, 300_000])
    func escapedKeysAtAnySize(size: Int) {
        let filler = String(repeating: "lorem ipsum ", count: size / 12)
        let json = #"{"p\u0061ssword":"Hunt3r-S3CRET","\u0074oken":"T0k3n-S3CRET","note":"\#(filler)"}"#
        for type in ["application/json", "application/problem+json", nil] {
            let shown = body(json, type)
            #expect(!shown.contains("S3CRET"), "\(size) bytes, \(type ?? "no type"): \(shown.prefix(200))")
            #expect(shown.contains("lorem ipsum"), "the rest is shown")
        }
    }

    @Test("An escaped credential in a JSON string is redacted")
    func escapedValueHidingAShape() {
        let shown = body(#"{"note":"gh\u0070_R7tQ2mXw9LpZ4vKc8NbJ3hYs6DfGa1EuT5oW","n":1}"#, "application/json")
        #expect(!shown.contains("Ys6DfGa1EuT5oW"), "\(shown)")
    }

    @Test("JSON keeps its layout and key order; only secret values change")
    func jsonLayoutIsKept() {
        let json = "{\n  \"z\": 1,\n  \"password\" : \"x\",\n  \"a\": [1, 2.50, {\"token\": {\"t\": [3]}}]\n}"
        let expected =
            "{\n  \"z\": 1,\n  \"password\" : \"<redacted>\",\n  \"a\": [1, 2.50, {\"token\": \"<redacted>\"}]\n}"
        #expect(body(json, "application/json") == expected)
    }

    @Test(
        "A value on the lines after its name, or in a YAML block, is redacted",
        arguments: [
            ("password:\n  hunter2\nuser: bob", "password:\n  <redacted>\nuser: bob"),
            ("password:\nhunter2\nuser: bob", "password:\n<redacted>\nuser: bob"),
            ("private_key: |\n  line-one\n  line-two\nname: x", "private_key: <redacted>\nname: x"),
            ("client_secret: >-\n  part one\n\n  part two\nname: x", "client_secret: <redacted>\nname: x"),
            ("Authorization: Bearer abc\n\tdef\nAccept: */*", "Authorization: <redacted>\nAccept: */*"),
            ("  secret:\n    s3cr3t-value\n  other: 1", "  secret:\n    <redacted>\n  other: 1"),
        ]
    )
    func multiLineValues(input: String, expected: String) {
        #expect(redaction.text(input) == expected)
        #expect(body(input, "application/yaml") == expected)
    }

    static let multipart = [
        "--XyZ", "Content-Disposition: form-data; name=\"title\"", "", "Holiday photos",
        "--XyZ", "Content-Disposition: form-data; name=\"password\"", "", "hunter2-S3CRET",
        "--XyZ", "Content-Disposition: form-data; name=\"note\"", "",
        "use ghp_R7tQ2mXw9LpZ4vKc8NbJ3hYs6DfGa1EuT5oW now",
        "--XyZ", "Content-Disposition: form-data; name=\"meta\"", "Content-Type: application/json", "",
        #"{"album":"Alps","api_key":"K3y-S3CRET"}"#,
        "--XyZ", "Content-Disposition: form-data; name=\"photo\"; filename=\"a.png\"", "Content-Type: image/png", "",
        "\u{1}PNG binary \u{0} bytes",
        "--XyZ--", "",
    ].joined(separator: "\r\n")

    @Test("Multipart form fields are shown with their secrets redacted, and files are summarised")
    func multipartFields() {
        let shown = body(Self.multipart, "multipart/form-data; boundary=XyZ")
        #expect(shown.contains("Holiday photos"), "\(shown)")
        #expect(shown.contains(#""album":"Alps""#), "\(shown)")
        #expect(!shown.contains("S3CRET") && !shown.contains("Ys6DfGa1EuT5oW"), "\(shown)")
        let file = "\u{1}PNG binary \u{0} bytes".utf8.count
        #expect(shown.contains("<binary part: \(file) bytes, image/png>"), "\(shown)")
        #expect(!shown.contains("binary \u{0} bytes"))
        let quoted = body(Self.multipart, #"multipart/form-data; boundary="XyZ""#)
        #expect(quoted == shown)
    }

    @Test("A multipart body without a boundary, or with another boundary, never shows a secret")
    func multipartWithoutItsBoundary() {
        #expect(
            body(Self.multipart, "multipart/form-data")
                == "<binary body: \(Self.multipart.utf8.count) bytes, multipart/form-data>")
        let wrong = body(Self.multipart, "multipart/form-data; boundary=Other")
        #expect(!wrong.contains("S3CRET") && !wrong.contains("binary \u{0} bytes"), "\(wrong)")
    }

    @Test("Parts hidden before the first delimiter or after the closing one never show their secrets")
    func textOutsideThePartsIsSummarised() {
        let hidden = ["--XyZ", "Content-Disposition: form-data; name=\"password\"", "", "Hunt3r-S3CRET"]
            .joined(separator: "\r\n")
        let preamble = "preamble " + hidden + "\r\n"
        let parts = ["--XyZ", "Content-Disposition: form-data; name=\"title\"", "", "Holiday photos", "--XyZ--"]
            .joined(separator: "\r\n")
        let epilogue = "\r\nepilogue\r\n" + hidden + "\r\n--XyZ--\r\n"
        let shown = body(preamble + parts + epilogue, "multipart/form-data; boundary=XyZ")
        #expect(!shown.contains("S3CRET"), "\(shown)")
        #expect(
            shown
                == "<\(preamble.utf8.count) bytes before the first delimiter>" + parts
                + "<\(epilogue.utf8.count) bytes after the closing delimiter>")
        let plain = body(parts + "\r\n", "multipart/form-data; boundary=XyZ")
        #expect(plain == parts + "\r\n", "line breaks alone around the parts are shown as they are")
    }

    @Test(
        "A value that opens a private key block takes the whole block",
        arguments: ["password:\n", "key: ", "secret=", "note:\n"])
    func valueOpeningAPrivateKeyBlock(name: String) {
        let pem = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7qZ3\nQ7XM2RZP4KVL\n-----END RSA PRIVATE KEY-----"
        let shown = redaction.text("\(name)\(pem)\nafter")
        #expect(!shown.contains("MIIEowIBAAKCAQEA7qZ3") && !shown.contains("Q7XM2RZP4KVL"), "\(shown)")
        #expect(shown.hasSuffix("\nafter"), "\(shown)")
    }
}
