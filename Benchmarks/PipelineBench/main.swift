import Dispatch
import Foundation
import HTTPPipeline

// pipeline-bench: the per-request cost of the middleware chain and the plugins. `--help` lists
// the suites and flags (Options.swift).
//
// `main` is synchronous and waits for the async work: valgrind 3.19 crashes on an async main.

func makeTransport() -> InMemoryTransport {
    InMemoryTransport(response: HTTPResponse(status: 200, body: HTTPBody(Data("ok".utf8))))
}

func chain(_ family: Family, _ layers: Int, _ transport: InMemoryTransport) -> any HTTPTransport {
    switch family {
    case .builder: builderChain(layers, over: transport)
    case .array: Pipeline(transport: transport, middleware: Array(repeating: NoOp(), count: layers))
    case .closures:
        ClosureFoldingClient(middlewares: Array(repeating: ClosureNoOp(), count: layers), transport: transport)
    }
}

func run(_ options: Options) async {
    var report = Report(medians: [:], families: [], counts: [])
    var failed = false
    if options.suite == "curl-server" {
        // Not a suite: the curl soak's server, in a process of its own (CurlSoakBench).
        if !CurlSoakBench.serve() { exit(1) }
        return
    }
    if options.suite == "all" || options.suite == "chains" {
        let transport = makeTransport()
        let request = HTTPRequest(url: URL(fileURLWithPath: "/bench"))
        let families = options.only.map { [$0] } ?? Family.allCases
        let counts = options.layers.map { [$0] } ?? layerCounts
        var chains: [(key: String, transport: any HTTPTransport)] = []
        for family in families {
            for layers in counts {
                chains.append(("\(family.rawValue)_\(layers)", chain(family, layers, transport)))
            }
        }
        let medians = await runChains(chains, request: request, iterations: options.iterations, rounds: options.rounds)
        report = Report(medians: medians, families: families, counts: counts)
    }
    if options.suite == "all" || options.suite == "logging" {
        let medians = await runChains(
            LoggingBench.chains(),
            request: LoggingBench.request(),
            iterations: max(options.iterations / 10, 1),
            rounds: options.rounds
        )
        report.logging = medians
    }
    if options.suite == "all" || options.suite == "plugins" {
        let medians = await runChains(
            PluginBench.chains() + StandardStackBench.chains(),
            request: LoggingBench.request(),
            iterations: max(options.iterations / 10, 1),
            rounds: options.rounds
        )
        report.extra += PluginBench.entries(medians)
        report.extra += StandardStackBench.entries(medians)
        report.extra += await AuthStormBench.measurements()
        report.extra += await TimeoutMemoryBench.measurements()
    }
    if options.suite == "standard" {
        let medians = await runChains(
            Array(StandardStackBench.chains().prefix(1)),
            request: LoggingBench.request(),
            iterations: max(options.iterations / 10, 1),
            rounds: options.rounds
        )
        report.extra += medians.map { ("\($0.key)_ns", $0.value) }
    }
    if options.suite == "all" || options.suite == "gzip" {
        report.extra += await GzipBench.measurements().map { ($0.key, $0.value) }
        report.extra += await InflateStreamBench.measurements()
    }
    if options.suite == "all" || options.suite == "soak" {
        report.extra += await SoakBench.measurements(requests: options.soakRequests, failed: &failed)
    }
    if let (first, second) = options.endToEndPair {
        report.extra += await EndToEndBench.pair(
            first, second, block: options.endToEndPairBlock, nginx: options.nginx, requests: options.endToEndRequests,
            failed: &failed)
    } else if let client = options.endToEndClient {
        report.extra += await EndToEndBench.profile(
            client: client, nginx: options.nginx, requests: options.endToEndRequests, failed: &failed)
    } else if options.suite == "all" {
        // In a fresh process, as `--suite e2e` runs it, not after the soak's hundred thousand
        // requests and the other suites' threads and heap.
        var arguments = [
            "--suite", "e2e", "--rounds", String(options.rounds), "--e2e-requests", String(options.endToEndRequests),
        ]
        if let nginx = options.nginx { arguments += ["--nginx", nginx.absoluteString] }
        report.extra += ChildProcess.measurements(arguments, label: "e2e", failed: &failed)
    } else if options.suite == "e2e" {
        let entries = await EndToEndBench.measurements(
            nginx: options.nginx,
            requests: options.endToEndRequests,
            rounds: options.rounds * 3,
            failed: &failed
        )
        report.extra += entries + EndToEndBench.curlSummary(entries, nginx: options.nginx != nil)
    }
    if options.suite == "all" || options.suite == "curl" {
        report.extra += await CurlSoakBench.measurements(
            requests: options.curlRequests, nginx: options.nginx, failed: &failed)
    }
    if options.suite == "all" || options.suite == "cache" {
        report.extra += await CacheBench.measurements(
            iterations: options.iterations, rounds: options.rounds, nginx: options.nginx, failed: &failed)
    }
    if options.suite == "all" || options.suite == "tracing" {
        report.extra += await TracingBench.measurements(iterations: options.iterations, rounds: options.rounds)
    }
    if options.suite == "all" || options.suite == "cookies" {
        report.extra += await CookieBench.measurements(iterations: options.iterations, rounds: options.rounds)
    }
    if options.suite == "all" || options.suite == "replay" {
        report.extra += await ReplayBench.measurements(rounds: options.rounds)
    }
    if options.suite == "all" || options.suite == "curl-floor" {
        report.extra += await CurlFloorBench.measurements(
            nginx: options.nginx, requests: options.curlFloorRequests, rounds: options.rounds, failed: &failed)
    }
    if options.suite == "all" || options.suite == "resilience" {
        report.extra += await StormBench.measurements(nginx: options.nginx, failed: &failed)
        report.extra += await HedgeBench.measurements(
            iterations: max(options.iterations / 10, 1), rounds: options.rounds, failed: &failed)
    }
    if options.suite == "stream" {
        report.extra += await StreamBench.measurements(
            mebibytes: options.streamMebibytes, rounds: options.rounds, failed: &failed)
    } else if options.suite == "all" {
        report.extra += ChildProcess.measurements(
            ["--suite", "stream", "--stream-mib", String(options.streamMebibytes), "--rounds", String(options.rounds)],
            label: "stream", failed: &failed)
    }
    if options.suite == "file" {
        report.extra += await FileDownloadBench.measurements(rounds: min(options.rounds, 3), failed: &failed)
    } else if options.suite == "all" {
        report.extra += ChildProcess.measurements(
            ["--suite", "file", "--rounds", String(options.rounds)], label: "file", failed: &failed)
    }
    report.print(json: options.json)
    if failed { exit(1) }
}

let options: Options
do {
    options = try Options(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("pipeline-bench: \(error.message) (--help lists the options)\n".utf8))
    exit(2)
}
if options.help {
    print(Options.usage)
    exit(0)
}
let done = DispatchSemaphore(value: 0)
Task.detached {
    await run(options)
    done.signal()
}
done.wait()
