@testable import ConsentServer
import ConsentKitUI
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Synchronization
import Testing

/// The configuration in the database and its console routes (issue 29 §2, decision 0041), on
/// SQLite and (when CONSENTD_TEST_POSTGRES_URL is set) PostgreSQL. Serialized: on PostgreSQL the
/// tests share one database, and the configuration is one per database.
@Suite("Configuration in the database, edited in the console", .serialized)
struct ConsoleConfigTests {
    static let websitesYAML = TestServer.publishersYAML + """

        websites:
          - appId: example.com
            name: Example News online
            privacyPolicyUrl: https://example.com/privacy
            publisherIds: [pub-news, pub-games]
            notice:
              layout: banner
              logo: https://example.com/logo.png
              theme:
                cornerRadius: 4
                buttonStyle: outlined
                light:
                  primary: "#1746a2"
            us:
              mspaCoveredTransaction: true
              mspaMode: optOut
          - appId: games.example.com
            name: Example Games online
            privacyPolicyUrl: https://games.example.com/privacy
            publisherIds: [pub-games]
        """

    // MARK: Import and export

    @Test("export then import gives the same configuration: publishers, providers, apps, websites, notices and US settings")
    func exportImportRoundTrip() throws {
        let configuration = try PublisherConfiguration.parse(Self.websitesYAML, file: "publishers.yaml")
        let yaml = try ConfigurationDocument(configuration).yaml()
        let again = try PublisherConfiguration.parse(yaml, file: "exported.yaml")
        #expect(again == configuration)
        #expect(again.websites["example.com"]?.theme.buttonStyle == .outlined)
        #expect(again.websites["example.com"]?.usPrivacy?.mspaMode == .optOut)
        #expect(again.publisherApps["pub-games"] == ["com.example.news"])
        #expect(try ConfigurationDocument(again).yaml() == yaml)
    }

    @Test("the configuration stored in the database reads back the same, and the export of it imports to it", arguments: StoreEngine.configured)
    func databaseRoundTrip(engine: StoreEngine) async throws {
        let configuration = try PublisherConfiguration.parse(Self.websitesYAML, file: "publishers.yaml")
        try await withStore(engine) { _, database in
            let store = ConfigurationStore(database: database, directory: PublisherDirectory(.empty))
            try await store.replaceAll(with: ConfigurationDocument(configuration), source: "test")
            #expect(store.directory.current == configuration)
            let file = temporaryDirectory().appendingPathComponent("exported.yaml")
            try await store.load().document.yaml().write(to: file, atomically: true, encoding: .utf8)
            try await store.replaceAll(with: .empty, source: "test")
            #expect(store.directory.current == .empty)
            #expect(try await store.importFile(file.path, force: true), "forced: a database shared with earlier runs may have imported these bytes")
            #expect(store.directory.current == configuration)
            #expect(try await store.load().document == ConfigurationDocument(configuration))
        }
    }

    @Test("the file is imported at start only when its bytes changed since the last import; the database is the truth between")
    func fileImportedWhenChanged() async throws {
        let file = temporaryDirectory().appendingPathComponent("publishers.yaml")
        try TestServer.publishersYAML.write(to: file, atomically: true, encoding: .utf8)
        let first = try await PublisherReloadTests.start(file: file)
        #expect(Set(first.publishers.publishers.keys) == ["pub-news", "pub-games"])
        try await first.configurationStore.change(.configurationDeleted, target: "publisher pub-games", operatorId: nil, address: nil) { document in
            document.publishers.removeAll { $0.id == "pub-games" }
            for index in document.apps.indices { document.apps[index].publisherIds.removeAll { $0 == "pub-games" } }
        }
        await first.close()

        let second = try await PublisherReloadTests.start(file: file)
        #expect(Set(second.publishers.publishers.keys) == ["pub-news"], "the same file is not imported again")
        await second.close()

        try (TestServer.publishersYAML + "\n").write(to: file, atomically: true, encoding: .utf8)
        let third = try await PublisherReloadTests.start(file: file)
        #expect(Set(third.publishers.publishers.keys) == ["pub-news", "pub-games"], "a changed file is imported")
        let entries = try await AuditLog(database: third.database).page(limit: 10).filter { $0.action == "configuration_imported" }
        #expect(entries.count == 2)
        #expect(entries.allSatisfy { $0.target == file.path })
        await third.close()
    }

    @Test("a change stored by another process reaches this one's directory when it polls the version", arguments: StoreEngine.configured)
    func otherProcessesPollTheVersion(engine: StoreEngine) async throws {
        let configuration = try PublisherConfiguration.parse(TestServer.publishersYAML, file: "publishers.yaml")
        try await withStore(engine) { _, database in
            let here = ConfigurationStore(database: database, directory: PublisherDirectory(.empty))
            let there = ConfigurationStore(database: database, directory: PublisherDirectory(.empty))
            try await here.replaceAll(with: ConfigurationDocument(configuration), source: "test")
            #expect(try await there.refresh(force: true))
            #expect(try await there.refresh() == false, "nothing moved")
            try await here.change(.configurationUpdated, target: "publisher pub-news", operatorId: nil, address: nil) { document in
                document.publishers[document.publishers.firstIndex { $0.id == "pub-news" }!].vendorIds = [7]
            }
            #expect(there.directory.current.publishers["pub-news"]?.vendorIds == [755, 21, 1].sorted())
            #expect(try await there.refresh())
            #expect(there.directory.current.publishers["pub-news"]?.vendorIds == [7])
        }
    }

    // MARK: Without a restart

    @Test("a publisher changed in the console reaches /v1/config at once: the old ETag gets 200, the new value and a new ETag",
          arguments: StoreEngine.configured)
    func changeReachesConfigWithoutRestart(engine: StoreEngine) async throws {
        let fixture = try await ConfigFixture(engine)
        let editor = try await fixture.console.createOperator(.editor)
        let key = fixture.server.publishable
        try await fixture.server.live { client in
            let session = try #require(ConsoleSessionCookie(try await client.signIn(editor, ConsoleAuthTests.password)))
            let before = try await client.send(.get, "/v1/config?publisherIds=pub-news", bearer: key)
            let tag = try #require(before.headers[.eTag])
            #expect(before.object["vendorIds"] as? [Int] == [1, 21, 755])
            let again = try await client.send(.get, "/v1/config?publisherIds=pub-news", bearer: key, headers: [.ifNoneMatch: tag])
            #expect(again.status == .notModified, "\(tag) \(again.headers) \(String(buffer: before.body)) \(String(buffer: again.body))")

            let read = try await client.send(.get, "/v1/console/publishers/pub-news", headers: session.cookieHeader)
            var headers = session.stateChangingHeaders
            let readTag: String = try #require(read.headers[.eTag])
            headers[.ifMatch] = readTag
            let put = try await client.send(.put, "/v1/console/publishers/pub-news", json: """
                {"name": "Example News", "vendorIds": [755, 32],
                 "adTechProviders": [{"id": 89, "name": "Example Ads", "privacyPolicyUrl": "https://ads.example.com/privacy"}]}
                """, headers: headers)
            #expect(put.status == .ok)

            let after = try await client.send(.get, "/v1/config?publisherIds=pub-news", bearer: key, headers: [.ifNoneMatch: tag])
            #expect(after.status == .ok)
            #expect(after.object["vendorIds"] as? [Int] == [32, 755])
            let newTag = try #require(after.headers[.eTag])
            #expect(newTag != tag)
            #expect(try await client.send(.get, "/v1/config?publisherIds=pub-news", bearer: key, headers: [.ifNoneMatch: newTag]).status == .notModified)

            // The same edit again with the ETag read before it: refused, nothing changes.
            let stale = try await client.send(.put, "/v1/console/publishers/pub-news", json: #"{"name": "Stale"}"#, headers: headers)
            #expect(stale.status == .preconditionFailed)
            #expect(stale.errorCode == "precondition_failed")
        }
    }

    @Test("apps, websites and providers created, changed and deleted in the console reach /v1/config and the web CMP's configuration",
          arguments: StoreEngine.configured)
    func everyKindOfEntryApplies(engine: StoreEngine) async throws {
        let fixture = try await ConfigFixture(engine)
        let owner = try await fixture.console.createOperator(.owner)
        let directory = fixture.server.consentd.publisherDirectory
        let newApp = "com.example.radio"
        let radioKey = try await fixture.server.consentd.keys.create(appId: newApp, kind: .publishable, label: "radio").token
        try await fixture.server.live { client in
            let session = try #require(ConsoleSessionCookie(try await client.signIn(owner, ConsoleAuthTests.password)))
            let headers = session.stateChangingHeaders
            #expect(try await client.send(.get, "/v1/config?publisherIds=pub-games", bearer: radioKey).errorCode == "publisher_not_for_app")
            let app = try await client.send(.post, "/v1/console/apps", json: #"{"appId": "\#(newApp)", "publisherIds": ["pub-games"]}"#,
                                            headers: headers)
            #expect(app.status == .created)
            #expect(try await client.send(.get, "/v1/config?publisherIds=pub-games", bearer: radioKey).status == .ok)

            let provider = try await client.send(.post, "/v1/console/publishers/pub-games/ad-tech-providers",
                                                 json: #"{"id": 2000, "name": "New Ads", "privacyPolicyUrl": "https://new.example/p"}"#, headers: headers)
            #expect(provider.status == .created)
            let config = try await client.send(.get, "/v1/config?publisherIds=pub-games", bearer: radioKey)
            #expect((config.object["adTechProviders"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } == [89, 1301, 2000])
            #expect(try await client.send(.delete, "/v1/console/publishers/pub-games/ad-tech-providers/1301", headers: headers).status == .noContent)
            #expect(directory.current.publishers["pub-games"]?.adTechProviders.map(\.id) == [89, 2000])

            let site = try await client.send(.post, "/v1/console/websites", json: """
                {"appId": "radio.example", "name": "Radio", "privacyPolicyUrl": "https://radio.example/privacy", "publisherIds": ["pub-news"],
                 "notice": {"layout": "banner"}}
                """, headers: headers)
            #expect(site.status == .created)
            #expect(directory.forWebsites.websites["radio.example"]?.layout == .banner)
            #expect(try await client.send(.delete, "/v1/console/websites/radio.example", headers: headers).status == .noContent)
            #expect(directory.current.websites["radio.example"] == nil)

            #expect(try await client.send(.delete, "/v1/console/apps/\(newApp)", headers: headers).status == .noContent)
            #expect(try await client.send(.get, "/v1/config?publisherIds=pub-games", bearer: radioKey).errorCode == "publisher_not_for_app")

            let whole = try await client.send(.get, "/v1/console/config", headers: session.cookieHeader)
            #expect(whole.status == .ok)
            #expect((whole.object["publishers"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["pub-games", "pub-news"])
        }
    }

    // MARK: Validation

    @Test("each route refuses what the YAML reader refuses, with the same message, naming the field of the body",
          arguments: StoreEngine.configured)
    func validationNamesTheField(engine: StoreEngine) async throws {
        let fixture = try await ConfigFixture(engine)
        let editor = try await fixture.console.createOperator(.editor)
        let before = fixture.server.consentd.publisherDirectory.current
        try await fixture.server.live { client in
            let session = try #require(ConsoleSessionCookie(try await client.signIn(editor, ConsoleAuthTests.password)))
            let headers = session.stateChangingHeaders
            func refusal(_ method: HTTPRequest.Method, _ path: String, _ json: String) async throws -> (Int, String?, String?, String) {
                let response = try await client.send(method, path, json: json, headers: headers)
                let message = (response.object["error"] as? [String: Any])?["message"] as? String ?? ""
                return (Int(response.status.code), response.errorCode, response.errorField, message)
            }
            // Publishers.
            var r = try await refusal(.post, "/v1/console/publishers", #"{"id": "pub-x", "name": "X", "vendorIds": [0]}"#)
            #expect(r.0 == 400 && r.1 == "invalid_field" && r.2 == "vendorIds[0]")
            #expect(r.3 == "vendorIds[0] is 0; it must lie in 1...65535")
            r = try await refusal(.post, "/v1/console/publishers", #"{"id": "pub-x"}"#)
            #expect(r.0 == 400 && r.1 == "missing_field" && r.2 == "name")
            r = try await refusal(.post, "/v1/console/publishers", #"{"id": "pub-x", "name": "X", "colour": "red"}"#)
            #expect(r.0 == 400 && r.2 == "colour" && r.3.contains("is not a known setting"))
            r = try await refusal(.post, "/v1/console/publishers", #"{"id": "pub-x", "name": "X", "us": {"mspaMode": "optOut"}}"#)
            #expect(r.0 == 400 && r.2 == "us.mspaMode")
            r = try await refusal(.post, "/v1/console/publishers", #"{"id": "pub-x", "name": "X", "apps": ["a"]}"#)
            #expect(r.0 == 400 && r.2 == "apps")
            r = try await refusal(.post, "/v1/console/publishers", #"{"id": "pub-news", "name": "Again"}"#)
            #expect(r.0 == 409 && r.1 == "already_exists" && r.2 == "id")
            r = try await refusal(.put, "/v1/console/publishers/pub-news", #"{"id": "pub-other", "name": "X"}"#)
            #expect(r.0 == 400 && r.2 == "id")
            r = try await refusal(.put, "/v1/console/publishers/pub-nobody", #"{"name": "X"}"#)
            #expect(r.0 == 404 && r.1 == "not_found")
            r = try await refusal(.post, "/v1/console/publishers", "[1, 2]")
            #expect(r.0 == 400 && r.1 == "invalid_field")
            // A body cannot reach beyond its own entry.
            r = try await refusal(.post, "/v1/console/publishers", #"{"id": "pub-x", "name": "X"}], "websites": [{"appId": "a"}"#)
            #expect(r.0 == 400)
            // Ad-tech providers.
            r = try await refusal(.post, "/v1/console/publishers/pub-news/ad-tech-providers", #"{"id": 5, "name": "P", "privacyPolicyUrl": "ftp://x"}"#)
            #expect(r.0 == 400 && r.2 == "privacyPolicyUrl" && r.3 == "privacyPolicyUrl must be an http(s) URL")
            r = try await refusal(.post, "/v1/console/publishers/pub-news/ad-tech-providers", #"{"id": "x", "name": "P", "privacyPolicyUrl": "https://p.example"}"#)
            #expect(r.0 == 400 && r.2 == "id" && r.3 == "id must be an integer")
            r = try await refusal(.post, "/v1/console/publishers/pub-news/ad-tech-providers", #"{"id": 89, "name": "P", "privacyPolicyUrl": "https://p.example"}"#)
            #expect(r.0 == 409 && r.1 == "already_exists")
            // Apps.
            r = try await refusal(.post, "/v1/console/apps", #"{"appId": "bad id", "publisherIds": ["pub-news"]}"#)
            #expect(r.0 == 400 && r.2 == "appId")
            r = try await refusal(.post, "/v1/console/apps", #"{"appId": "com.x", "publisherIds": ["pub-news", "pub-none"]}"#)
            #expect(r.0 == 400 && r.2 == "publisherIds[1]" && r.3.contains("names publisher pub-none, which is not listed under publishers"))
            r = try await refusal(.post, "/v1/console/apps", #"{"appId": "com.x", "publisherIds": []}"#)
            #expect(r.0 == 400 && r.2 == "publisherIds")
            r = try await refusal(.post, "/v1/console/apps", #"{"appId": "com.x"}"#)
            #expect(r.0 == 400 && r.1 == "missing_field" && r.2 == "publisherIds")
            // Websites.
            r = try await refusal(.post, "/v1/console/websites",
                                  #"{"appId": "w.example", "name": "W", "privacyPolicyUrl": "https://w.example/p", "publisherIds": ["pub-none"]}"#)
            #expect(r.0 == 400 && r.2 == "publisherIds[0]" && r.3 == "publisherIds[0] names publisher pub-none, which is not listed under publishers")
            r = try await refusal(.post, "/v1/console/websites", #"""
                {"appId": "w.example", "name": "W", "privacyPolicyUrl": "https://w.example/p", "publisherIds": ["pub-news"],
                 "notice": {"theme": {"light": {"text": "#ffffff", "background": "#ffffff"}}}}
                """#)
            #expect(r.0 == 400 && r.2 == "notice.theme")
            r = try await refusal(.post, "/v1/console/websites", #"""
                {"appId": "w.example", "name": "W", "privacyPolicyUrl": "https://w.example/p", "publisherIds": ["pub-news"], "notice": {"layout": "side"}}
                """#)
            #expect(r.0 == 400 && r.2 == "notice.layout" && r.3.hasPrefix("notice.layout is side; expected one of:"))
            // A change that leaves the configuration broken: 409 naming what would break.
            #expect(try await client.send(.post, "/v1/console/websites", json: """
                {"appId": "w.example", "name": "W", "privacyPolicyUrl": "https://w.example/p", "publisherIds": ["pub-games"]}
                """, headers: headers).status == .created)
            r = try await refusal(.delete, "/v1/console/publishers/pub-games", "{}")
            #expect(r.0 == 409 && r.1 == "configuration_conflict")
            #expect(r.3.contains("names publisher pub-games"))
        }
        #expect(fixture.server.consentd.publisherDirectory.current.publishers == before.publishers, "no refused change applied")
    }

    // MARK: Access

    @Test("analysts and support are refused every configuration and key route; editors and owners may use them; no session gets 401",
          arguments: StoreEngine.configured)
    func rolesAreRefused(engine: StoreEngine) async throws {
        let fixture = try await ConfigFixture(engine)
        var emails: [OperatorRole: String] = [:]
        for role in OperatorRole.allCases { emails[role] = try await fixture.console.createOperator(role) }
        let created = emails
        let routes = ConsoleAccess.table.keys.filter { ["config", "publishers", "apps", "websites", "keys"].contains(Self.resource($0)) }.sorted()
        #expect(routes.count == 23)
        try await fixture.server.live { client in
            for role in OperatorRole.allCases {
                let session = try #require(ConsoleSessionCookie(try await client.signIn(created[role]!, ConsoleAuthTests.password)))
                for route in routes {
                    let parts = route.split(separator: " ")
                    let method = HTTPRequest.Method(rawValue: String(parts[0]))!
                    let path = String(parts[1]).replacingOccurrences(of: "{publisherId}", with: "pub-news")
                        .replacingOccurrences(of: "{providerId}", with: "89").replacingOccurrences(of: "{appId}", with: "com.example.news")
                        .replacingOccurrences(of: "{keyId}", with: "nonexistent1")
                    let response = try await client.send(method, path, json: method == .get || method == .delete ? nil : "{}",
                                                          headers: session.stateChangingHeaders)
                    if [.analyst, .support].contains(role) {
                        #expect(response.status == .forbidden, "\(role) \(route)")
                        #expect(response.errorCode == "forbidden", "\(role) \(route)")
                    } else {
                        #expect(response.status != .forbidden && response.status != .unauthorized, "\(role) \(route): \(response.status)")
                    }
                    if role == .analyst {
                        #expect(try await client.send(method, path).status == .unauthorized, "no session: \(route)")
                    }
                }
                // Everything the editor's requests above deleted or changed was refused or 404: the owner's run starts alike.
            }
        }
    }

    static func resource(_ route: String) -> String {
        let path = route.split(separator: " ")[1]
        return path.split(separator: "/").dropFirst(2).first.map(String.init) ?? ""
    }

    @Test("a change without the session's CSRF token, or from another origin, is refused and changes nothing", arguments: StoreEngine.configured)
    func csrfIsRequired(engine: StoreEngine) async throws {
        let fixture = try await ConfigFixture(engine)
        let owner = try await fixture.console.createOperator(.owner)
        try await fixture.server.live { client in
            let session = try #require(ConsoleSessionCookie(try await client.signIn(owner, ConsoleAuthTests.password)))
            let body = #"{"appId": "com.csrf", "publisherIds": ["pub-news"]}"#
            let missing = try await client.send(.post, "/v1/console/apps", json: body, headers: session.cookieHeader)
            #expect(missing.status == .forbidden && missing.errorCode == "csrf_refused")
            var other = session.stateChangingHeaders
            other[.origin] = "https://attacker.example"
            #expect(try await client.send(.post, "/v1/console/apps", json: body, headers: other).errorCode == "csrf_refused")
            #expect(try await client.send(.post, "/v1/console/keys", json: #"{"appId": "com.csrf", "kind": "secret"}"#,
                                          headers: session.cookieHeader).errorCode == "csrf_refused")
            #expect(try await client.send(.delete, "/v1/console/publishers/pub-news", headers: session.cookieHeader).errorCode == "csrf_refused")
            #expect(try await client.send(.get, "/v1/console/apps/com.csrf", headers: session.cookieHeader).status == .notFound)
        }
        #expect(fixture.server.consentd.publisherDirectory.current.publishers["pub-news"] != nil)
    }

    @Test("every change and every key created or revoked is in the audit log: who, what, when, from where", arguments: StoreEngine.configured)
    func auditRows(engine: StoreEngine) async throws {
        let fixture = try await ConfigFixture(engine)
        let editor = try await fixture.console.createOperator(.editor)
        let operatorId = try #require(try await fixture.operatorId(editor))
        let keyId = Mutex<String?>(nil)
        try await fixture.server.live { client in
            let signedIn = try await client.signIn(editor, ConsoleAuthTests.password)
            let session = try #require(ConsoleSessionCookie(signedIn))
            let headers = session.stateChangingHeaders
            #expect(try await client.send(.post, "/v1/console/apps", json: #"{"appId": "com.audit", "publisherIds": ["pub-news"]}"#,
                                          headers: headers).status == .created)
            #expect(try await client.send(.put, "/v1/console/apps/com.audit", json: #"{"publisherIds": ["pub-games"]}"#, headers: headers).status == .ok)
            #expect(try await client.send(.delete, "/v1/console/apps/com.audit", headers: headers).status == .noContent)
            let key = try await client.send(.post, "/v1/console/keys", json: #"{"appId": "com.audit", "kind": "secret", "label": "CRM"}"#, headers: headers)
            #expect(key.status == .created)
            let id = try #require((key.object["key"] as? [String: Any])?["keyId"] as? String)
            keyId.withLock { $0 = id }
            #expect(try await client.send(.delete, "/v1/console/keys/\(id)", headers: headers).status == .noContent)
        }
        let entries = try await fixture.auditEntries().filter { $0.operatorId == operatorId }
        let id = try #require(keyId.withLock { $0 })
        let actions = entries.reversed().map { "\($0.action) \($0.target ?? "")" }
        #expect(actions == ["sign_in \(editor)", "configuration_created app com.audit", "configuration_updated app com.audit",
                            "configuration_deleted app com.audit", "key_created \(id) secret com.audit", "key_revoked \(id)"])
        #expect(entries.allSatisfy { $0.address == "127.0.0.1" })
    }

    // MARK: Keys

    @Test("a key created in the console shows its secret once; the list never does, and shows its last use; revoking stops it",
          arguments: StoreEngine.configured)
    func keysInTheConsole(engine: StoreEngine) async throws {
        let fixture = try await ConfigFixture(engine)
        let editor = try await fixture.console.createOperator(.editor)
        let keys = fixture.server.consentd.keys
        try await fixture.server.live { client in
            let session = try #require(ConsoleSessionCookie(try await client.signIn(editor, ConsoleAuthTests.password)))
            let created = try await client.send(.post, "/v1/console/keys", json: #"{"appId": "com.example.news", "kind": "publishable", "label": "iOS"}"#,
                                                headers: session.stateChangingHeaders)
            #expect(created.status == .created)
            #expect(created.headers[.cacheControl] == "no-store")
            let secret = try #require(created.object["secret"] as? String)
            let keyId = try #require((created.object["key"] as? [String: Any])?["keyId"] as? String)
            #expect(secret.hasPrefix("ck_pub_\(keyId)_"))

            let listed = try await client.send(.get, "/v1/console/keys?appId=com.example.news", headers: session.cookieHeader)
            let listText = String(buffer: listed.body)
            #expect(!listText.contains(String(secret.suffix(32))))
            func entry(_ response: TestResponse) -> [String: Any]? {
                (response.object["keys"] as? [[String: Any]])?.first { $0["keyId"] as? String == keyId }
            }
            #expect(entry(listed)?["lastUsedAt"] == nil)
            #expect(entry(listed)?["kind"] as? String == "publishable")

            #expect(try await client.send(.get, "/v1/config?publisherIds=pub-news", bearer: secret).status == .ok)
            let used = try await client.send(.get, "/v1/console/keys", headers: session.cookieHeader)
            #expect(entry(used)?["lastUsedAt"] is String, "shown from memory before any write")

            #expect(try await client.send(.delete, "/v1/console/keys/\(keyId)", headers: session.stateChangingHeaders).status == .noContent)
            #expect(try await client.send(.get, "/v1/config?publisherIds=pub-news", bearer: secret).status == .unauthorized)
            #expect(try await client.send(.delete, "/v1/console/keys/nokeyhere123", headers: session.stateChangingHeaders).status == .notFound)
            let bad = try await client.send(.post, "/v1/console/keys", json: #"{"appId": "com.example.news", "kind": "master"}"#,
                                            headers: session.stateChangingHeaders)
            #expect(bad.status == .badRequest && bad.errorField == "kind")
            let noApp = try await client.send(.post, "/v1/console/keys", json: #"{"kind": "secret"}"#, headers: session.stateChangingHeaders)
            #expect(noApp.errorCode == "missing_field" && noApp.errorField == "appId")
        }
        _ = keys
    }

    @Test("last-used times are noted in memory and written in one go: a key's row is written once however many requests it made",
          arguments: StoreEngine.configured)
    func lastUsedIsWrittenInBatches(engine: StoreEngine) async throws {
        try await withStore(engine) { _, database in
            let keys = APIKeys(database: database)
            let app = uniqueAppId()
            let (key, token) = try await keys.create(appId: app, kind: .secret, label: "backend")
            let start = Date(timeIntervalSince1970: 1_800_000_000)
            for second in 0..<100 { _ = try await keys.authenticate(token, now: start.addingTimeInterval(Double(second))) }
            func stored() async throws -> Int64? {
                try await database.read { db in
                    try await db.raw("SELECT last_used_at_ms FROM api_keys WHERE key_id = \(bind: key.keyId)").first()?
                        .decode(column: "last_used_at_ms", as: Int64?.self)
                }
            }
            #expect(try await stored() == nil, "no write per request")
            #expect(try await keys.list(appId: app).first?.lastUsedAt == "2027-01-15T08:01:39.000Z")
            #expect(try await keys.flushUsage() == 1)
            #expect(try await stored() == 1_800_000_099_000)
            #expect(try await keys.flushUsage() == 0, "nothing new to write")
            // Another process (a new APIKeys) reads the written time.
            #expect(try await APIKeys(database: database).list(appId: app).first?.lastUsedAt == "2027-01-15T08:01:39.000Z")
        }
    }

    @Test("noting a key's use costs well under 1% of an append through POST /v1/consents")
    func lastUsedCostsNothingOnTheAppendPath() async throws {
        var usage = KeyUsage()
        let notes = 1_000_000
        let clock = ContinuousClock()
        let mutex = Mutex(usage)
        let noting = clock.measure {
            for index in 0..<notes { mutex.withLock { $0.note("key\(index & 7)", at: Int64(index)) } }
        }
        usage = mutex.withLock { $0 }
        #expect(usage.latest.count == 8)
        let server = try await TestServer.make()
        let appends = 200
        let appending = Mutex(Duration.zero)
        try await server.test { client in
            let started = clock.now
            for _ in 0..<appends {
                let response = try await client.send(.post, "/v1/consents", bearer: server.secret, json: eventJSON())
                #expect(response.status == .created || response.status == .ok)
            }
            appending.withLock { $0 = clock.now - started }
        }
        let perNote = noting / notes, perAppend = appending.withLock { $0 } / appends
        print("key usage: one note \(perNote), one POST /v1/consents \(perAppend)")
        #expect(perNote * 100 < perAppend)
    }
}

/// A console fixture whose configuration is in the database: TestServer's publishers imported.
struct ConfigFixture {
    let console: ConsoleFixture
    var server: TestServer { console.server }

    init(_ engine: StoreEngine) async throws {
        console = try await ConsoleFixture(engine)
        try await console.server.consentd.configurationStore.replaceAll(
            with: ConfigurationDocument(console.server.consentd.publishers), source: "test")
    }

    func operatorId(_ email: String) async throws -> String? {
        try await server.consentd.console.operators.credentials(email: email)?.account.operatorId
    }

    /// The newest 500 audit entries, newest first (read after the server closed its database).
    func auditEntries() async throws -> [AuditEntry] {
        let database = try await Database.open(url: server.consentd.settings.databaseURL, logger: .init(label: "test"))
        do {
            let entries = try await AuditLog(database: database).page(limit: 500)
            await database.close()
            return entries
        } catch {
            await database.close()
            throw error
        }
    }
}
