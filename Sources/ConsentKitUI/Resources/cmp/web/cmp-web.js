// @ts-check
/* ConsentKit web CMP: the page's client of consentd, served as the last part of /cmp/cmp.js (the
 * first is the CMP API, ConsentKitUI's cmp/tcfapi.js, then cmp/web/cmp-start.js, whose internals
 * this takes once through ConsentKitWebStart.take()). A website includes, first in <head>:
 *
 *   <script src="https://CONSENTD/cmp/stub.js" data-key="ck_pub_..."></script>
 *   <script src="https://CONSENTD/cmp/cmp.js" async></script>
 *
 * The configuration goes on the stub's tag, so that the stub asks consentd for the page view while
 * the page is parsed (cmp-start.js); a cmp.js tag with a data-key of its own is read when the
 * stub's tag has none. Attributes:
 *   data-key             the site's publishable key (an app id listed under `websites` in consentd's configuration)
 *   data-subject-id      the site's own user id, with
 *   data-subject-token   a subject token the site's backend minted for it (POST /v1/subjects/{id}/tokens)
 *   data-storage         where the TC and GPP strings are kept: "cookie" (default: first-party
 *                        cookies euconsent-v2, addtl_consent, consentkit-gpp and
 *                        consentkit-us-choice) or "localStorage" (the same names)
 *   data-cookie-domain   the cookies' Domain (default: the page's host)
 *   data-language        the notice's language (default: the browser's)
 *   data-debug-region    "eea", "not_eea", "us" or "us-ca" (a state): pretend a region, for testing a page
 *
 * A page view: (1) when the page runs in an app's web view that handed over the app's consent
 * (ConsentKitTCF.appConsent() of the app's own ConsentKitTCF, from ConsentKitUI's WebViewConsent;
 * never anything a page script can set), the app's choice is kept, so the user is not asked
 * again, and recorded with method "sync" for the app's subject when the app gave its credential
 * (ConsentKitTCF.recordAppConsent); where GDPR does not apply, the app's US choice (its GPP string
 * with a US section in force) is kept as this browser's GPP string (cmp-start.js), which consentd
 * reads the choice from, so the notice at collection is not shown again (the app's SDK syncs that
 * choice itself); (2) consentd says what the region
 * and the ask rules call for (POST /v1/web/session, usually already asked by the stub); (3) the
 * CMP API is installed on that answer: tcloaded with the stored string, or cmpuishown while the
 * notice (consentd's /notice/notice.html, in a frame over the page) is open; (4) the notice's
 * result goes to consentd (POST /v1/web/choices), which checks it, stores it as a consent event
 * (platform web) and answers with the TC string, which is kept; the API then signals
 * useractioncomplete. __gpp (ConsentKitGPP, cmp/gppapi.js) is driven from the same answers: consentd's
 * `gpp` object (the GPP string, its sections, the sections in force, the parsed sections), with
 * signalStatus 'not ready' while a TCF notice waits for the user and 'ready' otherwise (a US notice
 * is a notice at collection: its defaults hold at once); the GPP string of a choice is kept like
 * the TC string and sent back with the next page view, with navigator.globalPrivacyControl. A US
 * choice's answer also carries the visitor's own choice (`usChoice`, before GPC), kept as
 * consentkit-us-choice and sent with the next page view: consentd encodes the GPP string again
 * from it and the GPC of that view, so a choice made while GPC was on is the visitor's own again
 * once it is off (docs/decisions/0046).
 *
 * window.ConsentKitWeb: showPreferences() reopens the notice on its second layer (the site's
 * "Privacy settings" link; a link or button with the attribute data-consentkit="preferences" does
 * the same without a script of the site's own); forget() drops what this browser keeps; ready is
 * a promise of the first answer. Window events: consentkit:choice (detail: consentd's answer to a choice) and
 * consentkit:error (detail: an Error).
 */
(function () {
  'use strict';

  if (window.ConsentKitWeb || !window.ConsentKitTCF) return;
  var start = window.ConsentKitWebStart ? window.ConsentKitWebStart.take() : null;
  if (!start) {
    // No tag carried a key: vendors must read "error", never a guess.
    if (window.console) console.error('ConsentKit web CMP: no data-key on the stub.js or cmp.js tag');
    window.ConsentKitTCF.install({});
    window.ConsentKitTCF.disable();
    if (window.ConsentKitGPP) { window.ConsentKitGPP.install(); window.ConsentKitGPP.disable('no data-key on the stub.js or cmp.js tag'); }
    return;
  }
  var gpp = window.ConsentKitGPP;
  var base = start.base, language = start.language, STRING = start.STRING, AC = start.AC, GPP = start.GPP, US = start.US;
  var load = start.load, keep = start.keep, keepSubject = start.keepSubject, credential = start.credential, call = start.call;

  var tcString = null, addtlConsent = null, gppString = null;   // what this browser keeps
  var usText = null;      // ... and the visitor's own US choice, as its JSON text
  var holding = null;     // the TCData that holds now (null: none yet)
  var gppHolding = null;  // consentd's gpp object that holds now (null: none yet)
  var installed = false;
  var notice = null;      // {frame, shownWith, shownWithAC, shownWithGPP, shownWithUS, reopen, opener, inerted}

  /* ---------------------------------------------------------------- consentd */

  function session(reopen) {
    return start.session(reopen, tcString, addtlConsent, gppString, usText);
  }

  // __gpp on consentd's gpp object: 'not ready' while the visitor is asked under the TCF (`asking`);
  // cmpDisplayStatus 'visible' while a notice is shown (`shown`).
  function updateGPP(state, asking, shown) {
    if (!state) return;
    gpp.update({ gppString: state.gppString, sectionList: state.sectionList, applicableSections: state.applicableSections,
      parsedSections: state.parsedSections, supportedAPIs: state.supportedAPIs, cmpId: lastAnswer ? lastAnswer.cmpId : 1,
      cmpDisplayStatus: shown ? 'visible' : 'hidden', signalStatus: asking ? 'not ready' : 'ready' });
  }

  // Records a choice (the notice's result, or the app's consent); keeps what consentd answers.
  function choose(fields, retried) {
    var who = credential();
    var body = { credential: who.credential, subjectId: who.subjectId, language: language, gpc: start.gpc() };
    Object.keys(fields).forEach(function (k) { body[k] = fields[k]; });
    return call('/v1/web/choices', body).then(function (answer) {
      if (answer.tcString) {
        tcString = answer.tcString; addtlConsent = answer.addtlConsent || null;
        keep(STRING, tcString); keep(AC, addtlConsent);
        holding = answer.tcData;
      }
      if (answer.gpp) {
        gppString = answer.gpp.gppString; keep(GPP, gppString);
        gppHolding = answer.gpp;
      }
      // A US choice as the visitor made it; a TCF choice leaves the US one as it was.
      if (answer.usChoice) { usText = JSON.stringify(answer.usChoice); keep(US, usText); }
      if (answer.subjectToken) keepSubject({ subjectId: answer.subjectId, subjectToken: answer.subjectToken });
      window.dispatchEvent(new CustomEvent('consentkit:choice', { detail: answer }));
      return answer;
    }, function (error) {
      // A token consentd no longer takes (revoked key, erased subject): start a new subject once.
      if (who.stored && !retried && [401, 403, 410].indexOf(error.status) >= 0) {
        keepSubject(null);
        return choose(fields, true);
      }
      throw error;
    });
  }

  function report(error) {
    if (window.console) console.error('ConsentKit web CMP:', error);
    window.dispatchEvent(new CustomEvent('consentkit:error', { detail: error }));
  }

  // getVendorList: consentd serves the list it holds now.
  var listRequest = null;
  function vendorList(version, done) {
    var answer = lastAnswer;
    if (version !== 'LATEST' && !(answer && version === answer.gvlVersion)) { done(null); return; }
    listRequest = listRequest || fetch(base + '/v1/vendor-list.json', { credentials: 'omit' })
      .then(function (r) { if (!r.ok) throw new Error('HTTP ' + r.status); return r.json(); });
    listRequest.then(done, function () { listRequest = null; done(null); });
  }

  /* ---------------------------------------------------------------- the API on consentd's answer */

  var lastAnswer = null;
  function apply(answer, reopen) {
    lastAnswer = answer;
    if (!installed) {
      ConsentKitTCF.install({ cmpId: answer.cmpId, cmpVersion: answer.cmpVersion, gvlVersion: answer.gvlVersion,
        tcfPolicyVersion: answer.tcfPolicyVersion, vendorList: vendorList });
      gpp.install();
      installed = true;
    }
    if (answer.storedStringRefused) {
      report(new Error('the stored TC string was ignored: ' + answer.storedStringRefused));
      tcString = null; addtlConsent = null; keep(STRING, null); keep(AC, null);
    }
    if (answer.tcData) holding = answer.tcData;
    if (answer.gpp) gppHolding = answer.gpp;
    var asking = !!answer.document && answer.document.mode !== 'us';
    if (answer.document) {
      // A TCF notice: no consent while it shows; a US notice: the TCF does not apply, as the answer's tcData says.
      if (answer.uiTCData) ConsentKitTCF.update(answer.uiTCData, true, { gvlVersion: answer.gvlVersion });
      else if (answer.tcData) ConsentKitTCF.update(answer.tcData, false, { gvlVersion: answer.gvlVersion });
      openNotice(answer.document, reopen);
    } else if (answer.tcData) {
      ConsentKitTCF.update(answer.tcData, false, { gvlVersion: answer.gvlVersion });
    }
    updateGPP(answer.gpp, asking, !!answer.document);
    if (!answer.document) dropPreloaded();
    return answer;
  }

  // The visitor is not asked: the frame cmp-start.js preloaded is not needed.
  function dropPreloaded() {
    var preloaded = start.preloadedNotice();
    if (preloaded) preloaded.frame.remove();
  }

  function fail(error) {
    report(error);
    dropPreloaded();
    // No answer from consentd: vendors must read "error" (no consent), never a guess.
    if (!installed) { ConsentKitTCF.install({}); gpp.install(); installed = true; }
    ConsentKitTCF.disable();
    gpp.disable('no answer from consentd: ' + (error && error.message));
  }

  /* ---------------------------------------------------------------- the notice, in a frame */

  function whenBody(run) {
    if (document.body) run(); else document.addEventListener('DOMContentLoaded', run);
  }

  function noticeTitle(documentObject) {
    var texts = documentObject && documentObject.texts;
    return texts && typeof texts.noticeTitle === 'string' ? texts.noticeTitle : '';
  }

  function openNotice(documentObject, reopen) {
    whenBody(function () {
      closeNotice();
      // The frame cmp-start.js began loading with the session (once), else a new one.
      var preloaded = start.preloadedNotice();
      var frame = preloaded ? preloaded.frame : document.createElement('iframe');
      // The notice's own title, in the notice's language.
      frame.title = noticeTitle(documentObject);
      // Through the CSSOM: a site whose Content-Security-Policy refuses inline styles refuses a style attribute.
      // Transparent: the notice draws its layout (a card, a sheet, a banner) over the site and dims
      // it; only the full-screen layout hides it. The frame's colour scheme follows the system as
      // the notice's does: where the two differ, browsers paint an opaque backdrop behind a frame.
      var css = { position: 'fixed', top: '0', left: '0', width: '100%', height: '100%', border: '0', margin: '0', padding: '0',
        zIndex: '2147483647', colorScheme: 'light dark', background: 'transparent' };
      Object.keys(css).forEach(function (k) { frame.style[k] = css[k]; });
      notice = { frame: frame, shownWith: tcString, shownWithAC: addtlConsent, shownWithGPP: gppString, shownWithUS: usText, reopen: !!reopen,
        opener: document.activeElement, inerted: [] };
      // The page behind is out of reach while the notice is open; the notice's frame is not
      // behind (preloaded after <body> began, when only cmp.js has the key, it is one of its children).
      Array.prototype.forEach.call(document.body.children, function (el) {
        if (el !== frame && el.tagName !== 'SCRIPT' && !el.inert) { el.inert = true; el.setAttribute('aria-hidden', 'true'); notice.inerted.push(el); }
      });
      // The notice says how long this browser keeps the choice: the cookies' own figure (cmp-start.js).
      documentObject.choiceStorageDays = start.keptDays;
      // The document goes as its JSON in UTF-8 bytes, handed over rather than copied: the notice's
      // fresh page rebuilt a posted object of 813 vendors in 40-100 ms, and takes these bytes at
      // once and parses them in 2-3 ms (measured in Chromium, 2026-11-28). Written now, while the
      // notice's frame is still on its way: once it has started, this thread is also the one that
      // parses its scripts (a frame of the page's site shares it).
      var bytes = new TextEncoder().encode(JSON.stringify(documentObject)).buffer;
      function configure() {
        frame.contentWindow.postMessage({ protocol: 1, type: 'configure', document: bytes }, base, [bytes]);
        frame.focus();
      }
      if (preloaded) {
        frame.removeAttribute('aria-hidden'); frame.removeAttribute('tabindex'); frame.style.display = '';
        preloaded.whenStarted(configure);
        return;
      }
      start.watchStart(frame)(configure);
      frame.src = base + '/notice/notice.html';
      document.body.appendChild(frame);
    });
  }

  function closeNotice() {
    if (!notice) return null;
    var closing = notice;
    notice = null;
    closing.inerted.forEach(function (el) { el.inert = false; el.removeAttribute('aria-hidden'); });
    closing.frame.remove();
    var opener = closing.opener;
    if (opener && opener !== document.body && document.contains(opener) && opener.focus) opener.focus();
    return closing;
  }

  window.addEventListener('message', function (e) {
    var m = e.data;
    if (!notice || e.source !== notice.frame.contentWindow || !m || m.protocol !== 1) return;
    if (m.type === 'result') {
      var closed = closeNotice();
      choose({ message: m, tcString: closed.shownWith || undefined, addtlConsent: closed.shownWithAC || undefined,
        gppString: closed.shownWithGPP || undefined, usChoice: start.usChoice(closed.shownWithUS) || undefined, reopen: closed.reopen,
        debugRegion: start.config.debugRegion || undefined })
        .then(function (answer) {
        // Closed without a choice (allowed when reopened): the choice that held still holds.
        if (holding) ConsentKitTCF.update(holding, false);
        updateGPP(gppHolding, false, false);
        return answer;
      }).catch(report);
    } else if (m.type === 'loadError') {
      closeNotice();
      report(new Error('the notice could not be shown: ' + m.code + ': ' + m.message));
    }
  });

  /* ---------------------------------------------------------------- the app's consent, in its web view */

  function fromApp(app) {
    return start.fromApp(app, tcString);
  }
  // Keeps the app's choice, and has the app's ConsentKitTCF record it with the app's own token
  // (the page never holds that token); consentkit:choice tells the page.
  function adopt(app) {
    tcString = app.tcString; addtlConsent = typeof app.addtlConsent === 'string' && app.addtlConsent !== '' ? app.addtlConsent : null;
    keep(STRING, tcString); keep(AC, addtlConsent);
    var recording = ConsentKitTCF.recordAppConsent(base, credential().credential, language);
    return (recording || Promise.resolve({ action: 'sync', tcString: tcString, addtlConsent: addtlConsent }))
      .then(function (answer) {
        window.dispatchEvent(new CustomEvent('consentkit:choice', { detail: answer }));
        return answer;
      });
  }
  // The event only says that something changed: what changed is read from the app's ConsentKitTCF.
  window.addEventListener('consentkit:appconsent', function () {
    var app = start.appConsent();
    if (!installed) return;
    if (fromApp(app)) {
      if (notice) closeNotice();
      adopt(app).catch(report);
    } else if (start.fromAppUS(app, gppString)) {
      // The app's US choice changed (the user answered the app's notice at collection): kept as
      // this page's, and the page's notice, if open, is the app's question already answered.
      if (notice) closeNotice();
      gppString = app.gpp.gppString; keep(GPP, gppString);
      usText = null; keep(US, null);
    } else return;
    session(false).then(function (answer) { return apply(answer, false); }).catch(report);
  });

  /* ---------------------------------------------------------------- start */

  tcString = load(STRING);
  addtlConsent = load(AC);
  gppString = load(GPP);
  usText = load(US);
  var app = start.appConsent();
  if (fromApp(app)) adopt(app).catch(report);
  // The stub's request, when it asked about what this browser still keeps.
  var early = start.early;
  start.early = null;
  var ready = (early && early.tcString === tcString && early.addtlConsent === addtlConsent && early.gppString === gppString &&
    early.usText === usText ? early.answer : session(false))
    .then(function (answer) { return apply(answer, false); }, function (error) { fail(error); return null; });

  // The site's "Privacy settings" link, by attribute: a click on (or in) an element with
  // data-consentkit="preferences" reopens the notice, as showPreferences() does.
  document.addEventListener('click', function (e) {
    var target = e.target instanceof Element ? e.target.closest('[data-consentkit="preferences"]') : null;
    if (!target) return;
    e.preventDefault();
    window.ConsentKitWeb.showPreferences();
  });

  window.ConsentKitWeb = {
    ready: ready,
    showPreferences: function () {
      return ready.then(function () { return session(true); }).then(function (answer) { return apply(answer, true); }).catch(report);
    },
    forget: function () {
      tcString = null; addtlConsent = null; gppString = null; usText = null;
      keep(STRING, null); keep(AC, null); keep(GPP, null); keep(US, null); keepSubject(null);
    }
  };
})();
