// @ts-check
/* ConsentKit's CMP APIs and other frames: the one mechanism every IAB CMP API of a page shares
 * (today __gpp: gppapi-stub.js and gppapi.js; see docs/decisions/0029-gpp-cmp-api.md for
 * __tcfapi). Load it before them: a page's stub bundle starts with it.
 *
 * window.ConsentKitCMPFrames (frozen, defined once: a second copy of this file keeps the first):
 *   locatorAbove(name) -> whether this window or an ancestor has a child frame named `name` (that
 *       is, a CMP owns the page already). Ancestors of another origin are looked at through
 *       window.frames, which is readable across origins.
 *   addLocator(name, owner) adds the hidden <iframe name="..."> that tells child frames a CMP is
 *       here, once the calling script has run (under <html> while there is no <body>; once <html>
 *       exists, for a script run before it), unless a frame of that name exists by then or
 *       owner() is false (whoever asked no longer speaks for the page).
 *   listen(api, target) answers other frames' postMessage calls of the API named `api`
 *       ('__gpp'): {<api>Call: {command, parameter, version, callId}}, as an object or as JSON,
 *       answered in kind with {<api>Return: {returnValue, success, callId}}, once per callback
 *       (an event listener answers once per event, with the same callId). target() gives
 *       invoke(call, answer) for the API that is current, or null (then the call is left alone).
 *   claim(api) notes that the message being handled (window.event) is answered already by the
 *       API named `api`: a foreign stub's listener, registered before ours, calls the API directly
 *       from its own 'message' listener, and our listener, called next, must not answer the same
 *       call twice. Per API: a page script that calls __tcfapi while a frame's __gppCall is being
 *       delivered does not silence the __gpp answer.
 *   replay(calls, run) runs run(call) for each call in order; one throwing does not stop the
 *       others (its error is reported to the page afterwards).
 *   report(error) throws `error` asynchronously, so that a caller's bad callback is seen but does
 *       not keep the next callback from its answer.
 */
(function () {
  'use strict';

  if (window.ConsentKitCMPFrames) return;

  /** @param {any} error */
  function report(error) { setTimeout(function () { throw error; }, 0); }

  /** @param {any[]} calls @param {(call: any) => void} run */
  function replay(calls, run) {
    calls.forEach(function (call) { try { run(call); } catch (e) { report(e); } });
  }

  /** @param {string} name @returns {boolean} */
  function locatorAbove(name) {
    for (var w = /** @type {Window} */ (window); ; w = w.parent) {
      try { if (w.frames[name]) return true; } catch (e) { /* unreadable: look further up */ }
      if (w === w.parent) return false;
    }
  }

  // Called while the page is parsed (the stub is in <head>), the frame is added as soon as the
  // script that asked has run (a microtask: after stub.js has started consentd's session and the
  // notice's frame, whose requests then wait on the network, not on this), as a child of <html>
  // when there is no <body> yet, where it stays (moving a frame reloads it; child frames find it
  // through window.frames wherever it is). Not in a timer until <body> exists: each locator then
  // took the page's thread right when the notice's frame arrived and waited for it (measured
  // 2026-11-28: 28 ms of a first visit's 361). A script run before <html> exists (an app's web
  // view runs its own at the document's start) waits for it, 5 ms at a time. Checked again right
  // before adding so that only one ever exists.
  /** @param {string} name @param {() => boolean} owner */
  function addLocator(name, owner) { placeLocator(name, owner, false); }
  /** @param {string} name @param {() => boolean} owner @param {boolean} underHtml */
  function placeLocator(name, owner, underHtml) {
    if (!owner() || window.frames[name]) return;
    var parent = document.body || (underHtml ? document.documentElement : null);
    if (!parent) {
      if (document.documentElement) Promise.resolve().then(function () { placeLocator(name, owner, true); });
      else setTimeout(function () { placeLocator(name, owner, false); }, 5);
      return;
    }
    var frame = document.createElement('iframe');
    frame.name = name;
    frame.style.display = 'none';
    parent.appendChild(frame);
  }

  /** @type {Object<string, WeakSet<Event>>} */
  var answered = {};
  /** @param {string} api */
  function claim(api) {
    var event = window.event;
    if (typeof WeakSet !== 'function' || !event || event.type !== 'message') return;
    (answered[api] = answered[api] || new WeakSet()).add(event);
  }

  /**
   * @param {string} api
   * @param {() => ((call: any, answer: (returnValue: any, success: boolean) => void) => void) | null} target
   */
  function listen(api, target) {
    var CALL = api + 'Call', RETURN = api + 'Return';
    window.addEventListener('message', function (event) {
      var data = event.data, asString = typeof data === 'string', invoke = target();
      if (!invoke || (answered[api] && answered[api].has(event))) return;
      if (asString) {
        if (data.indexOf(CALL) < 0) return;
        try { data = JSON.parse(data); } catch (e) { return; }
      }
      var call = data && typeof data === 'object' ? data[CALL] : null;
      var source = /** @type {Window | null} */ (event.source);
      if (!call || typeof call !== 'object' || !source) return;
      invoke(call, function (returnValue, success) {
        var reply = {};
        reply[RETURN] = { returnValue: returnValue, success: success, callId: call.callId };
        source.postMessage(asString ? JSON.stringify(reply) : reply, '*');
      });
    }, false);
  }

  Object.defineProperty(window, 'ConsentKitCMPFrames', {
    value: Object.freeze({ locatorAbove: locatorAbove, addLocator: addLocator, listen: listen, claim: claim, replay: replay, report: report }),
    writable: false, configurable: false, enumerable: false
  });
})();
