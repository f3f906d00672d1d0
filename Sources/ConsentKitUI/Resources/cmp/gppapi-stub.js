// @ts-check
/* ConsentKit __gpp stub (IAB GPP CMP API v1.1). Load it first in <head>, right after
 * cmp-frames.js, before anything that calls __gpp; gppapi.js (ConsentKitGPP.install) takes over.
 *
 * - window.__gpp(command, callback, parameter, version) is a function from now on and returns
 *   nothing (v1.1 answers through callbacks only). The generic commands answer at once:
 *     ping                 PingReturn with cmpStatus 'stub', cmpDisplayStatus 'hidden',
 *                          signalStatus 'not ready', cmpId 0, no sections, and applicableSections
 *                          [0], or the ids the page declares on this script's tag
 *                          (data-gpp-sid="7" or "7_8", the IABGPP_GppSID form; at most two);
 *     addEventListener     the listener is kept and called at once with listenerRegistered and a
 *                          new listenerId; gppapi.js calls it with every later event;
 *     removeEventListener  the EventListener object listenerRemoved, data true or false;
 *     hasSection, getSection, getField   null (nothing is loaded yet).
 *   Every other command (a section's own, 'tcfcav1.getVendorList') waits in __gpp.queue, in call
 *   order. __gpp.queue, __gpp.events ({id, callback, parameter}) and __gpp.lastId are the shape
 *   of the specification's example stub, so that gppapi.js takes over from either.
 * - A hidden <iframe name="__gppLocator"> tells scripts in child frames that a CMP is here, and one
 *   'message' listener (ConsentKitCMPFrames.listen) answers their {__gppCall: ...} by calling
 *   whatever window.__gpp is at that moment, so it serves gppapi.js too.
 * - Nothing happens when __gpp is already a function (this file twice, or another CMP's stub) or a
 *   __gppLocator exists here or above (another CMP owns the page).
 */
(function () {
  'use strict';

  var frames = window.ConsentKitCMPFrames;
  var LOCATOR = '__gppLocator';
  if (!frames) throw new Error('gppapi-stub.js: load cmp-frames.js first');
  if (typeof window.__gpp === 'function' || frames.locatorAbove(LOCATOR)) return;

  var script = /** @type {HTMLScriptElement | null} */ (document.currentScript);
  var declared = script && script.dataset ? script.dataset.gppSid : undefined;
  var ids = typeof declared === 'string' && /^(-1|[0-9]+(_[0-9]+)?)$/.test(declared) ? declared.split('_').map(Number) : [0];

  /** @returns {GPPPing} */
  function ping() {
    return { gppVersion: '1.1', cmpStatus: 'stub', cmpDisplayStatus: 'hidden', signalStatus: 'not ready', supportedAPIs: [],
      cmpId: 0, sectionList: [], applicableSections: ids.slice(), gppString: '', parsedSections: {} };
  }

  /** @param {string} eventName @param {number} listenerId @param {boolean} data */
  function event(eventName, listenerId, data) {
    return { eventName: eventName, listenerId: listenerId, data: data, pingData: ping() };
  }

  /** @type {any} */
  var stub = function (command, callback, parameter, version) {
    if (typeof callback !== 'function') throw new TypeError('__gpp: the callback of "' + command + '" must be a function');
    switch (command) {
      case 'ping': callback(ping(), true); return;
      case 'addEventListener':
        var id = ++stub.lastId;
        stub.events.push({ id: id, callback: callback, parameter: parameter });
        callback(event('listenerRegistered', id, true), true);
        return;
      case 'removeEventListener':
        var before = stub.events.length;
        stub.events = stub.events.filter(function (e) { return e.id !== Number(parameter); });
        callback(event('listenerRemoved', Number(parameter), stub.events.length < before), true);
        return;
      case 'hasSection': case 'getSection': case 'getField': callback(null, true); return;
      default: stub.queue.push([command, callback, parameter, version]);
    }
  };
  stub.queue = [];
  stub.events = [];
  stub.lastId = 0;
  stub.consentKitStub = true;
  stub.consentKitListener = true;
  window.__gpp = stub;
  frames.listen('__gpp', function () {
    var api = window.__gpp;
    return typeof api === 'function' ? function (call, answer) { api(call.command, answer, call.parameter, call.version); } : null;
  });
  frames.addLocator(LOCATOR, function () { return true; });
})();
