import CHTTPPipelineCurl
import HTTPPipeline

extension CurlEasy {
    /// The finished transfer's metrics from libcurl's `CURLINFO_*` values: its timers (each from
    /// the transfer's start, in microseconds), sizes, connection and protocol. On a reused
    /// connection libcurl reports no name resolution, connect or handshake: those stay `nil`.
    func metrics() -> HTTPTransferMetrics {
        func offset(_ info: CURLINFO) -> Int64? {
            var value: curl_off_t = 0
            guard CHTTPPipelineCurl_getOffset(handle, info, &value) == CURLE_OK else { return nil }
            return Int64(value)
        }
        func long(_ info: CURLINFO) -> Int? {
            var value = 0
            guard CHTTPPipelineCurl_getLong(handle, info, &value) == CURLE_OK else { return nil }
            return value
        }
        func time(_ info: CURLINFO) -> Duration? {
            offset(info).flatMap { $0 > 0 ? .microseconds($0) : nil }
        }
        var metrics = HTTPTransferMetrics()
        let reused = long(CURLINFO_NUM_CONNECTS).map { $0 == 0 }
        metrics.reusedConnection = reused
        if reused == false {
            metrics.nameLookup = time(CURLINFO_NAMELOOKUP_TIME_T)
            metrics.connect = time(CURLINFO_CONNECT_TIME_T)
            metrics.secureConnect = time(CURLINFO_APPCONNECT_TIME_T)
        }
        metrics.requestStart = time(CURLINFO_PRETRANSFER_TIME_T)
        metrics.firstByte = time(CURLINFO_STARTTRANSFER_TIME_T)
        metrics.lastByte = time(CURLINFO_TOTAL_TIME_T)
        let requestHead = long(CURLINFO_REQUEST_SIZE).map(Int64.init)
        let uploaded = offset(CURLINFO_SIZE_UPLOAD_T)
        metrics.bytesSent = requestHead.map { $0 + (uploaded ?? 0) }
        metrics.headBytesReceived = long(CURLINFO_HEADER_SIZE).map(Int64.init)
        metrics.bodyBytesReceived = offset(CURLINFO_SIZE_DOWNLOAD_T)
        metrics.bodyBytesDecoded = metrics.bodyBytesReceived
        metrics.httpVersion = long(CURLINFO_HTTP_VERSION).flatMap { version in
            switch version {
            case Int(CURL_HTTP_VERSION_1_0): "HTTP/1.0"
            case Int(CURL_HTTP_VERSION_1_1): "HTTP/1.1"
            case Int(CURL_HTTP_VERSION_2_0): "HTTP/2"
            case Int(CURL_HTTP_VERSION_3): "HTTP/3"
            default: nil
            }
        }
        var address: UnsafePointer<CChar>?
        if CHTTPPipelineCurl_getString(handle, CURLINFO_PRIMARY_IP, &address) == CURLE_OK, let address,
            address.pointee != 0
        {
            metrics.remoteAddress = String(cString: address)
        }
        metrics.remotePort = long(CURLINFO_PRIMARY_PORT).flatMap { $0 > 0 ? $0 : nil }
        return metrics
    }
}
