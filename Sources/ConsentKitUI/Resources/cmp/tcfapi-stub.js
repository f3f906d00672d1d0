// @ts-check
/* ConsentKit __tcfapi stub (IAB TCF CMP API v2). Load it as the first script in <head>, before
 * anything that calls __tcfapi; tcfapi.js (ConsentKitTCF.install) replaces it later.
 *
 * - window.__tcfapi answers 'ping' itself and queues every other call; __tcfapi() with no
 *   arguments returns that queue (the full API collects it so).
 * - __tcfapi('setGdprApplies', 2, cb, true|false) declares for the page whether GDPR applies;
 *   ping reports it and the full API reads it from __tcfapi.gdprApplies. Only the page's own
 *   scripts may declare it: through postMessage (any frame) it answers (null, false).
 * - A hidden <iframe name="__tcfapiLocator"> tells scripts in child frames that a CMP is here, and
 *   one 'message' listener answers their {__tcfapiCall: ...} by calling whatever window.__tcfapi
 *   is at that moment, so it serves the full API too (__tcfapi.consentKitListener says it exists).
 *   Both are cmp-frames.js's (ConsentKitCMPFrames), which is loaded first, as for __gpp.
 * - Nothing happens when a locator exists in this window or an ancestor (another CMP owns the
 *   page) or __tcfapi is already a function (this file loaded twice, or another stub). The one
 *   exception is the read-only API an app injects into its web view (ConsentKitTCF.fromApp): the
 *   page's own CMP takes over from it.
 */
(function () {
  'use strict';

  var frames = window.ConsentKitCMPFrames;
  var LOCATOR = '__tcfapiLocator';
  var present = window.__tcfapi;
  var injected = typeof present === 'function' && present.consentKitInjected === true;
  if (!frames) throw new Error('tcfapi-stub.js: load cmp-frames.js first');
  if (typeof present === 'function' && !injected) return;
  if (!injected && frames.locatorAbove(LOCATOR)) return;

  var queue = [];
  var gdprApplies;

  // The versions a caller may ask for: 2 ('2.0' too, as the reference implementation), or "the
  // latest" (0, null, undefined).
  function isVersion2(v) { return v == null || v === 0 || v === 2 || v === '0' || v === '2' || v === '2.0'; }

  function stub(command, version, callback, parameter) {
    if (!arguments.length) return queue;
    if (command === 'setGdprApplies') {
      var ok = isVersion2(version) && typeof parameter === 'boolean';
      // Read by the CMP that takes over (tcfapi.js's install()).
      if (ok) /** @type {any} */ (stub).gdprApplies = gdprApplies = parameter;
      if (typeof callback === 'function') callback(ok ? 'set' : null, ok);
      return;
    }
    if (typeof callback !== 'function') throw new TypeError('__tcfapi: the callback of "' + command + '" must be a function');
    if (command !== 'ping') { queue.push([command, version, callback, parameter]); return; }
    if (!isVersion2(version)) { callback(null, false); return; }
    // The last four are undefined until the CMP has loaded (CMP API v2, PingReturn).
    callback({ gdprApplies: gdprApplies, cmpLoaded: false, cmpStatus: 'stub', displayStatus: 'hidden',
      apiVersion: '2', cmpVersion: undefined, cmpId: undefined, gvlVersion: undefined, tcfPolicyVersion: undefined }, true);
  }
  stub.consentKitStub = true;
  stub.consentKitListener = true;
  window.__tcfapi = stub;
  // A child frame's call, {__tcfapiCall: {command, parameter, version, callId}}, answered in its
  // form; addEventListener answers once per event, same callId. A frame never declares the page's
  // gdprApplies.
  frames.listen('__tcfapi', function () {
    var api = window.__tcfapi;
    if (typeof api !== 'function') return null;
    return function (call, answer) {
      if (call.command === 'setGdprApplies') answer(null, false);
      else api(call.command, call.version, answer, call.parameter);
    };
  });
  // The app's injected API may have added the locator meanwhile: cmp-frames.js adds none then.
  frames.addLocator(LOCATOR, function () { return true; });
})();
