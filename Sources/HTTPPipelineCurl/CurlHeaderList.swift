import CHTTPPipelineCurl

/// The `curl_slist` an easy handle hands libcurl for `CURLOPT_HTTPHEADER`, over a copy of the
/// transfer's ``CurlHeaderLines``: one buffer of bytes and one array of nodes, both grown when a
/// request needs more and reused from one transfer to the next (no `curl_slist_append`, which
/// allocates a node and a copy of each line). Engine thread only, owned by one ``CurlEasy``.
///
/// libcurl reads the list while the transfer runs and keeps no pointer into it afterwards, so
/// the next transfer may overwrite it once the handle was reset.
struct CurlHeaderList: ~Copyable {
    private var bytes: UnsafeMutablePointer<CChar>?
    private var byteCapacity = 0
    private var nodes: UnsafeMutablePointer<curl_slist>?
    private var nodeCapacity = 0

    init() {}

    /// The list for `lines`, valid until the next call or ``deallocate()``; `nil` when there is
    /// no line.
    mutating func link(_ lines: CurlHeaderLines) -> UnsafeMutablePointer<curl_slist>? {
        guard lines.count > 0 else { return nil }
        if byteCapacity < lines.bytes.count {
            bytes?.deallocate()
            byteCapacity = max(lines.bytes.count, 256)
            bytes = .allocate(capacity: byteCapacity)
        }
        if nodeCapacity < lines.count {
            nodes?.deallocate()
            nodeCapacity = max(lines.count, 8)
            nodes = .allocate(capacity: nodeCapacity)
        }
        guard let bytes, let nodes else { return nil }
        lines.bytes.withUnsafeBufferPointer { source in
            source.withMemoryRebound(to: CChar.self) { source in
                if let base = source.baseAddress { bytes.update(from: base, count: source.count) }
            }
        }
        // Each line starts after the NUL that ends the one before.
        var start = 0
        for index in 0..<lines.count {
            var end = start
            while bytes[end] != 0 { end += 1 }
            let next = index + 1 < lines.count ? nodes + index + 1 : nil
            (nodes + index).initialize(to: curl_slist(data: bytes + start, next: next))
            start = end + 1
        }
        return nodes
    }

    /// Frees both buffers; the list must not be in use.
    mutating func deallocate() {
        bytes?.deallocate()
        nodes?.deallocate()
        bytes = nil
        nodes = nil
        byteCapacity = 0
        nodeCapacity = 0
    }
}
