import ConsentKit
import ConsentKitUI
import ConsentdAPI
import Foundation
import Yams

/// The publishers consentd knows: their ad-tech providers and the IAB vendors they work with,
/// and the websites whose consent notice consentd serves (`/cmp/cmp.js`).
///
/// Loaded from a YAML file at start (see `Server/config/publishers.example.yaml`). A file that
/// does not hold exactly this shape stops the server with the file, line and field at fault.
public struct PublisherConfiguration: Sendable, Equatable {
    /// The publishers by id, as `GET /v1/config` sends them.
    public var publishers: [String: AppConfig.Publisher]
    /// The websites by app id (the app id of the publishable key the site's page sends).
    public var websites: [String: Website]
    /// The apps each publisher belongs to, by publisher id (its `apps:` list): only their keys
    /// read it (`GET /v1/config`, `GET /v1/vendor-list/trimmed`). A website's app reads the
    /// publishers it names as well.
    public var publisherApps: [String: Set<String>]
    /// The publishers' settings for US visitors (their `us:` blocks), by publisher id; a
    /// publisher without one has ``ConsentKit/USPrivacySettings/standard``.
    public var usPrivacy: [String: USPrivacySettings]

    /// The US settings of the publishers `ids` asked for together
    /// (``ConsentKit/USPrivacySettings/combined(_:)``).
    public func usPrivacy(publisherIds ids: [String]) -> USPrivacySettings {
        USPrivacySettings.combined(ids.map { usPrivacy[$0] ?? .standard })
    }

    /// The US settings of `website`: its own `us:` block, else its publishers' combined.
    public func usPrivacy(of website: Website) -> USPrivacySettings {
        website.usPrivacy ?? usPrivacy(publisherIds: website.publisherIds)
    }

    /// Whether `appId`'s keys may read publisher `publisherId`.
    public func publisher(_ publisherId: String, belongsTo appId: String) -> Bool {
        publisherApps[publisherId]?.contains(appId) == true || websites[appId]?.publisherIds.contains(publisherId) == true
    }

    /// A website whose consent notice and CMP API consentd serves: the notice shows the
    /// vendors and ad-tech providers of its publishers.
    public struct Website: Sendable, Equatable {
        /// The app id its API keys belong to.
        public var appId: String
        /// The site's name, shown on the notice.
        public var name: String
        /// The site's privacy policy, linked from the notice.
        public var privacyPolicyURL: URL
        /// The publishers (ids of ``PublisherConfiguration/publishers``) whose vendors it shows.
        public var publisherIds: [String]
        /// Where the notice sits on the site's pages (`notice.layout`; `auto` when not set).
        public var layout: NoticeLayout
        /// The site's logo on the notice (`notice.logo`): an `https` URL or a `data:` image.
        public var logo: String?
        /// The notice's colours, corners, font and button style (`notice.theme`), checked for
        /// contrast when the file is read.
        public var theme: NoticeTheme
        /// Its own settings for US visitors (its `us:` block), overriding its publishers'; nil
        /// when it has none.
        public var usPrivacy: USPrivacySettings?

        /// Creates a website.
        public init(
            appId: String, name: String, privacyPolicyURL: URL, publisherIds: [String], layout: NoticeLayout = .auto,
            logo: String? = nil, theme: NoticeTheme = .standard, usPrivacy: USPrivacySettings? = nil
        ) {
            self.appId = appId
            self.name = name
            self.privacyPolicyURL = privacyPolicyURL
            self.publisherIds = publisherIds
            self.layout = layout
            self.logo = logo
            self.theme = theme
            self.usPrivacy = usPrivacy
        }
    }

    /// An empty configuration: every publisher id is unknown.
    public static let empty = PublisherConfiguration(publishers: [:])

    /// Creates a configuration.
    public init(publishers: [String: AppConfig.Publisher], websites: [String: Website] = [:], publisherApps: [String: Set<String>] = [:],
                usPrivacy: [String: USPrivacySettings] = [:]) {
        self.publishers = publishers
        self.websites = websites
        self.publisherApps = publisherApps
        self.usPrivacy = usPrivacy
    }

    /// Reads a configuration file.
    public static func load(path: String) throws(ConfigurationError) -> PublisherConfiguration {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigurationError(file: path, line: nil, field: nil, message: "cannot be read: \(error.localizedDescription)")
        }
        return try parse(text, file: path)
    }

    /// Parses configuration text; `file` names it in errors.
    public static func parse(_ text: String, file: String) throws(ConfigurationError) -> PublisherConfiguration {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw ConfigurationError(file: file, line: error.line, field: nil, message: "is not valid YAML: \(error)")
        } catch {
            throw ConfigurationError(file: file, line: nil, field: nil, message: "is not valid YAML: \(error)")
        }
        guard let root else { return .empty }
        let reader = Reader(file: file)
        let top = try reader.mapping(root, field: "", known: ["publishers", "websites"])
        var publishers: [String: AppConfig.Publisher] = [:]
        var publisherApps: [String: Set<String>] = [:]
        var usPrivacy: [String: USPrivacySettings] = [:]
        let publishersNodes: [Node] = if let list = top["publishers"] { try reader.sequence(list, field: "publishers") } else { [] }
        for (index, node) in publishersNodes.enumerated() {
            let field = "publishers[\(index)]"
            let entry = try reader.mapping(node, field: field, known: ["id", "name", "apps", "vendorIds", "adTechProviders", "nonPersonalizedOnly", "us"])
            let id = try reader.string(try reader.required(entry, "id", in: node, field: field), field: "\(field).id")
            if publishers[id] != nil {
                throw reader.error(entry["id"], field: "\(field).id", "publisher id \(id) appears twice")
            }
            let name = try reader.string(try reader.required(entry, "name", in: node, field: field), field: "\(field).name")
            var apps: Set<String> = []
            if let list = entry["apps"] {
                for (appIndex, appNode) in try reader.sequence(list, field: "\(field).apps").enumerated() {
                    let app = try reader.string(appNode, field: "\(field).apps[\(appIndex)]")
                    guard AppID.isValid(app) else {
                        throw reader.error(appNode, field: "\(field).apps[\(appIndex)]", "is not an app id (letters, digits, '.', '-', '_')")
                    }
                    apps.insert(app)
                }
            }
            publisherApps[id] = apps
            var vendorIds: [Int] = []
            if let vendors = entry["vendorIds"] {
                for (vendorIndex, vendor) in try reader.sequence(vendors, field: "\(field).vendorIds").enumerated() {
                    vendorIds.append(try reader.integer(vendor, field: "\(field).vendorIds[\(vendorIndex)]", range: 1...65535))
                }
            }
            var providers: [AppConfig.AdTechProvider] = []
            if let list = entry["adTechProviders"] {
                for (providerIndex, providerNode) in try reader.sequence(list, field: "\(field).adTechProviders").enumerated() {
                    let providerField = "\(field).adTechProviders[\(providerIndex)]"
                    let provider = try reader.mapping(providerNode, field: providerField, known: ["id", "name", "privacyPolicyUrl"])
                    let url = try reader.string(try reader.required(provider, "privacyPolicyUrl", in: providerNode, field: providerField),
                                                field: "\(providerField).privacyPolicyUrl")
                    guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme ?? ""), parsed.host != nil else {
                        throw reader.error(provider["privacyPolicyUrl"], field: "\(providerField).privacyPolicyUrl", "must be an http(s) URL")
                    }
                    providers.append(AppConfig.AdTechProvider(
                        id: try reader.integer(try reader.required(provider, "id", in: providerNode, field: providerField),
                                               field: "\(providerField).id", range: 1...Int(Int32.max)),
                        name: try reader.string(try reader.required(provider, "name", in: providerNode, field: providerField),
                                                field: "\(providerField).name"),
                        privacyPolicyUrl: url))
                }
            }
            var nonPersonalizedOnly = false
            if let flag = entry["nonPersonalizedOnly"] {
                guard let value = flag.bool else {
                    throw reader.error(flag, field: "\(field).nonPersonalizedOnly", "must be true or false")
                }
                nonPersonalizedOnly = value
            }
            if let us = entry["us"] { usPrivacy[id] = try reader.usPrivacy(us, field: "\(field).us") }
            publishers[id] = AppConfig.Publisher(id: id, name: name, vendorIds: Array(Set(vendorIds)).sorted(), adTechProviders: providers,
                                       nonPersonalizedOnly: nonPersonalizedOnly)
        }
        var websites: [String: Website] = [:]
        let websitesNodes: [Node] = if let list = top["websites"] { try reader.sequence(list, field: "websites") } else { [] }
        for (index, node) in websitesNodes.enumerated() {
            let field = "websites[\(index)]"
            let entry = try reader.mapping(node, field: field, known: ["appId", "name", "privacyPolicyUrl", "publisherIds", "notice", "us"])
            let appId = try reader.string(try reader.required(entry, "appId", in: node, field: field), field: "\(field).appId")
            guard websites[appId] == nil else { throw reader.error(entry["appId"], field: "\(field).appId", "website \(appId) appears twice") }
            let url = try reader.string(try reader.required(entry, "privacyPolicyUrl", in: node, field: field), field: "\(field).privacyPolicyUrl")
            guard let privacy = URL(string: url), ["http", "https"].contains(privacy.scheme ?? ""), privacy.host != nil else {
                throw reader.error(entry["privacyPolicyUrl"], field: "\(field).privacyPolicyUrl", "must be an http(s) URL")
            }
            var publisherIds: [String] = []
            let idsNode = try reader.required(entry, "publisherIds", in: node, field: field)
            for (idIndex, idNode) in try reader.sequence(idsNode, field: "\(field).publisherIds").enumerated() {
                let id = try reader.string(idNode, field: "\(field).publisherIds[\(idIndex)]")
                guard publishers[id] != nil else {
                    throw reader.error(idNode, field: "\(field).publisherIds[\(idIndex)]", "names publisher \(id), which is not listed under publishers")
                }
                publisherIds.append(id)
            }
            guard !publisherIds.isEmpty else { throw reader.error(idsNode, field: "\(field).publisherIds", "must name at least one publisher") }
            var website = Website(
                appId: appId, name: try reader.string(try reader.required(entry, "name", in: node, field: field), field: "\(field).name"),
                privacyPolicyURL: privacy, publisherIds: publisherIds)
            if let notice = entry["notice"] { try reader.notice(notice, field: "\(field).notice", into: &website) }
            if let us = entry["us"] { website.usPrivacy = try reader.usPrivacy(us, field: "\(field).us") }
            websites[appId] = website
        }
        return PublisherConfiguration(publishers: publishers, websites: websites, publisherApps: publisherApps, usPrivacy: usPrivacy)
    }

    /// Walks YAML nodes, turning every surprise into an error with a line number.
    private struct Reader {
        let file: String

        func error(_ node: Node?, field: String, _ message: String) -> ConfigurationError {
            ConfigurationError(file: file, line: node?.mark.map { $0.line }, field: field.isEmpty ? nil : field, message: message)
        }

        func mapping(_ node: Node, field: String, known: [String]) throws(ConfigurationError) -> [String: Node] {
            guard let mapping = node.mapping else { throw error(node, field: field, "must be a mapping of keys to values") }
            var result: [String: Node] = [:]
            for (key, value) in mapping {
                guard let name = key.string else { throw error(key, field: field, "has a key that is not text") }
                let path = field.isEmpty ? name : "\(field).\(name)"
                guard known.contains(name) else {
                    throw error(key, field: path, "is not a known setting (expected one of: \(known.joined(separator: ", ")))")
                }
                result[name] = value
            }
            return result
        }

        func required(_ mapping: [String: Node], _ key: String, in node: Node, field: String) throws(ConfigurationError) -> Node {
            guard let value = mapping[key] else { throw error(node, field: "\(field).\(key)", "is required") }
            return value
        }

        func sequence(_ node: Node, field: String) throws(ConfigurationError) -> [Node] {
            guard let sequence = node.sequence else { throw error(node, field: field, "must be a list") }
            return Array(sequence)
        }

        func string(_ node: Node, field: String) throws(ConfigurationError) -> String {
            guard case .scalar(let scalar) = node, !scalar.string.isEmpty, node.tag == Tag(.str) || node.int != nil else {
                throw error(node, field: field, "must be non-empty text")
            }
            return scalar.string
        }

        /// A website's `notice:` settings: its layout, logo and theme (every colour optional,
        /// ConsentKit's own where not given), checked as every notice build checks them.
        func notice(_ node: Node, field: String, into website: inout Website) throws(ConfigurationError) {
            let entry = try mapping(node, field: field, known: ["layout", "logo", "theme"])
            if let layout = entry["layout"] {
                let name = try string(layout, field: "\(field).layout")
                guard let value = NoticeLayout(rawValue: name) else {
                    let known = NoticeLayout.allCases.map(\.rawValue).joined(separator: ", ")
                    throw error(layout, field: "\(field).layout", "is \(name); expected one of: \(known)")
                }
                website.layout = value
            }
            if let logo = entry["logo"] { website.logo = try string(logo, field: "\(field).logo") }
            if let theme = entry["theme"] { website.theme = try self.theme(theme, field: "\(field).theme") }
            let settings = NoticeSettings(publisherName: website.name, logo: website.logo, privacyPolicyURL: website.privacyPolicyURL,
                                          theme: website.theme, layout: website.layout)
            do {
                try settings.validateBrand()
            } catch {
                let key = if case .logo = error { "logo" } else { "theme" }
                throw self.error(entry[key], field: "\(field).\(key)", "\(error)")
            }
        }

        /// A `us:` block: `mspaCoveredTransaction` (default false), `mspaMode` (`optOut` or
        /// `serviceProvider`, required exactly when covered), `approach` (`national` or `state`,
        /// default `state`).
        func usPrivacy(_ node: Node, field: String) throws(ConfigurationError) -> USPrivacySettings {
            let entry = try mapping(node, field: field, known: ["mspaCoveredTransaction", "mspaMode", "approach"])
            var covered = false
            if let flag = entry["mspaCoveredTransaction"] {
                guard let value = flag.bool else { throw error(flag, field: "\(field).mspaCoveredTransaction", "must be true or false") }
                covered = value
            }
            var mode: GPPApplicability.MSPAMode?
            if let modeNode = entry["mspaMode"] {
                let name = try string(modeNode, field: "\(field).mspaMode")
                guard let value = GPPApplicability.MSPAMode(rawValue: name) else {
                    let known = GPPApplicability.MSPAMode.allCases.map(\.rawValue).joined(separator: ", ")
                    throw error(modeNode, field: "\(field).mspaMode", "is \(name); expected one of: \(known)")
                }
                guard covered else {
                    throw error(modeNode, field: "\(field).mspaMode",
                                "applies only to MSPA covered transactions: set mspaCoveredTransaction: true, or remove mspaMode")
                }
                mode = value
            } else if covered {
                throw error(node, field: "\(field).mspaMode",
                            "is required when mspaCoveredTransaction is true: optOut (Opt-Out Option Mode) or serviceProvider (Service Provider Mode)")
            }
            var approach = USPrivacySettings.Approach.state
            if let approachNode = entry["approach"] {
                let name = try string(approachNode, field: "\(field).approach")
                guard let value = USPrivacySettings.Approach(rawValue: name) else {
                    let known = USPrivacySettings.Approach.allCases.map(\.rawValue).joined(separator: ", ")
                    throw error(approachNode, field: "\(field).approach", "is \(name); expected one of: \(known)")
                }
                approach = value
            }
            return USPrivacySettings(mspaCoveredTransaction: covered, mspaMode: mode, approach: approach)
        }

        /// A `theme:` mapping over ConsentKit's standard theme.
        private func theme(_ node: Node, field: String) throws(ConfigurationError) -> NoticeTheme {
            let entry = try mapping(node, field: field, known: ["cornerRadius", "fontFamily", "buttonStyle", "light", "dark"])
            var theme = NoticeTheme.standard
            if let radius = entry["cornerRadius"] { theme.cornerRadius = try integer(radius, field: "\(field).cornerRadius", range: 0...32) }
            if let font = entry["fontFamily"] { theme.fontFamily = try string(font, field: "\(field).fontFamily") }
            if let style = entry["buttonStyle"] {
                let name = try string(style, field: "\(field).buttonStyle")
                guard let value = NoticeTheme.ButtonStyle(rawValue: name) else {
                    let known = NoticeTheme.ButtonStyle.allCases.map(\.rawValue).joined(separator: ", ")
                    throw error(style, field: "\(field).buttonStyle", "is \(name); expected one of: \(known)")
                }
                theme.buttonStyle = value
            }
            if let light = entry["light"] { theme.light = try palette(light, field: "\(field).light", over: theme.light) }
            if let dark = entry["dark"] { theme.dark = try palette(dark, field: "\(field).dark", over: theme.dark) }
            return theme
        }

        /// A palette's colours (`#rrggbb`) over `base`: the colours not given keep `base`'s.
        private func palette(_ node: Node, field: String, over base: NoticeTheme.Palette) throws(ConfigurationError) -> NoticeTheme.Palette {
            let keys: [(String, WritableKeyPath<NoticeTheme.Palette, String>)] = [
                ("background", \.background), ("surface", \.surface), ("text", \.text), ("mutedText", \.mutedText),
                ("primary", \.primary), ("onPrimary", \.onPrimary), ("border", \.border), ("link", \.link),
            ]
            let entry = try mapping(node, field: field, known: keys.map(\.0))
            var palette = base
            for (key, path) in keys {
                guard let value = entry[key] else { continue }
                // `primary: #1746a2` unquoted is a YAML comment: an empty value.
                guard value.tag != Tag(.null) else {
                    throw error(value, field: "\(field).\(key)", "is empty: quote a colour in YAML, as in \"#1746a2\" (an unquoted # starts a comment)")
                }
                palette[keyPath: path] = try string(value, field: "\(field).\(key)")
            }
            return palette
        }

        func integer(_ node: Node, field: String, range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
            guard let value = node.int, node.tag == Tag(.int) else { throw error(node, field: field, "must be an integer") }
            guard range.contains(value) else {
                throw error(node, field: field, "is \(value); it must lie in \(range.lowerBound)...\(range.upperBound)")
            }
            return value
        }
    }
}


extension YamlError {
    /// The line the parser stopped at, when it says.
    var line: Int? {
        switch self {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _): mark.line
        default: nil
        }
    }
}
