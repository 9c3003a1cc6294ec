import Foundation

/// SHA-256 (FIPS 180-4), for names and checks that must be stable across processes and hold no
/// secret: a private cache's identity, a disk entry's file name and digest. (No crypto library
/// ships with the toolchain on Linux.)
///
/// A value hashes in pieces (``update(_:)``, then ``finalize()``), so a body is checked as it
/// streams, never held whole.
struct SHA256: Sendable {
    private static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    private var h: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]
    /// Bytes not yet hashed: fewer than one 64-byte block.
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    init() {}

    /// Hashes `bytes` after what came before.
    mutating func update(_ bytes: some Collection<UInt8>) {
        length &+= UInt64(bytes.count)
        if pending.isEmpty,
            bytes.withContiguousStorageIfAvailable({ hashBlocks(of: UnsafeRawBufferPointer($0)) })
                != nil
        {
            return
        }
        pending.append(contentsOf: bytes)
        let whole = pending.count - pending.count % 64
        guard whole > 0 else { return }
        pending.withUnsafeBytes { raw in compress(UnsafeRawBufferPointer(rebasing: raw[..<whole])) }
        pending.removeFirst(whole)
    }

    /// Hashes `data` after what came before.
    mutating func update(_ data: Data) {
        length &+= UInt64(data.count)
        if pending.isEmpty {
            data.withUnsafeBytes { hashBlocks(of: $0) }
        } else {
            pending.append(contentsOf: data)
            let whole = pending.count - pending.count % 64
            guard whole > 0 else { return }
            pending.withUnsafeBytes { raw in compress(UnsafeRawBufferPointer(rebasing: raw[..<whole])) }
            pending.removeFirst(whole)
        }
    }

    /// The digest of everything hashed.
    func finalize() -> [UInt8] {
        var copy = self
        var tail = pending
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        let bitLength = length &* 8
        for shift in stride(from: 56, through: 0, by: -8) {
            tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        tail.withUnsafeBytes { copy.compress($0) }
        return copy.h.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(24 - $0 * 8)) } }
    }

    /// Hashes the whole blocks of `raw` and keeps the rest pending (called with nothing pending).
    private mutating func hashBlocks(of raw: UnsafeRawBufferPointer) {
        let whole = raw.count - raw.count % 64
        if whole > 0 { compress(UnsafeRawBufferPointer(rebasing: raw[..<whole])) }
        pending.append(contentsOf: raw[whole...])
    }

    /// Runs the compression function over each 64-byte block of `blocks`.
    private mutating func compress(_ blocks: UnsafeRawBufferPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            Self.k.withUnsafeBufferPointer { k in
                var (h0, h1, h2, h3, h4, h5, h6, h7) = (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7])
                for block in stride(from: 0, to: blocks.count, by: 64) {
                    for t in 0..<16 {
                        w[t] = UInt32(bigEndian: blocks.loadUnaligned(fromByteOffset: block + t * 4, as: UInt32.self))
                    }
                    for t in 16..<64 {
                        let s0 = rotate(w[t - 15], 7) ^ rotate(w[t - 15], 18) ^ (w[t - 15] >> 3)
                        let s1 = rotate(w[t - 2], 17) ^ rotate(w[t - 2], 19) ^ (w[t - 2] >> 10)
                        w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
                    }
                    var (a, b, c, d, e, f, g, hh) = (h0, h1, h2, h3, h4, h5, h6, h7)
                    for t in 0..<64 {
                        let s1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
                        let choice = (e & f) ^ (~e & g)
                        let temp1 = hh &+ s1 &+ choice &+ k[t] &+ w[t]
                        let s0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
                        let majority = (a & b) ^ (a & c) ^ (b & c)
                        let temp2 = s0 &+ majority
                        (hh, g, f, e, d, c, b, a) = (g, f, e, d &+ temp1, c, b, a, temp1 &+ temp2)
                    }
                    h0 &+= a
                    h1 &+= b
                    h2 &+= c
                    h3 &+= d
                    h4 &+= e
                    h5 &+= f
                    h6 &+= g
                    h7 &+= hh
                }
                h = [h0, h1, h2, h3, h4, h5, h6, h7]
            }
        }
    }

    /// The digest of `bytes`.
    static func digest(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The digest of `text`'s UTF-8, in lowercase hex.
    static func hex(_ text: String) -> String {
        hex(digest(Array(text.utf8)))
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".unicodeScalars)
        var result = ""
        result.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            result.unicodeScalars.append(digits[Int(byte >> 4)])
            result.unicodeScalars.append(digits[Int(byte & 0xF)])
        }
        return result
    }

    @inline(__always)
    private func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value >> count) | (value << (32 - count))
    }
}
