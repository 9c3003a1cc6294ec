import CHTTPPipelineCurl
import Foundation
import HTTPPipeline

/// libcurl's callbacks, called on the engine thread inside `curl_multi_perform` (or
/// `curl_easy_pause`); the user data is the ``CurlEasy`` of the transfer, unretained (the event
/// loop holds it for as long as it is in the multi handle).
enum CurlCallbacks {
    static let header: curl_write_callback = { bytes, size, count, user in
        let length = size * count
        guard let bytes, let user else { return length }
        let easy = Unmanaged<CurlEasy>.fromOpaque(user).takeUnretainedValue()
        easy.headerLine(UnsafeRawBufferPointer(start: bytes, count: length))
        return length
    }

    static let write: curl_write_callback = { bytes, size, count, user in
        let length = size * count
        guard let bytes, let user else { return length }
        let easy = Unmanaged<CurlEasy>.fromOpaque(user).takeUnretainedValue()
        return easy.body(UnsafeRawPointer(bytes), count: length) ? length : Int(CHTTPPipelineCurl_WRITEFUNC_PAUSE)
    }

    static let read: curl_read_callback = { buffer, size, count, user in
        guard let buffer, let user else { return Int(CHTTPPipelineCurl_READFUNC_ABORT) }
        let easy = Unmanaged<CurlEasy>.fromOpaque(user).takeUnretainedValue()
        return easy.read(into: UnsafeMutableRawPointer(buffer), count: size * count)
    }

    /// Called when a connection is ready for the request, before a byte of it is sent: again
    /// when libcurl sends the request once more because the kept-alive connection it used died
    /// before any answer, which a request that may not be resent refuses.
    static let prerequest: curl_prereq_callback = { user, _, _, _, _ in
        guard let user else { return Int32(CHTTPPipelineCurl_PREREQFUNC_OK) }
        let easy = Unmanaged<CurlEasy>.fromOpaque(user).takeUnretainedValue()
        return easy.mayStartRequest()
            ? Int32(CHTTPPipelineCurl_PREREQFUNC_OK) : Int32(CHTTPPipelineCurl_PREREQFUNC_ABORT)
    }

    static let seek: curl_seek_callback = { user, offset, origin in
        guard let user, origin == SEEK_SET else { return Int32(CHTTPPipelineCurl_SEEKFUNC_CANTSEEK) }
        let easy = Unmanaged<CurlEasy>.fromOpaque(user).takeUnretainedValue()
        return easy.seek(to: Int(offset))
            ? Int32(CHTTPPipelineCurl_SEEKFUNC_OK) : Int32(CHTTPPipelineCurl_SEEKFUNC_CANTSEEK)
    }
}

extension CurlEasy {
    /// One line of the head, its CR LF included: a status line, a field, or the blank line that
    /// ends the head. A 1xx interim head is dropped; trailers after the body are ignored.
    func headerLine(_ line: UnsafeRawBufferPointer) {
        guard mode == .head else { return }
        var end = line.count
        while end > 0, line[end - 1] == 10 || line[end - 1] == 13 { end -= 1 }
        let text = UnsafeRawBufferPointer(rebasing: line[..<end])
        if text.isEmpty {
            guard status != 0 else { return }
            if (100..<200).contains(status) && status != 101 {
                status = 0
                fields.removeAll(keepingCapacity: true)
                return
            }
            headEnded()
        } else if text.starts(with: "HTTP/".utf8) {
            status = Self.status(of: text)
            fields.removeAll(keepingCapacity: true)
        } else if text[0] == 32 || text[0] == 9, !fields.isEmpty {
            // An obsolete folded line continues the field before it.
            fields[fields.endIndex - 1].value +=
                " " + Self.text(text, ascii: Self.isASCII(text)).trimmingCharacters(in: .whitespaces)
        } else if let colon = text.firstIndex(of: 58) {
            let ascii = Self.isASCII(text)
            let name = Self.text(UnsafeRawBufferPointer(rebasing: text[..<colon]), ascii: ascii)
            var start = colon + 1
            var stop = text.count
            while start < stop, text[start] == 32 || text[start] == 9 { start += 1 }
            while stop > start, text[stop - 1] == 32 || text[stop - 1] == 9 { stop -= 1 }
            let value = Self.text(UnsafeRawBufferPointer(rebasing: text[start..<stop]), ascii: ascii)
            fields.append(HTTPField(name: name, value: value))
        }
    }

    /// Head bytes as text: UTF-8 when they are, else ISO-8859-1, as RFC 9110 reads the `obs-text`
    /// of older servers; every byte is kept, none replaced by U+FFFD. `ascii` says the line they
    /// come from is ASCII (nearly every line): then they are taken as they are.
    @inline(__always)
    static func text(_ bytes: UnsafeRawBufferPointer, ascii: Bool) -> String {
        if ascii { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: bytes, as: UTF8.self)
            ?? String(String.UnicodeScalarView(bytes.map(Unicode.Scalar.init)))
    }

    /// Whether every byte is below 0x80, checked eight at a time.
    static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var high: UInt64 = 0
        var index = 0
        while index + 8 <= bytes.count {
            high |= bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index += 8
        }
        var tail: UInt8 = 0
        while index < bytes.count {
            tail |= bytes[index]
            index += 1
        }
        return high & 0x8080_8080_8080_8080 == 0 && tail < 0x80
    }

    /// The status code of `HTTP/1.1 200 OK` or `HTTP/2 200`.
    private static func status(of line: UnsafeRawBufferPointer) -> Int {
        guard let space = line.firstIndex(of: 32), space + 3 < line.count else { return 0 }
        var code = 0
        for index in space + 1...space + 3 {
            let digit = Int(line[index]) - 48
            guard (0...9).contains(digit) else { return 0 }
            code = code * 10 + digit
        }
        return code
    }

    /// The head ended: a short (or absent) body is gathered here, a long one streams.
    private func headEnded() {
        guard let transfer else { return }
        let head = HTTPResponseHead(status: .init(code: status), fields: HTTPFields(fields))
        self.head = head
        let length = head.fields["Content-Length"].flatMap { Int($0) }
        progress.expectedReceivedBytes = length.map(Int64.init)
        let bodiless = transfer.request.method == .head || status == 204 || status == 304
        if bodiless || (length.map { $0 <= transfer.request.bufferingLimit } ?? false) {
            mode = .buffered
            if let length, !bodiless { buffer.reserveCapacity(length) }
        } else {
            mode = .streaming
            transfer.deliver(.streaming(head))
        }
        report()
    }

    /// Body bytes: kept, or handed on; `false` pauses the transfer.
    func body(_ bytes: UnsafeRawPointer, count: Int) -> Bool {
        guard let transfer else { return true }
        switch mode {
        case .head, .buffered:
            if buffer.count + count > transfer.request.bufferingLimit {
                // More than the head announced: what came so far goes first, the rest streams.
                mode = .streaming
                transfer.deliver(.streaming(head ?? HTTPResponseHead(status: .init(code: status))))
                if !buffer.isEmpty {
                    _ = buffer.withUnsafeBytes { transfer.offer($0.baseAddress ?? bytes, count: $0.count) }
                    buffer = Data()
                }
                return body(bytes, count: count)
            }
            buffer.append(bytes.assumingMemoryBound(to: UInt8.self), count: count)
        case .streaming:
            if case .pause = transfer.offer(bytes, count: count) {
                receivePaused = true
                return false
            }
        }
        progress.receivedBytes += Int64(count)
        report()
        return true
    }

    /// Request body bytes for libcurl: the number copied, `0` at the end, or pause / abort.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        guard let request = transfer?.request else { return Int(CHTTPPipelineCurl_READFUNC_ABORT) }
        var copied = 0
        switch request.body {
        case .none: return 0
        case .buffered(let data):
            copied = min(count, data.count - uploaded)
            let start = data.startIndex + uploaded
            data.copyBytes(
                to: UnsafeMutableRawBufferPointer(start: buffer, count: copied), from: start..<start + copied)
        case .stream:
            guard let upload = transfer?.upload else { return Int(CHTTPPipelineCurl_READFUNC_ABORT) }
            switch upload.read(into: buffer, count: count) {
            case .bytes(let count): copied = count
            case .pause:
                sendPaused = true
                return Int(CHTTPPipelineCurl_READFUNC_PAUSE)
            case .abort: return Int(CHTTPPipelineCurl_READFUNC_ABORT)
            }
        }
        uploaded += copied
        progress.sentBytes = Int64(uploaded)
        if copied > 0 { report() }
        return copied
    }

    /// Rewinds a buffered body (libcurl resends it on a new connection); a stream cannot.
    func seek(to offset: Int) -> Bool {
        guard case .buffered(let data)? = transfer?.request.body, (0...data.count).contains(offset) else {
            return false
        }
        uploaded = offset
        return true
    }

    private func report() {
        transfer?.request.progress?(progress)
    }
}
