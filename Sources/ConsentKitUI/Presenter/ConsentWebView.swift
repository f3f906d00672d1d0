#if canImport(WebKit) && canImport(UIKit)
import ConsentKit
import WebKit

/// Keeps one of the app's own `WKWebView`s told of the app's consent (docs/web-consent.md): its
/// pages get a read-only `__tcfapi` (or ConsentKit's web CMP gets the app's choice) from the
/// first line of their own scripts, and an open page hears of each change.
///
/// ```swift
/// let webConsent = ConsentWebView.prepare(webView, manager: consent)   // keep it with the web view
/// webView.load(URLRequest(url: consent.webViewConsent.url(articleURL)))
/// ```
///
/// Only for web content of the app's own service or group, never for third-party sites: a TC
/// string is service- or group-specific. `SFSafariViewController` takes no scripts; pass the
/// URL parameters (``WebViewConsent/url(_:)``) there.
@available(iOS 15.0, *)
@MainActor
public final class ConsentWebView {
    private weak var webView: WKWebView?
    private let manager: ConsentManager
    private var consent: WebViewConsent
    private var script: WKUserScript
    private var token: ObservationToken?

    /// Adds ``WebViewConsent/documentStartScript`` to `webView` as a user script (at document
    /// start, main frame only) and follows `manager`: after each change of the consent or of
    /// GDPR applicability it runs ``WebViewConsent/updateScript`` in the open page and replaces
    /// the user script for the next pages. Keep the returned value as long as the web view;
    /// dropping it stops the updates (the last script stays).
    public static func prepare(_ webView: WKWebView, manager: ConsentManager) -> ConsentWebView {
        ConsentWebView(webView, manager: manager)
    }

    private init(_ webView: WKWebView, manager: ConsentManager) {
        self.webView = webView
        self.manager = manager
        consent = manager.webViewConsent
        script = Self.userScript(consent)
        webView.configuration.userContentController.addUserScript(script)
        token = manager.addListener { [weak self] event in
            switch event {
            case .ready, .consentChanged, .regionDecided:
                Task { @MainActor in self?.refresh() }
            default:
                break
            }
        }
    }

    /// Reads the manager's keys again and, when the consent differs from what the web view has,
    /// tells the open page and replaces the user script (in its place among the app's other
    /// user scripts). Called on the manager's events; call it after changing the keys another way.
    public func refresh() {
        let current = manager.webViewConsent
        guard current != consent, let webView else { return }
        consent = current
        let replacement = Self.userScript(current)
        let controller = webView.configuration.userContentController
        var scripts = controller.userScripts
        if let index = scripts.firstIndex(where: { $0 === script }) {
            scripts[index] = replacement
        } else {
            scripts.append(replacement)
        }
        controller.removeAllUserScripts()
        for each in scripts { controller.addUserScript(each) }
        script = replacement
        webView.evaluateJavaScript(current.updateScript, completionHandler: nil)
    }

    private static func userScript(_ consent: WebViewConsent) -> WKUserScript {
        WKUserScript(source: consent.documentStartScript, injectionTime: .atDocumentStart, forMainFrameOnly: true)
    }
}
#endif
