/// The calls waiting for a slot, by id: prioritised calls first, each lane first in, first out.
struct WaitQueue: Sendable {
    /// One lane: ids from `head` on are waiting.
    private struct Lane: Sendable {
        var ids: [Int] = []
        var head = 0

        var isEmpty: Bool { head == ids.count }

        mutating func popFirst() -> Int? {
            guard !isEmpty else { return nil }
            defer {
                head += 1
                // Gives the consumed front back once it outweighs what waits.
                if head > 64, head * 2 > ids.count {
                    ids.removeFirst(head)
                    head = 0
                }
            }
            return ids[head]
        }

        mutating func remove(_ id: Int) -> Bool {
            guard let index = ids[head...].firstIndex(of: id) else { return false }
            ids.remove(at: index)
            return true
        }
    }

    private var priority = Lane()
    private var normal = Lane()
    /// How many calls wait.
    private(set) var count = 0

    mutating func append(_ id: Int, priority prioritised: Bool) {
        if prioritised { priority.ids.append(id) } else { normal.ids.append(id) }
        count += 1
    }

    /// The next call to get a slot: the longest-waiting prioritised call, else the longest-waiting.
    mutating func popFirst() -> Int? {
        guard let id = priority.popFirst() ?? normal.popFirst() else { return nil }
        count -= 1
        return id
    }

    /// Takes a call out of the queue wherever it is (it was cancelled or timed out).
    mutating func remove(_ id: Int) {
        if priority.remove(id) || normal.remove(id) { count -= 1 }
    }
}
