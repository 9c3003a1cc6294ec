import HTTPPipeline

/// Sends `iterations` requests one after another and returns the nanoseconds each took on
/// average. Generic, so each chain's concrete type is specialised into its own loop.
@inline(never)
func measure<T: HTTPTransport>(_ transport: T, request: HTTPRequest, iterations: Int) async -> Double {
    let clock = ContinuousClock()
    var statusSum = 0
    let start = clock.now
    for _ in 0..<iterations {
        do {
            statusSum &+= try await transport.send(request).status.code
        } catch {
            statusSum &-= 1
        }
    }
    let elapsed = start.duration(to: clock.now)
    precondition(statusSum == 200 &* iterations, "a request failed while measuring")
    let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
    return nanoseconds / Double(iterations)
}

/// Runs every chain in rounds, interleaving families so that noise hits them alike, and keeps
/// the median per chain.
func runChains(
    _ chains: [(key: String, transport: any HTTPTransport)],
    request: HTTPRequest,
    iterations: Int,
    rounds: Int
) async -> [String: Double] {
    var samples: [String: [Double]] = [:]
    for chain in chains {
        _ = await measure(chain.transport, request: request, iterations: max(iterations / 10, 1))
    }
    for _ in 0..<rounds {
        for chain in chains {
            samples[chain.key, default: []].append(await measureOpened(chain.transport, request, iterations))
        }
    }
    return samples.mapValues { values in values.sorted()[values.count / 2] }
}

/// Opens the existential so `measure` runs specialised for the chain's concrete type.
func measureOpened(_ transport: any HTTPTransport, _ request: HTTPRequest, _ iterations: Int) async -> Double {
    await measure(transport, request: request, iterations: iterations)
}
