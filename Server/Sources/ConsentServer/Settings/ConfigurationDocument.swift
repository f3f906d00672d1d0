import ConsentKit
import ConsentKitUI
import ConsentdAPI
import Foundation
import Yams

/// A publisher configuration written out as publishers.yaml spells it: what the database stores
/// (one JSON document per publisher, app and website), what `consent config export` writes and
/// what the console's configuration routes send and take (decision 0041).
///
/// It is only ever read back through ``PublisherConfiguration/parse(_:file:)`` (JSON is YAML), so
/// a document from the database, a file or a request is checked by the one reader, with the same
/// errors naming the field.
public struct ConfigurationDocument: Codable, Sendable, Equatable {
    /// The publishers, by id, without their `apps:` (those are ``apps``).
    public var publishers: [Publisher]
    /// The apps and the publishers each reads (the publishers' `apps:` lists, turned around).
    public var apps: [App]
    /// The websites, by app id.
    public var websites: [Website]

    /// A publisher as its entry of publishers.yaml spells it.
    public struct Publisher: Codable, Sendable, Equatable {
        /// The publisher's id.
        public var id: String
        /// Its name.
        public var name: String
        /// Only in files: the apps whose keys read it (the database keeps them as ``App``s).
        public var apps: [String]?
        /// The IAB vendors it works with.
        public var vendorIds: [Int]?
        /// Its ad-tech providers (Google's Additional Consent).
        public var adTechProviders: [AdTechProvider]?
        /// Whether its ads are non-personalised only.
        public var nonPersonalizedOnly: Bool?
        /// Its settings for US visitors.
        public var us: USBlock?
    }

    /// An ad-tech provider of a publisher.
    public struct AdTechProvider: Codable, Sendable, Equatable {
        /// Google's provider id.
        public var id: Int
        /// Its name.
        public var name: String
        /// Its privacy policy.
        public var privacyPolicyUrl: String
    }

    /// A `us:` block.
    public struct USBlock: Codable, Sendable, Equatable {
        /// `mspaCoveredTransaction`.
        public var mspaCoveredTransaction: Bool?
        /// `mspaMode`: `optOut` or `serviceProvider`.
        public var mspaMode: String?
        /// `approach`: `national` or `state`.
        public var approach: String?
    }

    /// An app: an app id whose keys read the publishers named.
    public struct App: Codable, Sendable, Equatable {
        /// The app id (its keys' app).
        public var appId: String
        /// The publishers it reads, sorted.
        public var publisherIds: [String]
    }

    /// A website as its entry of publishers.yaml spells it.
    public struct Website: Codable, Sendable, Equatable {
        /// The app id of its keys.
        public var appId: String
        /// Its name.
        public var name: String
        /// Its privacy policy.
        public var privacyPolicyUrl: String
        /// The publishers whose vendors its notice shows.
        public var publisherIds: [String]
        /// Its notice's layout, logo and theme.
        public var notice: Notice?
        /// Its own settings for US visitors.
        public var us: USBlock?
    }

    /// A website's `notice:` block.
    public struct Notice: Codable, Sendable, Equatable {
        /// `layout`.
        public var layout: String?
        /// `logo`.
        public var logo: String?
        /// `theme`.
        public var theme: NoticeTheme?
    }

    /// An empty configuration.
    public static let empty = ConfigurationDocument(publishers: [], apps: [], websites: [])

    /// Creates a document.
    public init(publishers: [Publisher], apps: [App], websites: [Website]) {
        self.publishers = publishers
        self.apps = apps
        self.websites = websites
    }

    /// The document of `configuration`, every list sorted by id.
    public init(_ configuration: PublisherConfiguration) {
        publishers = configuration.publishers.values.sorted { $0.id < $1.id }.map { publisher in
            Publisher(
                id: publisher.id, name: publisher.name, apps: nil, vendorIds: publisher.vendorIds.isEmpty ? nil : publisher.vendorIds.sorted(),
                adTechProviders: publisher.adTechProviders.isEmpty ? nil : publisher.adTechProviders.map {
                    AdTechProvider(id: $0.id, name: $0.name, privacyPolicyUrl: $0.privacyPolicyUrl)
                },
                nonPersonalizedOnly: publisher.nonPersonalizedOnly ? true : nil, us: configuration.usPrivacy[publisher.id].map { USBlock(settings: $0) })
        }
        var readers: [String: Set<String>] = [:]
        for (publisherId, apps) in configuration.publisherApps {
            for app in apps { readers[app, default: []].insert(publisherId) }
        }
        apps = readers.keys.sorted().map { App(appId: $0, publisherIds: readers[$0]!.sorted()) }
        websites = configuration.websites.values.sorted { $0.appId < $1.appId }.map { site in
            let notice = Notice(layout: site.layout == .auto ? nil : site.layout.rawValue, logo: site.logo,
                                theme: site.theme == .standard ? nil : site.theme)
            return Website(appId: site.appId, name: site.name, privacyPolicyUrl: site.privacyPolicyURL.absoluteString,
                           publisherIds: site.publisherIds, notice: notice == Notice() ? nil : notice, us: site.usPrivacy.map { USBlock(settings: $0) })
        }
    }

    /// The document as publishers.yaml spells it: each publisher with its `apps:`, no `apps` list.
    public var file: FileForm {
        FileForm(publishers: publishers.map { publisher in
            var publisher = publisher
            let readers = apps.filter { $0.publisherIds.contains(publisher.id) }.map(\.appId).sorted()
            publisher.apps = readers.isEmpty ? nil : readers
            return publisher
        }, websites: websites.isEmpty ? nil : websites)
    }

    /// The shape of publishers.yaml.
    public struct FileForm: Codable, Sendable, Equatable {
        /// `publishers:`.
        public var publishers: [Publisher]
        /// `websites:`.
        public var websites: [Website]?
    }

    /// The configuration the document holds, checked by the YAML reader; `source` names it in errors.
    /// An app must have a valid id, appear once and read at least one publisher listed.
    public func configuration(source: String) throws(ConfigurationError) -> PublisherConfiguration {
        let known = Set(publishers.map(\.id))
        var seen: Set<String> = []
        for (index, app) in apps.enumerated() {
            let field = "apps[\(index)]"
            guard AppID.isValid(app.appId) else {
                throw ConfigurationError(file: source, line: nil, field: "\(field).appId", message: "is not an app id (letters, digits, '.', '-', '_')")
            }
            guard seen.insert(app.appId).inserted else {
                throw ConfigurationError(file: source, line: nil, field: "\(field).appId", message: "app \(app.appId) appears twice")
            }
            guard !app.publisherIds.isEmpty else {
                throw ConfigurationError(file: source, line: nil, field: "\(field).publisherIds", message: "must name at least one publisher")
            }
            for (idIndex, id) in app.publisherIds.enumerated() where !known.contains(id) {
                throw ConfigurationError(file: source, line: nil, field: "\(field).publisherIds[\(idIndex)]",
                                         message: "names publisher \(id), which is not listed under publishers")
            }
        }
        return try PublisherConfiguration.parse(Self.json(file), file: source)
    }

    /// The document as publishers.yaml (what `consent config export` writes).
    public func yaml() throws -> String {
        "# ConsentKit publisher configuration, exported from consentd's database (consent config export).\n"
            + "# Importing it (consentd --publishers FILE) gives the same configuration.\n"
            + (try YAMLEncoder().encode(file))
    }

    /// `value` as compact JSON text (which is YAML), slashes unescaped.
    static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        // Encoding these plain structs cannot fail.
        return String(decoding: (try? encoder.encode(value)) ?? Data("{}".utf8), as: UTF8.self)
    }
}

extension ConfigurationDocument.USBlock {
    init(settings: USPrivacySettings) {
        self.init(mspaCoveredTransaction: settings.mspaCoveredTransaction ? true : nil, mspaMode: settings.mspaMode?.rawValue,
                  approach: settings.approach == .state ? nil : settings.approach.rawValue)
    }
}
