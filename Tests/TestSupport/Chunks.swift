package import Foundation

/// `data` as a stream of chunks of at most `size` bytes, in order: a streamed body or upload.
///
/// - Parameters:
///   - data: The bytes.
///   - size: The most bytes a chunk holds.
/// - Returns: The chunks, then the end.
package func chunks(of data: Data, size: Int = 8_192) -> AsyncStream<Data> {
    AsyncStream { continuation in
        var offset = 0
        while offset < data.count {
            let end = min(offset + size, data.count)
            continuation.yield(data.subdata(in: offset..<end))
            offset = end
        }
        continuation.finish()
    }
}
