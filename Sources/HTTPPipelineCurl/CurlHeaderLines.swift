import HTTPPipeline

/// A request's header fields as libcurl's header lines, all in one block of bytes, each line
/// ended by a NUL: built and checked on the caller's task, copied whole by the engine thread into
/// its easy handle's own buffer (``CurlEasy``), so no line is a `String` or a `malloc` of its own.
// libcurl then formats each line into the request a byte at a time; what is left to this side
// is one copy.
struct CurlHeaderLines: Sendable {
    /// The lines, each ended by a NUL.
    let bytes: [UInt8]
    /// How many lines `bytes` holds.
    let count: Int

    /// The fields the transport frames itself, never taken from the request.
    private static let framingFields: Set<String> = ["content-length", "transfer-encoding"]

    /// - Throws: ``HTTPTransportError/invalidRequest(reason:)`` for a field that cannot be sent.
    init(_ fields: HTTPFields) throws(HTTPTransportError) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(fields.reduce(16) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count + 3 })
        var count = 0
        var hasAccept = false
        var hasExpect = false
        for field in fields {
            try field.checkSendable()
            // Only names as long as one of the four are lowercased (a string each) to compare.
            switch field.name.rawName.utf8.count {
            case 6:
                let lowered = field.name.canonicalName
                if lowered == "accept" { hasAccept = true }
                if lowered == "expect" { hasExpect = true }
            case 14, 17:
                if Self.framingFields.contains(field.name.canonicalName) { continue }
            default: break
            }
            bytes.append(contentsOf: field.name.rawName.utf8)
            if field.value.isEmpty {
                // "Name;" is libcurl's way to send a field with an empty value ("Name:" removes one).
                bytes.append(UInt8(ascii: ";"))
            } else {
                bytes.append(UInt8(ascii: ":"))
                bytes.append(UInt8(ascii: " "))
                bytes.append(contentsOf: field.value.utf8)
            }
            bytes.append(0)
            count += 1
        }
        // libcurl adds `Accept: */*` and, for large uploads, `Expect: 100-continue` on its own;
        // the transport sends only what the request holds.
        if !hasAccept {
            bytes.append(contentsOf: "Accept:".utf8)
            bytes.append(0)
            count += 1
        }
        if !hasExpect {
            bytes.append(contentsOf: "Expect:".utf8)
            bytes.append(0)
            count += 1
        }
        self.bytes = bytes
        self.count = count
    }
}
