import Foundation
import HTTPPipelineURLSession

/// The command line of pipeline-bench: which suites run, with which sizes.
struct Options {
    /// The suites `--suite` accepts, in the order `all` runs them (`standard` runs within `plugins`).
    static let suites = [
        "all", "chains", "logging", "plugins", "standard", "gzip", "soak", "e2e", "stream", "file", "replay",
        "resilience", "curl", "curl-floor", "cache", "cookies", "tracing",
    ]

    /// What `--help` prints.
    static let usage = """
        pipeline-bench: what the middleware chain and the plugins cost per request.
        Build it for release: swift run -c release pipeline-bench [options]

        Suites (--suite NAME; without it, all of them in this order):
          chains   no-op chains of 0, 1, 5 and 10 layers, builder and array forms, against closure folding
          logging  one exchange with and without LoggingMiddleware, at basic and at headers level
          plugins  retry, auth, a 30 s deadline and a concurrency limit with free slots on the
                   happy path against the pipeline without them; a 1,000-request auth storm; the standard stack on the happy path,
                   without and with a no-op at each of its insertion points; 100,000 calls
                   through a deadline, resident memory before and after
          standard the standard stack on the happy path alone, nothing inserted (for valgrind)
          gzip     the gzip plugin's decoder against a plain zlib loop: large and small bodies, speed and
                   peak memory; a streamed body inflated as its 16 KiB chunks arrive
          soak     the standard pipeline under injected faults, its invariants and memory checked
          e2e      requests per second over loopback sockets, the standard pipeline against bare
                   URLSessionTransport, and both over CurlTransport (its ratios to URLSession)
          curl     CurlTransport: a soak (--curl-requests, 10,000 by default) against --nginx
                   when given (else the loopback server) and a 1 GiB download over loopback,
                   each held to flat resident memory
          stream   a large gzip download (and a plain one) over loopback, read chunk by chunk: the
                   standard pipeline, logging at body level, against bare URLSessionTransport, and
                   the resident memory the pipeline's download adds
          file     1 GiB over loopback written to a file, CurlTransport against URLSessionTransport:
                   speed and the resident memory each adds (curl's held to 16 MB)
          replay   a 10,000-entry cassette replayed through the standard stack (requests per second),
                   and what recording adds: over loopback (a ratio, recording vs not, same run)
                   and per request in memory
          resilience hedging: 300 calls against a loopback server where every 20th request stalls
                   for 1 s, without and with a hedging layer (percentiles, extra requests); what a
                   hedging layer adds to a call that answers at once; the token storm over
                   loopback: 1,000 concurrent calls with a stale token, a 50 ms token endpoint,
                   through auth alone and with a concurrency limit of 8 above it (round trips
                   per call, wall time ratio)
          curl-floor CurlTransport against a C loop over libcurl's easy API, same requests, one
                   at a time (against --nginx when given, else the loopback server): CPU time and
                   voluntary context switches per request, by default and from a task preferring
                   the engine's executor (curl_cpu_ratio_to_c_loop, curl_context_switches_per_request);
                   the standard pipeline over it against the bare transport, without and with a
                   30 s deadline (standard_over_curl_ratio, standard_deadline_over_curl_ratio);
                   --curl-floor-requests per measurement (default 4000)
          cache    the HTTP cache: a fresh hit from the memory and the disk store against the
                   network round trip; 100 concurrent misses; 1 GiB into and out of a disk store
          cookies  the cookie jar: the Cookie field for a request with 3,000 cookies stored
                   (cookies_match_ns) against an empty jar; storing a Set-Cookie; the middleware's
                   cost per call
          tracing  W3C trace context and events: what TraceContextMiddleware.call() and .attempt()
                   add to a call (tracecontext_added_ns), and ObserverMiddleware.call(_:) and
                   .attempt() with a counting observer (observer_added_ns), against a no-op
                   layer in the same run

        Options:
          --suite NAME        one suite: \(suites.joined(separator: ", "))
          --json              one JSON object, a key per measurement, instead of the tables
          --rounds N          rounds per measurement, the median kept (default 5; e2e runs 3 × N)
          --iterations N      requests per round of a chain (logging and plugins send a tenth)
                              (default 200000)
          --only FAMILY       one family of chains: \(Family.allCases.map(\.rawValue).joined(separator: ", "))
          --layers N          one layer count of chains: \(layerCounts.map(String.init).joined(separator: ", "))
                              (with --only or --layers, only the chains suite runs unless --suite says
                              otherwise)
          --soak-requests N   requests the soak sends (default 100000)
          --e2e-requests N    requests per round of e2e (default 500)
          --curl-requests N   requests the curl soak sends (default 10000)
          --curl-floor-requests N  requests per measurement of the curl-floor suite (default 4000)
          --stream-mib N      decoded MiB each stream download carries (default 1024)
          --nginx URL         e2e against this nginx too, and the curl soak against it instead of
                              the loopback server (or NGINX_URL in the environment; an nginx
                              from Scripts/nginx-server.sh, which serves the soak's paths)
          --e2e-client NAME   e2e with one client only, sequential: bare, bare-headers (the three
                              fields the stack adds, already set), pipeline, curl, curl-headers,
                              curl-pipeline or curl-spin (curl with spinBeforeSleeping 100 µs)
                              against the loopback server (against --nginx when given, so the
                              process holds the client alone), or stack / bare-memory (the standard
                              pipeline over, or alone, a transport that converts to URLRequest and
                              answers from memory; stack-recording: the stack over a cassette
                              recording over it): what Scripts/callgrind-e2e.sh counts
          --e2e-ab A,B        two of those clients (or bare-one-field: bare sending Authorization
                              alone), sequential, in blocks of 20 requests taken in turn:
                              B's rate over A's; with --e2e-requests 8000 for a percent's precision
          --e2e-ab-block N    requests per turn of --e2e-ab (default 20; 2 shows each client
                              after the other one's requests, its code no longer warm)
          -h, --help          this text

        Examples:
          pipeline-bench --suite soak --soak-requests 100000
          pipeline-bench --only builder --layers 10 --iterations 100000 --rounds 1   one chain, for valgrind
        Every figure and the command that measures it: Documentation/Performance.md.
        """

    /// A command line that cannot run, and why.
    struct UsageError: Error {
        let message: String
    }

    var help = false
    var json = false
    var only: Family?
    var layers: Int?
    var iterations = 200_000
    var rounds = 5
    var suite = "all"
    var soakRequests = 100_000
    var curlRequests = 10_000
    var curlFloorRequests = 4_000
    var endToEndRequests = 500
    var streamMebibytes = 1_024
    var endToEndClient: String?
    var endToEndPair: (String, String)?
    var endToEndPairBlock = 20
    var nginx = ProcessInfo.processInfo.environment["NGINX_URL"].flatMap { URL(string: $0) }

    /// Reads the arguments (without the program's name).
    ///
    /// - Throws: ``UsageError`` for an unknown argument, a missing or malformed value, or an
    ///   unknown suite, family or layer count.
    init(_ arguments: [String]) throws(UsageError) {
        var rest = arguments.makeIterator()
        var suiteGiven = false
        func value(_ flag: String) throws(UsageError) -> String {
            guard let value = rest.next() else { throw UsageError(message: "\(flag) needs a value") }
            return value
        }
        func count(_ flag: String, from lowest: Int = 1) throws(UsageError) -> Int {
            let text = try value(flag)
            guard let number = Int(text), number >= lowest else {
                throw UsageError(message: "\(flag) needs a whole number from \(lowest), not \(text)")
            }
            return number
        }
        while let argument = rest.next() {
            switch argument {
            case "-h", "--help":
                help = true
                return
            case "--json": json = true
            case "--only":
                let name = try value(argument)
                guard let family = Family(rawValue: name) else {
                    throw UsageError(message: "unknown family \(name) for --only")
                }
                only = family
            case "--layers":
                let layers = try count(argument, from: 0)
                guard layerCounts.contains(layers) else {
                    throw UsageError(
                        message: "--layers is one of \(layerCounts.map(String.init).joined(separator: ", "))")
                }
                self.layers = layers
            case "--iterations": iterations = try count(argument)
            case "--rounds": rounds = try count(argument)
            case "--suite":
                suite = try value(argument)
                suiteGiven = true
            case "--soak-requests": soakRequests = try count(argument)
            case "--curl-requests": curlRequests = try count(argument)
            case "--curl-floor-requests": curlFloorRequests = try count(argument)
            case "--e2e-requests": endToEndRequests = try count(argument)
            case "--stream-mib": streamMebibytes = try count(argument)
            case "--e2e-client":
                let name = try value(argument)
                let clients = [
                    "bare", "bare-headers", "pipeline", "stack", "stack-recording", "bare-memory", "curl",
                    "curl-headers", "curl-pipeline", "curl-spin",
                ]
                guard clients.contains(name) else {
                    throw UsageError(
                        message:
                            "--e2e-client is one of \(clients.joined(separator: ", ")), not \(name)"
                    )
                }
                endToEndClient = name
            case "--e2e-ab":
                let names = try value(argument).split(separator: ",").map(String.init)
                guard names.count == 2, names.allSatisfy(EndToEndBench.pairable.contains) else {
                    throw UsageError(
                        message:
                            "--e2e-ab takes two of \(EndToEndBench.pairable.joined(separator: ", ")), comma-separated")
                }
                endToEndPair = (names[0], names[1])
            case "--e2e-ab-block": endToEndPairBlock = try count(argument)
            case "--nginx":
                let text = try value(argument)
                guard let url = URL(string: text) else { throw UsageError(message: "--nginx needs a URL, not \(text)") }
                nginx = url
            default:
                throw UsageError(message: "unknown argument \(argument)")
            }
        }
        // `curl-server` is the curl soak's server process, started by the bench itself.
        guard Self.suites.contains(suite) || suite == "curl-server" else {
            throw UsageError(message: "unknown suite \(suite); one of \(Self.suites.joined(separator: ", "))")
        }
        // One chain is what valgrind measures: the other suites would run too, and count.
        if !suiteGiven, only != nil || layers != nil {
            suite = "chains"
        }
    }
}
