#if canImport(UIKit) && canImport(WebKit)
import ConsentKit
import Foundation
import SwiftUI
import UIKit
import WebKit

/// The consent notice on iOS: ConsentKitUI's page in a `WKWebView`, driven by a
/// ``NoticeSession`` (which builds the document and records the choice through the manager;
/// everything but the drawing, and tested on Linux in Chromium). Main thread only.
///
/// ```swift
/// let notice = ConsentNotice(manager: consent, settings: NoticeSettings(
///     publisherName: "Example News", privacyPolicyURL: URL(string: "https://example.com/privacy")))
/// await notice.presentIfRequired(from: viewController)      // at launch, like UMP's loadAndPresentIfRequired
/// await notice.presentPreferences(from: viewController)     // the app's "Privacy and cookie settings"
/// ```
/// It is also the ``ConsentKit/NoticePresenting`` that ``ConsentKit/ConsentFlow`` shows before or after the ATT prompt.
@MainActor
public final class ConsentNotice: NoticePresenting {
    /// The manager decisions are recorded through.
    public let manager: ConsentManager
    /// The publisher's notice settings.
    public let settings: NoticeSettings
    private let host: @MainActor () -> UIViewController?

    /// A notice; `host` finds the view controller to present from when ``ConsentFlow`` asks
    /// (the key window's top-most one by default).
    public init(manager: ConsentManager, settings: NoticeSettings, host: (@MainActor () -> UIViewController?)? = nil) {
        self.manager = manager
        self.settings = settings
        self.host = host ?? { ConsentNotice.topViewController() }
    }

    /// Shows the notice when the manager's ask rules say so; nil when they do not. The choice is
    /// recorded through the manager either way, so callers may ignore the outcome;
    /// ``ConsentKit/NoticeOutcome/failed(_:)`` says the notice could not be shown (offline on a
    /// first launch without a vendor list snapshot, say), which is not a dismissal. It first
    /// awaits ``ConsentKit/ConsentManager/refreshed()`` (the region, the vendor list and, for a
    /// signed-in user, the first merge with their subject, bounded).
    @discardableResult
    public func presentIfRequired(from controller: UIViewController) async -> NoticeOutcome? {
        await manager.refreshed()
        let verdict = manager.askVerdict()
        guard verdict.shouldAsk else { return nil }
        return await present(NoticeRequest(reason: verdict, allowsDismissal: false), from: controller)
    }

    /// Opens the notice on the second layer with the present choices (the app's "Privacy and
    /// cookie settings" entry); it may be closed without a change.
    @discardableResult
    public func presentPreferences(from controller: UIViewController) async -> NoticeOutcome {
        await present(NoticeRequest(reason: manager.askVerdict(), allowsDismissal: true, isUserInitiated: true), from: controller)
    }

    /// ``ConsentKit/NoticePresenting``: shows the notice from the host view controller.
    public func present(_ request: NoticeRequest) async -> NoticeOutcome {
        guard let controller = host() else {
            return Self.failed(.failed("no view controller to present the notice from"), log: manager.configuration.log)
        }
        return await present(request, from: controller)
    }

    private func present(_ request: NoticeRequest, from controller: UIViewController) async -> NoticeOutcome {
        let session: NoticeSession
        do {
            session = try NoticeSession(manager: manager, settings: settings, request: request)
        } catch {
            return Self.failed(NoticeOutcome(error), log: manager.configuration.log)
        }
        return await withCheckedContinuation { continuation in
            let notice = NoticeViewController(session: session) { continuation.resume(returning: $0) }
            controller.present(notice, animated: true)
        }
    }

    /// Logs a failed outcome's reason as a warning and returns the outcome.
    nonisolated static func failed(_ outcome: NoticeOutcome, log: ConsentLog) -> NoticeOutcome {
        if case .failed(let reason) = outcome { log(.warning, "ConsentNotice: \(reason)") }
        return outcome
    }

    private static func topViewController() -> UIViewController? {
        let window = UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }
            .flatMap(\.windows).first { $0.isKeyWindow }
        var top = window?.rootViewController
        while let presented = top?.presentedViewController { top = presented }
        return top
    }
}

/// The web view showing one ``NoticeSession``; it dismisses itself when the user decides.
@MainActor
final class NoticeViewController: UIViewController, WKNavigationDelegate, WKScriptMessageHandler {
    private let session: NoticeSession
    private var completion: ((NoticeOutcome) -> Void)?
    private let webView: WKWebView
    private let dismissesItself: Bool

    /// `dismissesItself`: false when SwiftUI presents it (the binding closes it).
    init(session: NoticeSession, dismissesItself: Bool = true, completion: @escaping (NoticeOutcome) -> Void) {
        self.session = session
        self.completion = completion
        self.dismissesItself = dismissesItself
        let configuration = WKWebViewConfiguration()
        configuration.websiteDataStore = .nonPersistent()
        webView = WKWebView(frame: .zero, configuration: configuration)
        super.init(nibName: nil, bundle: nil)
        configuration.userContentController.add(WeakMessageHandler(self), name: "consentkit")
        modalPresentationStyle = .overFullScreen
        isModalInPresentation = !session.document.allowsDismissal
    }

    @available(*, unavailable)
    required init?(coder: NSCoder) { nil }

    override func loadView() {
        // Transparent: the page draws its layout (a card, a sheet, a banner) over the app and dims
        // it; only the full-screen layout covers it (docs/notice-protocol.md, "Layouts").
        webView.isOpaque = false
        webView.backgroundColor = .clear
        webView.scrollView.backgroundColor = .clear
        // The page pads itself with env(safe-area-inset-*) (viewport-fit=cover).
        webView.scrollView.contentInsetAdjustmentBehavior = .never
        webView.navigationDelegate = self
        webView.accessibilityViewIsModal = true
        view = webView
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        NotificationCenter.default.addObserver(
            self, selector: #selector(applyTextSize), name: UIContentSizeCategory.didChangeNotification, object: nil)
        guard let page = NoticeResources.page, let folder = NoticeResources.directory else {
            return finish(.failed("the notice page is missing from ConsentKitUI's resources"))
        }
        webView.loadFileURL(page, allowingReadAccessTo: folder)
    }

    /// Every orientation the app allows (a fixed one crashed other CMPs' forms in locked apps).
    override var supportedInterfaceOrientations: UIInterfaceOrientationMask {
        presentingViewController?.supportedInterfaceOrientations ?? .all
    }

    func webView(_ webView: WKWebView, didFinish navigation: WKNavigation!) {
        applyTextSize()
        webView.evaluateJavaScript("ConsentKitNotice.configure(\(session.documentJSON))")
    }

    func webView(_ webView: WKWebView, didFailProvisionalNavigation navigation: WKNavigation!, withError error: any Error) {
        finish(.failed("the notice page did not load: \(error.localizedDescription)"))
    }

    func webView(_ webView: WKWebView, didFail navigation: WKNavigation!, withError error: any Error) {
        finish(.failed("the notice page did not load: \(error.localizedDescription)"))
    }

    func webViewWebContentProcessDidTerminate(_ webView: WKWebView) {
        finish(.failed("the notice page's web content process ended"))
    }

    /// Dynamic Type reaches the page as text zoom.
    @objc private func applyTextSize() {
        let percent = Int((UIFontMetrics.default.scaledValue(for: 100)).rounded())
        webView.evaluateJavaScript("document.documentElement.style.webkitTextSizeAdjust = '\(percent)%'")
    }

    func webView(
        _ webView: WKWebView, decidePolicyFor action: WKNavigationAction,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationActionPolicy) -> Void
    ) {
        // Links (privacy policies) open in the browser; the web view shows only the notice.
        guard let url = action.request.url, url.isFileURL else {
            if let url = action.request.url { UIApplication.shared.open(url) }
            return decisionHandler(.cancel)
        }
        decisionHandler(.allow)
    }

    func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
        guard JSONSerialization.isValidJSONObject(message.body),
              let data = try? JSONSerialization.data(withJSONObject: message.body) else { return }
        // The page closes itself after a result or a load error; every outcome ends the showing.
        if let outcome = session.receive(data).outcome { finish(outcome) }
    }

    /// Reports `outcome` once (a failure also to the log) and closes the notice.
    private func finish(_ outcome: NoticeOutcome) {
        guard let completion else { return }
        _ = ConsentNotice.failed(outcome, log: session.manager.configuration.log)
        self.completion = nil
        webView.configuration.userContentController.removeScriptMessageHandler(forName: "consentkit")
        if dismissesItself, let presenter = presentingViewController {
            presenter.dismiss(animated: true) { completion(outcome) }
        } else {
            completion(outcome)
        }
    }
}

/// Breaks the retain cycle WKUserContentController makes with its handlers.
@MainActor
private final class WeakMessageHandler: NSObject, WKScriptMessageHandler {
    weak var target: (any WKScriptMessageHandler)?
    init(_ target: any WKScriptMessageHandler) { self.target = target }
    func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
        target?.userContentController(controller, didReceive: message)
    }
}

extension View {
    /// Presents the consent notice over the view while `isPresented` is true (the app's
    /// "Privacy and cookie settings", or after asking ``ConsentKit/ConsentManager/shouldAsk``).
    /// `onOutcome` hears how it ended, ``ConsentKit/NoticeOutcome/failed(_:)`` included (the
    /// notice could not be shown; `isPresented` goes back to false).
    public func consentNotice(isPresented: Binding<Bool>, notice: ConsentNotice, onOutcome: @escaping (NoticeOutcome) -> Void = { _ in }) -> some View {
        fullScreenCover(isPresented: isPresented) {
            NoticeSheet(notice: notice, isPresented: isPresented, onOutcome: onOutcome).ignoresSafeArea().transparentCover()
        }
    }

    /// A full-screen cover the app shows through, where the system allows it (iOS 16.4), so that
    /// the notice's modal, sheet and banner layouts draw over the dimmed app as the UIKit
    /// presenter's do (`.overFullScreen`, a transparent web view); before it, the cover is opaque.
    fileprivate func transparentCover() -> some View {
        Group {
            if #available(iOS 16.4, *) {
                self.presentationBackground(.clear)
            } else {
                self
            }
        }
    }
}

private struct NoticeSheet: UIViewControllerRepresentable {
    let notice: ConsentNotice
    @Binding var isPresented: Bool
    let onOutcome: (NoticeOutcome) -> Void

    func makeUIViewController(context: Context) -> UIViewController {
        let request = NoticeRequest(reason: notice.manager.askVerdict(), allowsDismissal: true, isUserInitiated: !notice.manager.shouldAsk)
        let session: NoticeSession
        do {
            session = try NoticeSession(manager: notice.manager, settings: notice.settings, request: request)
        } catch {
            let outcome = ConsentNotice.failed(NoticeOutcome(error), log: notice.manager.configuration.log)
            // Not while SwiftUI is updating the view.
            Task { @MainActor in
                isPresented = false
                onOutcome(outcome)
            }
            return UIViewController()
        }
        return NoticeViewController(session: session, dismissesItself: false) { outcome in
            isPresented = false
            onOutcome(outcome)
        }
    }

    func updateUIViewController(_ controller: UIViewController, context: Context) {}
}
#endif
