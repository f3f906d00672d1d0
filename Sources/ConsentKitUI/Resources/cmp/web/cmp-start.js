// @ts-check
/* ConsentKit web CMP, its start: served at the end of /cmp/stub.js and again inside /cmp/cmp.js
 * (whichever runs first with the site's configuration does the work; see cmp-web.js for the tags).
 * consentd serves it from ConsentKitUI's resources (cmp/web/), beside the CMP API (cmp/tcfapi.js).
 *
 * It reads the site's configuration from its own tag (data-key and the other data-* attributes),
 * what this browser keeps (the TC and GPP strings, the visitor's own US choice, the subject), and asks consentd for the page view at
 * once (POST /v1/web/session). From stub.js, that is while the page is still being parsed: an
 * async cmp.js often runs only at DOMContentLoaded, and then finds consentd's answer waiting
 * instead of starting the round trip. cmp-web.js takes the answer, and these helpers, once:
 * window.ConsentKitWebStart is a frozen, non-enumerable, non-replaceable object whose only member,
 * take(), hands them over to the first caller (cmp-web.js) and null after that, so no later page
 * script reaches call(), keep() or credential() through it.
 */
/**
 * What cmp-start.js hands over to cmp-web.js (once, through ConsentKitWebStart.take()).
 * @typedef {{
 *   base: string, config: DOMStringMap, language: string, STRING: string, AC: string, GPP: string, US: string, gpc: () => boolean, keptDays: number | null,
 *   load: (name: string) => string | null, keep: (name: string, value: string | null) => void,
 *   keepSubject: (value: { subjectId: string, subjectToken: string } | null) => void,
 *   credential: () => { credential: string, subjectId?: string, stored?: boolean },
 *   call: (path: string, body: Object<string, any>) => Promise<any>,
 *   usChoice: (text: string | null) => USChoice | null,
 *   session: (reopen: boolean, tcString: string | null, addtlConsent: string | null, gppString: string | null, usText: string | null) => Promise<any>,
 *   fromApp: (app: any, tcString: string | null) => boolean, fromAppUS: (app: any, gppString: string | null) => boolean, appConsent: () => any,
 *   early: { tcString: string | null, addtlConsent: string | null, gppString: string | null, usText: string | null, answer: Promise<any> } | null,
 *   preloadedNotice: () => PreloadedNotice | null, watchStart: (frame: HTMLIFrameElement) => (run: () => void) => void
 * }} WebStart
 */
/**
 * The visitor's own answer to the US notice, before Global Privacy Control (consentd's `usChoice`).
 * @typedef {{ saleOptOut: boolean, sharingOptOut: boolean, targetedAdvertisingOptOut: boolean, sensitiveDataLimited: boolean }} USChoice
 */
/**
 * The notice's frame, loading (hidden) since the start: `whenStarted(run)` runs `run` once its
 * page can be sent the document (at once when it already can).
 * @typedef {{ frame: HTMLIFrameElement, whenStarted: (run: () => void) => void }} PreloadedNotice
 */

(function () {
  'use strict';

  var script = /** @type {HTMLScriptElement | null} */ (document.currentScript);
  if (window.ConsentKitWebStart || !script || !script.dataset.key) return;
  var base = new URL(script.src, location.href).origin;
  var config = script.dataset;
  // The GPP string is kept beside the TC string, under a name of ConsentKit's (the IAB names none);
  // beside it the visitor's own US choice (JSON), before GPC: GPC holds while it is on, and when it
  // is off consentd encodes the GPP string again from this (docs/decisions/0046).
  var STRING = 'euconsent-v2', AC = 'addtl_consent', GPP = 'consentkit-gpp', US = 'consentkit-us-choice', SUBJECT = 'consentkit-subject';
  // How long the cookies keep the choice: 390 days ("up to 13 months"). The one place this figure
  // is written: the notice says it too (cmp-web.js puts it in the document it shows, as
  // choiceStorageDays; null in local storage, which keeps the choice until it changes).
  var KEPT_DAYS = 390;
  var MAX_AGE = KEPT_DAYS * 24 * 3600; // seconds
  var useCookie = config.storage !== 'localStorage';

  /* ---------------------------------------------------------------- storage */

  function readCookie(name) {
    var found = document.cookie.split('; ').filter(function (c) { return c.indexOf(name + '=') === 0; })[0];
    return found ? decodeURIComponent(found.slice(name.length + 1)) : null;
  }
  function writeCookie(name, value) {
    var text = name + '=' + (value === null ? '' : encodeURIComponent(value)) + '; Path=/; SameSite=Lax; Max-Age=' + (value === null ? 0 : MAX_AGE);
    if (config.cookieDomain) text += '; Domain=' + config.cookieDomain;
    if (location.protocol === 'https:') text += '; Secure';
    document.cookie = text;
  }
  function load(name) {
    try { return useCookie ? readCookie(name) : window.localStorage.getItem(name); } catch (e) { return null; }
  }
  function keep(name, value) {
    try {
      if (useCookie) writeCookie(name, value);
      else if (value === null) window.localStorage.removeItem(name);
      else window.localStorage.setItem(name, value);
    } catch (e) { /* storage refused (private mode): the choice holds for this page view only */ }
  }
  // The subject consentd created for this browser, and its token: always first-party local storage,
  // one entry per site, named after the id of the site's key (ck_pub_<keyId>_<secret>), since sites
  // share an origin's storage. A token another key minted (another site's, or one stored before
  // the entries were per key) is never sent: it would speak for that site's subject.
  var keyId = (/^ck_pub_([^_]+)_/.exec(config.key || '') || [])[1] || '';
  var SUBJECT_ENTRY = SUBJECT + ':' + keyId;
  function mintedBy(token) {
    try {
      var body = token.slice(4, token.indexOf('.')).replace(/-/g, '+').replace(/_/g, '/');
      return JSON.parse(atob(body + '==='.slice((body.length + 3) % 4))).key;
    } catch (e) { return null; }
  }
  function storedSubject() {
    var subject;
    try { subject = JSON.parse(window.localStorage.getItem(SUBJECT_ENTRY) || 'null'); } catch (e) { return null; }
    var ours = subject && typeof subject.subjectToken === 'string' && keyId !== '' && mintedBy(subject.subjectToken) === keyId;
    return ours ? subject : null;
  }
  function keepSubject(value) {
    if (!keyId) return;
    try {
      if (value) window.localStorage.setItem(SUBJECT_ENTRY, JSON.stringify(value)); else window.localStorage.removeItem(SUBJECT_ENTRY);
    } catch (e) { /* see keep() */ }
  }

  // The site's own user (a token from its backend) first, then this browser's subject, then the key.
  function credential() {
    if (config.subjectToken) return { credential: config.subjectToken, subjectId: config.subjectId };
    var subject = storedSubject();
    if (subject) return { credential: subject.subjectToken, subjectId: subject.subjectId, stored: true };
    return { credential: config.key };
  }
  // consentd renews the token of this browser's subject in a session's answer (subjectToken).
  function renewed(answer) {
    var subject = storedSubject();
    if (subject && answer && typeof answer.subjectToken === 'string' && answer.subjectToken !== subject.subjectToken) {
      keepSubject({ subjectId: subject.subjectId, subjectToken: answer.subjectToken });
    }
    return answer;
  }

  /* ---------------------------------------------------------------- consentd */

  // JSON sent as text/plain, no custom header and no cookie: a simple request, no preflight.
  function call(path, body) {
    return fetch(base + path, { method: 'POST', mode: 'cors', credentials: 'omit', headers: { 'Content-Type': 'text/plain' }, body: JSON.stringify(body) })
      .then(function (response) {
        return response.json().then(function (json) {
          if (response.ok) return json;
          var error = /** @type {Error & { status?: number }} */ (new Error(json && json.error ? json.error.code + ': ' + json.error.message : 'HTTP ' + response.status));
          error.status = response.status;
          throw error;
        });
      });
  }

  var language = config.language || navigator.language || 'en';
  // The browser's Global Privacy Control signal (its Sec-GPC header says the same to consentd).
  function gpc() { return navigator.globalPrivacyControl === true; }
  // The own US choice as kept (its JSON text), when it is one: four booleans; null otherwise (a
  // page that kept only the GPP string, or text altered since), and consentd reads the GPP string.
  var US_FIELDS = ['saleOptOut', 'sharingOptOut', 'targetedAdvertisingOptOut', 'sensitiveDataLimited'];
  /** @returns {USChoice | null} */
  function usChoice(text) {
    var value;
    try { value = JSON.parse(text || 'null'); } catch (e) { return null; }
    if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
    var choice = /** @type {USChoice} */ ({ saleOptOut: false, sharingOptOut: false, targetedAdvertisingOptOut: false, sensitiveDataLimited: false });
    for (var i = 0; i < US_FIELDS.length; i++) {
      if (typeof value[US_FIELDS[i]] !== 'boolean') return null;
      choice[US_FIELDS[i]] = value[US_FIELDS[i]];
    }
    return choice;
  }
  function session(reopen, tcString, addtlConsent, gppString, usText) {
    return call('/v1/web/session', {
      credential: credential().credential, language: language, tcString: tcString || undefined, addtlConsent: addtlConsent || undefined,
      gppString: gppString || undefined, usChoice: usChoice(usText) || undefined, gpc: gpc(), reopen: reopen,
      debugRegion: config.debugRegion || undefined
    }).then(renewed);
  }

  // The consent an app's web view handed over (ConsentKitUI's WebViewConsent), from the app's own
  // ConsentKitTCF, defined before any page script; null on a page outside an app.
  function appConsent() {
    var api = window.ConsentKitTCF;
    return api && typeof api.appConsent === 'function' ? api.appConsent() : null;
  }
  // ... which this browser does not keep yet: cmp-web.js adopts it first, then opens the session.
  function fromApp(app, tcString) {
    return !!app && app.gdprApplies === true && typeof app.tcString === 'string' && app.tcString !== '' && app.tcString !== tcString;
  }
  // ... or, where GDPR does not apply, the app's US choice: its GPP string with a US section in force
  // (GPP ids 7, usnat, to 27). The page keeps that string as its own, in place of its own US choice
  // (the app's SDK syncs the choice to consentd itself), so consentd reads the choice from it and
  // the notice at collection is not shown a second time.
  function fromAppUS(app, gppString) {
    if (!app || app.gdprApplies === true || !app.gpp || typeof app.gpp.gppString !== 'string' || app.gpp.gppString === '') return false;
    var ids = app.gpp.applicableSections;
    return Array.isArray(ids) && ids.some(function (id) { return typeof id === 'number' && id >= 7 && id <= 27; }) &&
      app.gpp.gppString !== gppString;
  }

  // A visitor who keeps no choice is asked: the notice's frame (its page, style and scripts) loads
  // now, hidden, while consentd answers, instead of after the answer. It is made while the page is
  // still parsed, as a child of <html> (no <body> yet), and stays there: moving a frame reloads it.
  // cmp-web.js shows it with the session's document, or drops it when the visitor is not asked.
  /** @type {PreloadedNotice | null} */
  var preloaded = null;
  function preloadNotice() {
    var frame = document.createElement('iframe');
    frame.style.display = 'none';
    frame.setAttribute('aria-hidden', 'true');
    frame.tabIndex = -1;
    var whenStarted = watchStart(frame);
    frame.src = base + '/notice/notice.html';
    (document.body || document.documentElement).appendChild(frame);
    preloaded = { frame: frame, whenStarted: whenStarted };
  }

  // The notice's page says it has started ({protocol: 1, type: 'started'}, its notice-host.js)
  // before its scripts run; from then on it keeps a document posted to it until it can show it.
  // Watched from before the frame loads: the returned function runs its argument then (or at once).
  function watchStart(frame) {
    var started = false;
    /** @type {Array<() => void>} */
    var waiting = [];
    function listen(e) {
      var m = e.data;
      if (e.source !== frame.contentWindow || e.origin !== base || !m || m.protocol !== 1 || m.type !== 'started') return;
      window.removeEventListener('message', listen);
      started = true;
      waiting.splice(0).forEach(function (run) { run(); });
    }
    window.addEventListener('message', listen);
    return function (run) { if (started) run(); else waiting.push(run); };
  }

  /** @type {WebStart | null} */
  var start = {
    base: base, config: config, language: language, STRING: STRING, AC: AC, GPP: GPP, US: US, gpc: gpc, keptDays: useCookie ? KEPT_DAYS : null,
    load: load, keep: keep, keepSubject: keepSubject, credential: credential, call: call, usChoice: usChoice, session: session, fromApp: fromApp,
    fromAppUS: fromAppUS, appConsent: appConsent,
    early: null,  // {tcString, addtlConsent, gppString, usText, answer: a promise of consentd's answer}, taken by cmp-web.js
    // The preloaded notice frame, once (then null).
    preloadedNotice: function () { var taken = preloaded; preloaded = null; return taken; },
    watchStart: watchStart
  };
  var stored = load(STRING), storedAC = load(AC), storedGPP = load(GPP), storedUS = load(US);
  var handedOver = appConsent();
  if (fromAppUS(handedOver, storedGPP)) { storedGPP = handedOver.gpp.gppString; keep(GPP, storedGPP); storedUS = null; keep(US, null); }
  if (!fromApp(handedOver, stored)) {
    var answer = session(false, stored, storedAC, storedGPP, storedUS);
    answer.catch(function () { /* reported by cmp-web.js, which takes this promise */ });
    start.early = { tcString: stored, addtlConsent: storedAC, gppString: storedGPP, usText: storedUS, answer: answer };
    if (!stored && !storedGPP && !storedUS) preloadNotice();
  }
  // The hand-over to cmp-web.js: once, and neither replaceable nor listed among the page's globals.
  Object.defineProperty(window, 'ConsentKitWebStart', {
    value: Object.freeze({ take: function () { var taken = start; start = null; return taken; } }),
    enumerable: false, writable: false, configurable: false
  });
})();
