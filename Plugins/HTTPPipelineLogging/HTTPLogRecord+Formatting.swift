import HTTPPipeline

extension HTTPLogRecord {
    /// The record as text: one line at ``LogLevel/basic``; at higher levels the line followed by
    /// indented header (`>` sent, `<` received), error and body lines.
    ///
    /// Sinks call it; the middleware never formats, so a record nobody prints costs no formatting.
    public var formatted: String {
        ([summary] + detailLines).joined(separator: "\n")
    }

    /// The one-line summary: `GET https://host/path -> 200 (sent 0 B, received 12 B) in 3.1 ms`,
    /// then the attempt's phases when the transport told them (``phases``).
    public var summary: String {
        "\(method) \(url) -> \(outcomeSummary)"
    }

    /// The summary after the URL: outcome, byte counts, duration and attempt. It holds nothing
    /// from the request or response but their sizes, so ``OSLogSink`` logs it as public.
    var outcomeSummary: String {
        let result =
            switch outcome {
            case .response(let status): "\(status)"
            case .failure(let kind): "failed: \(kind)"
            case .bodyFailed(let status, let kind): "\(status), body failed: \(kind)"
            }
        let sent = requestBytes.map(Self.bytes) ?? "a stream"
        let received = responseBytes.map { ", received \(Self.bytes($0))" } ?? ""
        let attemptNote = attempt.map { ", attempt \($0)" } ?? ""
        return "\(result) (sent \(sent)\(received)) in \(Self.milliseconds(duration))\(attemptNote)\(phases)"
    }

    /// The attempt's phases the transport told, `[connect 0.4 ms, first byte 12.3 ms, reused,
    /// HTTP/1.1]`; empty when it told none. Times and the protocol only: nothing from the
    /// exchange itself, so it stays as public as the rest of the summary.
    public var phases: String {
        guard let metrics = transferMetrics else { return "" }
        var parts: [String] = []
        let times: [(String, Duration?)] = [
            ("lookup", metrics.nameLookup), ("connect", metrics.connect), ("TLS", metrics.secureConnect),
            ("first byte", metrics.firstByte),
        ]
        for (label, time) in times { if let time { parts.append("\(label) \(Self.milliseconds(time))") } }
        if metrics.reusedConnection == true { parts.append("reused") }
        if let version = metrics.httpVersion { parts.append(version) }
        return parts.isEmpty ? "" : " [" + parts.joined(separator: ", ") + "]"
    }

    /// The lines of ``formatted`` after the summary: headers, the error, bodies.
    var detailLines: [String] {
        var lines: [String] = []
        for field in requestHeaders { lines.append("  > \(field.name): \(field.value)") }
        for field in responseHeaders { lines.append("  < \(field.name): \(field.value)") }
        if let errorDescription { lines.append("  ! \(errorDescription)") }
        if let requestBody, !requestBody.isEmpty { lines.append("  > body: \(requestBody)") }
        if let responseBody, !responseBody.isEmpty { lines.append("  < body: \(responseBody)") }
        return lines
    }

    static func bytes(_ count: Int) -> String {
        "\(count) B"
    }

    /// `12.3 ms`: tenths of a millisecond, rounded, formatted with integer arithmetic
    /// (`String(format:)` costs over a microsecond per call on Linux).
    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let tenths = seconds * 10_000 + (attoseconds + 50_000_000_000_000) / 100_000_000_000_000
        return "\(tenths / 10).\(tenths % 10) ms"
    }
}
