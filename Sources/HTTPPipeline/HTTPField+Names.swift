extension HTTPField.Name {
    /// `Accept`.
    public static let accept = Self(unchecked: "Accept")
    /// `Accept-Encoding`.
    public static let acceptEncoding = Self(unchecked: "Accept-Encoding")
    /// `Accept-Language`.
    public static let acceptLanguage = Self(unchecked: "Accept-Language")
    /// `Age`.
    public static let age = Self(unchecked: "Age")
    /// `Authorization`.
    public static let authorization = Self(unchecked: "Authorization")
    /// `Cache-Control`.
    public static let cacheControl = Self(unchecked: "Cache-Control")
    /// `Connection`.
    public static let connection = Self(unchecked: "Connection")
    /// `Content-Encoding`.
    public static let contentEncoding = Self(unchecked: "Content-Encoding")
    /// `Content-Length`.
    public static let contentLength = Self(unchecked: "Content-Length")
    /// `Content-Range`.
    public static let contentRange = Self(unchecked: "Content-Range")
    /// `Content-Type`.
    public static let contentType = Self(unchecked: "Content-Type")
    /// `Cookie`.
    public static let cookie = Self(unchecked: "Cookie")
    /// `Date`.
    public static let date = Self(unchecked: "Date")
    /// `ETag`.
    public static let eTag = Self(unchecked: "ETag")
    /// `Expires`.
    public static let expires = Self(unchecked: "Expires")
    /// `Host`.
    public static let host = Self(unchecked: "Host")
    /// `If-Match`.
    public static let ifMatch = Self(unchecked: "If-Match")
    /// `If-Modified-Since`.
    public static let ifModifiedSince = Self(unchecked: "If-Modified-Since")
    /// `If-None-Match`.
    public static let ifNoneMatch = Self(unchecked: "If-None-Match")
    /// `Last-Modified`.
    public static let lastModified = Self(unchecked: "Last-Modified")
    /// `Location`.
    public static let location = Self(unchecked: "Location")
    /// `Pragma`.
    public static let pragma = Self(unchecked: "Pragma")
    /// `Proxy-Authorization`.
    public static let proxyAuthorization = Self(unchecked: "Proxy-Authorization")
    /// `Range`.
    public static let range = Self(unchecked: "Range")
    /// `Retry-After`.
    public static let retryAfter = Self(unchecked: "Retry-After")
    /// `Set-Cookie`: never joined into one value (``HTTPFields`` reads it with `fields[values:]`).
    public static let setCookie = Self(unchecked: "Set-Cookie")
    /// `Transfer-Encoding`.
    public static let transferEncoding = Self(unchecked: "Transfer-Encoding")
    /// `User-Agent`.
    public static let userAgent = Self(unchecked: "User-Agent")
    /// `Vary`.
    public static let vary = Self(unchecked: "Vary")
    /// `WWW-Authenticate`.
    public static let wwwAuthenticate = Self(unchecked: "WWW-Authenticate")
}
