/// Which redirects ``RedirectMiddleware`` follows, and what a hop to another origin keeps.
///
/// ```swift
/// var policy = RedirectPolicy.default                 // 10 hops, https → http refused
/// policy.maximumHops = 3
/// policy.strippedAcrossOrigins = ["X-Partner"]         // dropped with every credential field
/// let redirects = RedirectMiddleware(policy: policy)
/// ```
public struct RedirectPolicy: Sendable, Equatable {
    /// The fields a hop to another origin always drops: the caller's credentials and cookies.
    public static let credentialFields = ["Authorization", "Proxy-Authorization", "Cookie"]

    /// The most redirects one call follows; one more fails with
    /// ``RedirectError/tooManyRedirects(limit:)``. Zero or more; 10 by default.
    public var maximumHops: Int {
        didSet { maximumHops = max(maximumHops, 0) }
    }
    /// Whether a redirect from `https` to `http` is followed. `false` by default: it fails with
    /// ``RedirectError/insecureRedirect(from:to:)``, since the next request would go out in clear
    /// text.
    public var allowsInsecureRedirects: Bool
    /// Header fields a hop to another origin drops besides ``credentialFields`` (an API key of
    /// your own, say); names in any case. None by default.
    public var strippedAcrossOrigins: [String]

    /// At most 10 hops, `https` → `http` refused, only the credential fields dropped across origins.
    public static let `default` = RedirectPolicy()

    /// Creates a policy; every parameter has the default described on ``default``.
    ///
    /// - Parameters:
    ///   - maximumHops: The most redirects one call follows; a negative value counts as zero.
    ///   - allowsInsecureRedirects: Whether `https` → `http` is followed.
    ///   - strippedAcrossOrigins: More fields a hop to another origin drops.
    public init(maximumHops: Int = 10, allowsInsecureRedirects: Bool = false, strippedAcrossOrigins: [String] = []) {
        self.maximumHops = max(maximumHops, 0)
        self.allowsInsecureRedirects = allowsInsecureRedirects
        self.strippedAcrossOrigins = strippedAcrossOrigins
    }

    /// Every field a hop to another origin drops.
    var fieldsDroppedAcrossOrigins: [String] { Self.credentialFields + strippedAcrossOrigins }
}
