// @ts-check
/* ConsentKit consent notice (protocol 1, see docs/notice-protocol.md), its entry: the last of the
 * notice's scripts (notice-model.js lists them).
 *
 * The host calls window.ConsentKitNotice.configure(document) with one document (or, from a page
 * of another origin, posts {protocol: 1, type: 'configure', document}); the page renders the
 * notice from it and posts back exactly one result (or a loadError). Every UI string comes from
 * document.texts. Timings (performance.now()) are kept in ConsentKitNotice.metrics and sent in
 * the messages.
 *
 * The presentation: the document's layout, resolved ("auto": a sheet below 600 CSS px wide, a
 * modal above, again whenever the width crosses it), goes on <html> as data-layout for
 * notice-layout.css; its font stack and button style as --ck-font and data-button-style.
 */

/**
 * window.ConsentKitNotice.
 * @typedef {{
 *   configure: (input: any) => boolean, lastMessage: NoticeMessage | null, metrics: Object<string, any>
 * }} NoticeAPI
 */

(function () {
  'use strict';

  var PROTOCOL = NoticeModel.PROTOCOL, isObject = NoticeModel.isObject;
  var now = NoticeDom.now, round1 = NoticeDom.round1;

  /** @type {NoticeAPI} */
  var api = { configure: configure, lastMessage: null, metrics: {} };
  /** The view of the document configured last; null before the first. @type {NoticeView | null} */
  var view = null;
  // Where a framed page's messages go: the origin of the `configure` message, else the page's own
  // (its parent then reached configure() directly, so it is of the same origin).
  /** @type {string | null} */
  var replyOrigin = null;

  var LAYOUTS = ['modal', 'banner', 'sheet', 'fullscreen'];
  // A CSS font stack as NoticeTheme.isFontStack takes it: family names, the last a generic one.
  var FONT_STACK = /^\s*(?:(?:"[\w -]+"|'[\w -]+'|[\w -]+)\s*,\s*)*(?:serif|sans-serif|monospace|cursive|fantasy|system-ui|ui-serif|ui-sans-serif|ui-monospace|ui-rounded)\s*$/;
  var wide = window.matchMedia ? window.matchMedia('(min-width: 600px)') : null;
  /** The layout the document asks for: one of LAYOUTS, or 'auto' (also for a missing or unknown one). */
  var wantedLayout = 'auto';

  /** Puts the layout on <html>, resolving 'auto' from the width now. */
  function showLayout() {
    var layout = wantedLayout !== 'auto' ? wantedLayout : !wide ? 'fullscreen' : wide.matches ? 'modal' : 'sheet';
    document.documentElement.setAttribute('data-layout', layout);
  }
  if (wide) {
    var onWidth = function () { if (wantedLayout === 'auto') showLayout(); };
    if (wide.addEventListener) wide.addEventListener('change', onWidth); else wide.addListener(onWidth);
  }

  /**
   * The document's presentation beyond the colours: its layout, font stack and button style.
   * What is missing or malformed falls back to the default (auto, the system font, filled).
   * @param {any} d
   */
  function applyPresentation(d) {
    var root = document.documentElement;
    wantedLayout = LAYOUTS.indexOf(d.layout) >= 0 ? d.layout : 'auto';
    showLayout();
    var theme = isObject(d.theme) ? d.theme : {};
    if (typeof theme.fontFamily === 'string' && theme.fontFamily.length <= 200 && FONT_STACK.test(theme.fontFamily)) {
      root.style.setProperty('--ck-font', theme.fontFamily);
    } else {
      root.style.removeProperty('--ck-font');
    }
    root.setAttribute('data-button-style', theme.buttonStyle === 'outlined' ? 'outlined' : 'filled');
  }

  /** @returns {string} */
  function parentOrigin() {
    var origin = replyOrigin || location.origin;
    // An opaque origin ("null": a file: URL, a sandboxed frame) cannot be named as a target.
    return origin && origin !== 'null' ? origin : '*';
  }

  // The first transport that exists (WKWebView handler, else the parent frame), and always a
  // CustomEvent on window.
  /** @param {NoticeMessage} message */
  function post(message) {
    api.lastMessage = message;
    var webkit = /** @type {any} */ (window).webkit;
    try {
      if (typeof webkit !== 'undefined' && webkit && webkit.messageHandlers && webkit.messageHandlers.consentkit) {
        webkit.messageHandlers.consentkit.postMessage(message);
      } else if (window.parent && window.parent !== window) {
        window.parent.postMessage(message, parentOrigin());
      }
    } catch (e) { /* a broken host transport must not stop the event below */ }
    window.dispatchEvent(new CustomEvent('consentkit:message', { detail: message }));
  }

  /**
   * Shows the notice of one document (a JSON object or its text); false, after a loadError, when
   * it cannot be shown.
   * @param {any} input
   * @returns {boolean}
   */
  function configure(input) {
    var startedAt = now();
    if (view) view.close();
    view = null; api.metrics = {};

    var d = input;
    if (typeof input === 'string') {
      try { d = JSON.parse(input); } catch (e) { d = undefined; }
    }
    var problem = NoticeModel.validate(d) || (d.mode === 'us' ? NoticeUS.validate(d) : null);
    if (problem) {
      var root = document.getElementById('ck-root');
      if (root) root.textContent = '';
      post({ protocol: PROTOCOL, type: 'loadError', code: problem[0], message: problem[1] });
      return false;
    }
    var first = d.mode === 'google' ? 'g1' : d.mode === 'us' ? NoticeUS.firstLayer(d) : (d.startLayer === 'purposes' ? 2 : 1);
    /** @type {NoticeSession | null} */
    var session = null;
    try {
      var doc = NoticeModel.normalise(d);
      var model = NoticeModel.buildModel(doc);
      session = {
        doc: doc, model: model, choice: NoticeModel.initialChoices(doc, model), metrics: api.metrics,
        startedAt: startedAt, shownAt: startedAt, onResult: post
      };
      var title = doc.texts['noticeTitle'];
      if (typeof title === 'string') document.title = title;
      NoticeDom.applyTheme(doc.theme);
      applyPresentation(d);
      view = NoticeLayers.create(session);
      view.open(first);
    } catch (e) {
      // A document that passed validation but cannot be rendered: nothing stays on screen.
      if (view) view.close();
      view = null;
      post({ protocol: PROTOCOL, type: 'loadError', code: 'malformed_document', message: 'The document could not be rendered: ' + e });
      return false;
    }
    session.shownAt = now();
    api.metrics.renderMs = round1(session.shownAt - startedAt);
    post({ protocol: PROTOCOL, type: 'ready', layer: first === 2 ? 2 : 1, renderMs: api.metrics.renderMs });
    warmUpIntl();
    return true;
  }

  // The first layer formats no number with ICU (NoticeDom's num()); the other layers do
  // (durations, retention, counts from 1000 on). A renderer's first Intl.NumberFormat costs tens of
  // milliseconds, paid once the notice is on screen and the page is idle, not by the first paint
  // nor by the first layer opened after it. In a framed page on loopback the publisher's page
  // shares this thread, so not before its next frame either.
  var warmedUp = false;
  function warmUpIntl() {
    if (warmedUp) return;
    warmedUp = true;
    var warm = function () {
      try { new Intl.NumberFormat().format(1); } catch (e) { /* no Intl: plain numbers */ }
    };
    var idle = /** @type {any} */ (window).requestIdleCallback;
    if (typeof idle === 'function') idle(warm, { timeout: 1000 }); else setTimeout(warm, 100);
  }

  // Focus stays in the dialog while it is open; Escape closes it when dismissal is allowed.
  document.addEventListener('keydown', function (e) { if (view) view.onKeyDown(e); });
  document.addEventListener('focusin', function (e) { if (view && view.isOpen()) view.onFocusIn(e); });

  // A page of another origin (a website's CMP, consentd's /cmp/cmp.js) cannot reach configure()
  // across the frame boundary; it posts {protocol: 1, type: 'configure', document} instead
  // (notice-host.js keeps one that came while the scripts loaded), and the page's messages go back
  // to that origin only.
  NoticeHost.onConfigure(function (documentObject, origin) {
    replyOrigin = origin;
    configure(documentObject);
  });

  window.ConsentKitNotice = api;
})();
