/// Readable coding paths, such as `books[3].author.name`.
enum CodingPath {
    static func describe(_ path: [any CodingKey]) -> String {
        var result = ""
        for key in path {
            if let index = key.intValue {
                result += "[\(index)]"
            } else {
                if !result.isEmpty {
                    result += "."
                }
                result += key.stringValue
            }
        }
        return result.isEmpty ? "<root>" : result
    }
}
