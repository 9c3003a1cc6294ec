/// The HTTP Archive format, version 1.2: what a cassette is written as, field for field.
///
/// Every type here is a plain `Codable` value whose coding keys are the names the
/// [HAR 1.2 specification](http://www.softwareishard.com/blog/har-12-spec/) spells, so a cassette
/// opens in browser developer tools and HAR viewers, and a HAR saved by them loads as a cassette.
/// Optional members of the specification are optionals here and are left out when `nil`.
package enum HAR {
    /// A whole HAR file: one object with a `log`.
    package struct File: Codable, Sendable, Equatable {
        /// The log.
        package var log: Log

        /// Creates a file around a log.
        ///
        /// - Parameter log: The log.
        package init(log: Log) {
            self.log = log
        }
    }

    /// The root of the archive: its version, its creator and its entries.
    package struct Log: Codable, Sendable, Equatable {
        /// The format version, `"1.2"`.
        package var version: String
        /// The application that wrote the file.
        package var creator: Creator
        /// The browser that made the requests, when one did.
        package var browser: Creator?
        /// One entry per exchange (a cassette writes them in the order their requests were sent).
        package var entries: [Entry]
        /// A comment.
        package var comment: String?

        /// Creates a log.
        ///
        /// - Parameters:
        ///   - version: The format version; `"1.2"` by default.
        ///   - creator: The application writing the file.
        ///   - entries: The exchanges.
        package init(version: String = "1.2", creator: Creator = .pipeline, entries: [Entry]) {
            self.version = version
            self.creator = creator
            self.entries = entries
        }
    }

    /// The application (or browser) that wrote the archive.
    package struct Creator: Codable, Sendable, Equatable {
        /// Its name.
        package var name: String
        /// Its version.
        package var version: String
        /// A comment.
        package var comment: String?

        /// Creates a creator.
        ///
        /// - Parameters:
        ///   - name: The name.
        ///   - version: The version.
        package init(name: String, version: String) {
            self.name = name
            self.version = version
        }

        /// This package, as the creator of the cassettes it writes.
        package static let pipeline = Creator(name: "swift-http-pipeline", version: "1")
    }

    /// A header field or a query item: a name and a value.
    package struct NameValue: Codable, Sendable, Equatable {
        /// The name.
        package var name: String
        /// The value.
        package var value: String
        /// A comment.
        package var comment: String?

        /// Creates a pair.
        ///
        /// - Parameters:
        ///   - name: The name.
        ///   - value: The value.
        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// A cookie sent or set.
    package struct Cookie: Codable, Sendable, Equatable {
        /// Its name.
        package var name: String
        /// Its value.
        package var value: String
        /// Its path.
        package var path: String?
        /// Its domain.
        package var domain: String?
        /// When it expires: HAR asks for ISO 8601; a cassette keeps the `Expires` attribute as the
        /// server wrote it.
        package var expires: String?
        /// Whether it is HTTP only.
        package var httpOnly: Bool?
        /// Whether it is sent over secure connections only.
        package var secure: Bool?
        /// A comment.
        package var comment: String?

        /// Creates a cookie.
        ///
        /// - Parameters:
        ///   - name: The name.
        ///   - value: The value.
        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }
}
