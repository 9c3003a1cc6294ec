import Foundation

/// Prints a section's heading and, under it, the files that hold its code, so a reader can go
/// from what the demo printed to the code that did it.
///
/// - Parameters:
///   - title: What the section shows.
///   - also: Other files of this folder the section uses, by name.
///   - filePath: The file that calls it (the compiler fills it in).
func heading(_ title: String, also: [String] = [], filePath: String = #filePath) {
    let here = packageRelative(filePath)
    let folder = here.split(separator: "/").dropLast().joined(separator: "/")
    let files = [here] + also.map { folder + "/" + $0 }
    print("\n== \(title)")
    print("   code: \(files.joined(separator: ", "))")
}

/// The path of a file of this package from the package's root (`Examples/…` or `Sources/…`).
private func packageRelative(_ path: String) -> String {
    for root in ["/Examples/", "/Sources/"] {
        if let range = path.range(of: root, options: .backwards) {
            return String(path[range.lowerBound...].dropFirst())
        }
    }
    return path
}
