extension HTTPResponse.Status {
    /// 100 Continue.
    public static let `continue` = HTTPResponse.Status(code: 100)
    /// 101 Switching Protocols.
    public static let switchingProtocols = HTTPResponse.Status(code: 101)
    /// 200 OK.
    public static let ok = HTTPResponse.Status(code: 200)
    /// 201 Created.
    public static let created = HTTPResponse.Status(code: 201)
    /// 202 Accepted.
    public static let accepted = HTTPResponse.Status(code: 202)
    /// 204 No Content.
    public static let noContent = HTTPResponse.Status(code: 204)
    /// 206 Partial Content.
    public static let partialContent = HTTPResponse.Status(code: 206)
    /// 301 Moved Permanently.
    public static let movedPermanently = HTTPResponse.Status(code: 301)
    /// 302 Found.
    public static let found = HTTPResponse.Status(code: 302)
    /// 303 See Other.
    public static let seeOther = HTTPResponse.Status(code: 303)
    /// 304 Not Modified.
    public static let notModified = HTTPResponse.Status(code: 304)
    /// 307 Temporary Redirect.
    public static let temporaryRedirect = HTTPResponse.Status(code: 307)
    /// 308 Permanent Redirect.
    public static let permanentRedirect = HTTPResponse.Status(code: 308)
    /// 400 Bad Request.
    public static let badRequest = HTTPResponse.Status(code: 400)
    /// 401 Unauthorized.
    public static let unauthorized = HTTPResponse.Status(code: 401)
    /// 403 Forbidden.
    public static let forbidden = HTTPResponse.Status(code: 403)
    /// 404 Not Found.
    public static let notFound = HTTPResponse.Status(code: 404)
    /// 405 Method Not Allowed.
    public static let methodNotAllowed = HTTPResponse.Status(code: 405)
    /// 408 Request Timeout.
    public static let requestTimeout = HTTPResponse.Status(code: 408)
    /// 409 Conflict.
    public static let conflict = HTTPResponse.Status(code: 409)
    /// 410 Gone.
    public static let gone = HTTPResponse.Status(code: 410)
    /// 412 Precondition Failed.
    public static let preconditionFailed = HTTPResponse.Status(code: 412)
    /// 413 Content Too Large.
    public static let contentTooLarge = HTTPResponse.Status(code: 413)
    /// 415 Unsupported Media Type.
    public static let unsupportedMediaType = HTTPResponse.Status(code: 415)
    /// 422 Unprocessable Content.
    public static let unprocessableContent = HTTPResponse.Status(code: 422)
    /// 425 Too Early.
    public static let tooEarly = HTTPResponse.Status(code: 425)
    /// 429 Too Many Requests.
    public static let tooManyRequests = HTTPResponse.Status(code: 429)
    /// 500 Internal Server Error.
    public static let internalServerError = HTTPResponse.Status(code: 500)
    /// 501 Not Implemented.
    public static let notImplemented = HTTPResponse.Status(code: 501)
    /// 502 Bad Gateway.
    public static let badGateway = HTTPResponse.Status(code: 502)
    /// 503 Service Unavailable.
    public static let serviceUnavailable = HTTPResponse.Status(code: 503)
    /// 504 Gateway Timeout.
    public static let gatewayTimeout = HTTPResponse.Status(code: 504)

    /// The standard reason phrase of a code (RFC 9110 §15), or empty for one without.
    static func standardPhrase(for code: Int) -> String {
        switch code {
        case 100: "Continue"
        case 101: "Switching Protocols"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 203: "Non-Authoritative Information"
        case 204: "No Content"
        case 205: "Reset Content"
        case 206: "Partial Content"
        case 300: "Multiple Choices"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 402: "Payment Required"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 407: "Proxy Authentication Required"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 416: "Range Not Satisfiable"
        case 417: "Expectation Failed"
        case 421: "Misdirected Request"
        case 422: "Unprocessable Content"
        case 425: "Too Early"
        case 426: "Upgrade Required"
        case 428: "Precondition Required"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: ""
        }
    }
}
