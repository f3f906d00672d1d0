// @ts-check
/* ConsentKit __tcfapi: the IAB TCF CMP API v2 on the CMP's state (the stub is tcfapi-stub.js).
 *
 * window.ConsentKitTCF:
 *   install(options) -> true
 *       Puts the full API in place of the stub (or where there is none). Queued 'ping' calls are
 *       answered at once; every other queued call, and every call made before the first update(),
 *       is answered at the first update(), in call order. Adds a message listener unless the stub's
 *       is there, and the __tcfapiLocator frame unless one exists. A later install() starts afresh.
 *       options: {cmpId, cmpVersion, gvlVersion, tcfPolicyVersion, vendorList}, where the optional
 *       vendorList(version, done) gets an integer > 1 or 'LATEST' and calls done(gvl) or done(null).
 *   update(tcData, uiVisible, meta)
 *       The CMP's state changed. tcData: a TCData object as built by ConsentKit's Swift code (CMP API
 *       v2 fields, maps as {'1': true, '2': false, ...}; with gdprApplies false only gdprApplies,
 *       tcfPolicyVersion, cmpId and cmpVersion count). An id map may come as a binary string
 *       instead ('101': character n is id n+1, TCData.json(idMaps: .binaryStrings), the form of
 *       consentd's session answer), which is expanded into the map ({'1': true, '2': false,
 *       '3': true}) before anyone reads it; a string of anything but '0' and '1', or longer than
 *       65,535, is a TypeError. uiVisible: the notice is showing it.
 *       meta: optional {gvlVersion} for ping. Statuses as iabtcf-es's CmpApi.update: uiVisible ->
 *       'cmpuishown'/'visible'; the first update without UI -> 'tcloaded'/'disabled'; later ones ->
 *       'useractioncomplete'/'hidden'; GDPR not applying -> 'disabled', never 'cmpuishown'. Every
 *       listener is called with the new data. The caller's object is copied, never changed.
 *       Throws a TypeError when tcData.gdprApplies is not a boolean, an Error before install();
 *       ignored after disable().
 *   disable()
 *       cmpStatus 'error': from now on only 'ping' answers; every other call gets (null, false).
 *   fromApp(payload, secret)
 *       An app's web view: the app injects this file at document start wrapped in a function whose
 *       parameter consentKitAppHandOver is {payload, secret, credential} (ConsentKitUI's
 *       WebViewConsent), and calls fromApp(payload, secret) again when the user changes their
 *       choice. payload: {tcString, addtlConsent, gdprApplies: true|false|null, cmpId, cmpVersion,
 *       tcfPolicyVersion, gvlVersion, tcData, gpp}. Only the app's hand-over takes a payload: without
 *       it (a page's own copy of this file) or with another secret, fromApp throws and changes
 *       nothing, so page scripts cannot speak for the app. The app's window.ConsentKitTCF cannot
 *       be replaced (a non-writable, non-configurable property of a frozen object), so the secret
 *       an update carries reaches this closure only. Each payload taken sets
 *       window.ConsentKitAppConsent (a frozen copy, read-only) and dispatches
 *       'consentkit:appconsent' (detail: that copy). The first also installs a read-only API,
 *       answering from payload.tcData, but only if the page has no CMP (no __tcfapi, no locator
 *       here or above); gdprApplies null leaves it unknown. It steps aside as soon as the page
 *       assigns its own window.__tcfapi (stub or CMP, ours or not). When the app's script has
 *       gppapi.js before this file, that first payload also installs __gpp (unless the page has a
 *       __gpp or a __gppLocator), and every payload's `gpp` ({gppString, sectionList,
 *       applicableSections, parsedSections, supportedAPIs}, from the app's IABGPP_* keys; null
 *       while none are stored) updates it, as long as the read-only __tcfapi is the page's.
 *   appConsent() -> the frozen payload the app handed over last, or null (no app, or none yet):
 *       what a page's CMP adopts (never window.ConsentKitAppConsent or an event's detail, which
 *       page scripts can forge).
 *   recordAppConsent(consentd, credential, language) -> a promise of consentd's answer, or null
 *       Records the app's document-start choice with consentd (POST /v1/web/choices, appConsent),
 *       with the app's own subject token, at most once per page: only when the hand-over carries
 *       a credential for consentd at the origin `consentd` and GDPR applies to a TC string.
 *       credential: the page's key (it names the site); the token itself never leaves this
 *       closure but in that request, made with the fetch and JSON of the page's first moment.
 *
 * Commands: ping, addEventListener, removeEventListener (its callback gets (found, found)), getTCData
 * (optional vendorIds: integer[]), getInAppTCData (the IABTCF_* in-app values: 1/0 and bit strings
 * up to the highest id set), getVendorList (optional version: integer > 1, its numeric string, or
 * 'LATEST'). Versions 0, null, undefined and 2 ('0', '2', '2.0') mean v2; anything else, and unknown
 * commands, get (null, false).
 * A callback that is not a function throws a TypeError. Every answer but getVendorList's is given
 * synchronously, and each callback gets its own copy of the data.
 *
 * Its pure helpers (bitString, idMapOf, restrictionStrings, vendorListVersionOf) are exported to Node when
 * the file is loaded there (Tests/js/tcfapi.test.js); a browser has no `module`.
 */

/**
 * A TCF id map as the CMP API gives it: {'1': true, '2': false, ...}.
 * @typedef {Object<string, boolean>} TCFIdMap
 */
/**
 * The CMP API's TCData (IAB TCF v2 CMP API): the fields ConsentKit's Swift code builds, with the
 * call's eventStatus, cmpStatus and listenerId added by this file.
 * @typedef {{
 *   gdprApplies: boolean, tcString?: string, addtlConsent?: string, tcfPolicyVersion?: number,
 *   cmpId?: number, cmpVersion?: number, eventStatus?: string, cmpStatus?: string, listenerId?: number,
 *   isServiceSpecific?: boolean, useNonStandardTexts?: boolean, publisherCC?: string, purposeOneTreatment?: boolean,
 *   purpose?: { consents: TCFIdMap, legitimateInterests: TCFIdMap },
 *   vendor?: { consents: TCFIdMap, legitimateInterests: TCFIdMap, disclosedVendors?: TCFIdMap },
 *   specialFeatureOptins?: TCFIdMap,
 *   publisher?: { consents: TCFIdMap, legitimateInterests: TCFIdMap,
 *     customPurpose?: { consents: TCFIdMap, legitimateInterests: TCFIdMap },
 *     restrictions?: Object<string, Object<string, number>> }
 * }} TCData
 */
(function () {
  'use strict';

  // Evaluated again (the page's copy after the app's): keep the object, its state and listeners.
  if (window.ConsentKitTCF && typeof window.ConsentKitTCF.install === 'function') return;

  // The app's hand-over: the parameter of the function the app wraps this file in; never set
  // on a page's own copy. Its secret and credential stay in this closure.
  /* global consentKitAppHandOver */
  var handOver = typeof consentKitAppHandOver === 'object' && consentKitAppHandOver !== null &&
    typeof consentKitAppHandOver.secret === 'string' && consentKitAppHandOver.secret.length >= 16 ? consentKitAppHandOver : null;
  // What the record needs, taken before any page script can replace it.
  var nativeFetch = window.fetch, createObject = Object.create, stringify = JSON.stringify;

  var frames = window.ConsentKitCMPFrames;  // cmp-frames.js, loaded first (undefined in Node's tests of the helpers)
  var LOCATOR = '__tcfapiLocator';
  var page = null;       // the CMP install() put in place
  var app = null;        // the read-only CMP fromApp() put in place, if the page had none
  var appDecided = false;
  // In an app's web view, __gpp beside the read-only __tcfapi: the app's script has gppapi.js
  // before this file (WebViewConsent), and its ConsentKitGPP is taken now, before any page script.
  var appGPP = handOver && window.ConsentKitGPP && typeof window.ConsentKitGPP.install === 'function' ? window.ConsentKitGPP : null;
  var gppInstalled = false;

  /* ---------------------------------------------------------------- helpers */

  function isObject(x) { return x !== null && typeof x === 'object' && !Array.isArray(x); }
  function isInteger(x) { return typeof x === 'number' && isFinite(x) && Math.floor(x) === x; }
  function has(obj, key) { return Object.prototype.hasOwnProperty.call(obj, key); }
  // The reference implementation (iabtcf-es) also takes '2.0', which pages written for it send.
  function isVersion2(v) { return v == null || v === 0 || v === 2 || v === '0' || v === '2' || v === '2.0'; }

  function clone(x) {
    if (Array.isArray(x)) return x.map(clone);
    if (!isObject(x)) return x;
    var copy = {};
    for (var k in x) if (has(x, k)) copy[k] = clone(x[k]);
    return copy;
  }
  function deepFreeze(x) {
    if (x !== null && typeof x === 'object') {
      Object.freeze(x);
      for (var k in x) if (has(x, k)) deepFreeze(x[k]);
    }
    return x;
  }
  // One callback throwing must not keep the others from their answer: its error is reported
  // to the page afterwards instead.
  function report(error) { frames.report(error); }

  // Ids above a TCF id's 16 bits are never expanded (a key '1e9' must not make a string of 10^9).
  var MAX_ID = 65535;
  // {'1': true, '3': true} -> '101': character n is id n+1, up to the highest id set, as the
  // IABTCF_* in-app keys (ConsentKit's BinaryString).
  /** @param {any} map @returns {string} */
  function bitString(map) {
    var max = 0, k, id, chars = [];
    if (!isObject(map)) return '';
    for (k in map) { id = Number(k); if (map[k] === true && isInteger(id) && id > max && id <= MAX_ID) max = id; }
    for (id = 1; id <= max; id++) chars.push(map[id] === true ? '1' : '0');
    return chars.join('');
  }
  // '101' -> {'1': true, '2': false, '3': true}: bitString's inverse, for the id maps consentd's
  // session answer writes as binary strings (character n is id n+1, up to the highest id set).
  /** @param {string} bits @returns {TCFIdMap} */
  function idMapOf(bits) {
    if (bits.length > MAX_ID || !/^[01]*$/.test(bits)) {
      throw new TypeError('ConsentKitTCF.update: an id map given as a string must be a binary string of at most ' + MAX_ID + " '0' and '1'");
    }
    /** @type {TCFIdMap} */
    var map = {};
    for (var i = 0; i < bits.length; i++) map[i + 1] = bits.charCodeAt(i) === 49;  // '1'
    return map;
  }
  // The id maps of TCData, by path: those given as binary strings are expanded in place.
  var ID_MAPS = [['purpose', 'consents'], ['purpose', 'legitimateInterests'], ['vendor', 'consents'],
    ['vendor', 'legitimateInterests'], ['vendor', 'disclosedVendors'], ['specialFeatureOptins'], ['publisher', 'consents'],
    ['publisher', 'legitimateInterests'], ['publisher', 'customPurpose', 'consents'], ['publisher', 'customPurpose', 'legitimateInterests']];
  /** @param {any} data */
  function expandIdMaps(data) {
    ID_MAPS.forEach(function (path) {
      var parent = data, last = path.length - 1;
      for (var i = 0; i < last && isObject(parent); i++) parent = parent[path[i]];
      if (isObject(parent) && typeof parent[path[last]] === 'string') parent[path[last]] = idMapOf(parent[path[last]]);
    });
  }
  // restrictions {'2': {'8': 1}} -> {'2': '_______1'}: per purpose 1-24, one character per vendor
  // up to the highest restricted one, '_' for none, as IABTCF_PublisherRestrictions{ID}.
  /** @param {any} restrictions @returns {Object<string, string>} */
  function restrictionStrings(restrictions) {
    /** @type {Object<string, string>} */
    var out = {};
    var p, v, purpose, types, max, chars;
    function isType(t) { return t === 0 || t === 1 || t === 2; }
    for (p in isObject(restrictions) ? restrictions : {}) {
      purpose = Number(p);
      types = restrictions[p];
      if (!isInteger(purpose) || purpose < 1 || purpose > 24 || !isObject(types)) continue;
      max = 0;
      for (v in types) if (isType(types[v]) && isInteger(Number(v)) && Number(v) > max && Number(v) <= MAX_ID) max = Number(v);
      if (!max) continue;
      chars = [];
      for (v = 1; v <= max; v++) chars.push(isType(types[v]) ? String(types[v]) : '_');
      out[String(purpose)] = chars.join('');
    }
    return out;
  }
  function flag(b) { return b === true ? 1 : b === false ? 0 : undefined; }

  // The VendorListVersion of a TC string's core segment: 12 bits from bit 120 (after Version 6,
  // Created 36, LastUpdated 36, CmpId 12, CmpVersion 12, ConsentScreen 6, ConsentLanguage 12).
  var BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  /** @param {any} tcString @returns {number | undefined} */
  function vendorListVersionOf(tcString) {
    if (typeof tcString !== 'string') return undefined;
    var core = tcString.split('.')[0], value = 0, six;
    if (core.length < 22) return undefined;
    for (var bit = 120; bit < 132; bit++) {
      six = BASE64URL.indexOf(core.charAt(Math.floor(bit / 6)));
      if (six < 0) return undefined;
      value = value * 2 + ((six >> (5 - bit % 6)) & 1);
    }
    return value;
  }

  /* ---------------------------------------------------------------- frames */

  // The locator, the one message listener per window and the once-only answer to a frame's call
  // are cmp-frames.js's. A foreign stub's 'message' listener (the IAB's @iabtcf/stub, which a page
  // may load instead of ours) answers the frames' calls itself by calling __tcfapi, and it listens
  // before we do: the API claims that message (ConsentKitCMPFrames.claim) so that ours skips it.
  // The locator is added only while `api` is the page's __tcfapi (the page's own CMP may take
  // over and make its own).
  function addLocator(api) { frames.addLocator(LOCATOR, function () { return window.__tcfapi === api; }); }
  function locatorAbove() { return frames.locatorAbove(LOCATOR); }
  // Answers child frames' {__tcfapiCall: ...} through target(), or not at all while it is null.
  function listen(target) {
    frames.listen('__tcfapi', function () {
      var api = target();
      return api ? function (call, answer) { api(call.command, call.version, answer, call.parameter); } : null;
    });
  }

  /* ---------------------------------------------------------------- one CMP API */

  // settings: {cmpId, cmpVersion, gvlVersion, tcfPolicyVersion, vendorList, gdprApplies (declared
  // through the stub)}. readOnly: the app's API, which never shows a UI.
  function createCmp(settings, readOnly) {
    var tcData = null;           // the latest update's data (our copy); null while unknown
    var tcDataText = null;       // ... as JSON: each answer parses its own copy (native, fast on 1,000-vendor maps)
    var updates = 0;
    var eventStatus;
    var displayStatus = readOnly ? 'disabled' : 'hidden';
    var disabled = false;
    var pending = [];            // calls waiting for the first update, in call order
    var listeners = {};
    var nextListenerId = 1;

    function api(command, version, callback, parameter) {
      if (!arguments.length) return [];  // nothing queued here (a CMP collecting a stub's queue asks so)
      frames.claim('__tcfapi');
      if (typeof callback !== 'function') throw new TypeError('__tcfapi: the callback of "' + command + '" must be a function');
      if (command === 'ping') { if (isVersion2(version)) callback(ping(), true); else callback(null, false); return; }
      if (disabled || !isVersion2(version) || !has(commands, command)) { callback(null, false); return; }
      if (!updates) { pending.push([command, version, callback, parameter]); return; }
      commands[command](callback, parameter);
    }
    api.consentKitCmp = true;

    function ping() {
      return { gdprApplies: tcData ? tcData.gdprApplies : settings.gdprApplies, cmpLoaded: true,
        cmpStatus: disabled ? 'error' : 'loaded', displayStatus: displayStatus, apiVersion: '2',
        cmpVersion: settings.cmpVersion, cmpId: settings.cmpId, gvlVersion: settings.gvlVersion,
        tcfPolicyVersion: settings.tcfPolicyVersion };
    }

    // A fresh copy of the current data for one callback.
    function current(listenerId) {
      var data = JSON.parse(tcDataText);
      data.eventStatus = eventStatus;
      data.cmpStatus = 'loaded';
      if (listenerId !== undefined) data.listenerId = listenerId;
      return data;
    }

    var commands = {
      addEventListener: function (callback) {
        var id = nextListenerId++;
        listeners[id] = callback;
        callback(current(id), true);
      },
      removeEventListener: function (callback, listenerId) {
        var found = isInteger(Number(listenerId)) && has(listeners, Number(listenerId));
        if (found) delete listeners[Number(listenerId)];
        callback(found, found);  // success is the answer; repeated so a postMessage reply's success says it too
      },
      getTCData: function (callback, vendorIds) {
        if (vendorIds != null && !(Array.isArray(vendorIds) && vendorIds.every(isInteger))) { callback(null, false); return; }
        var data = current();
        if (vendorIds != null && isObject(data.vendor)) {
          ['consents', 'legitimateInterests', 'disclosedVendors'].forEach(function (name) {
            var all = isObject(data.vendor[name]) ? data.vendor[name] : {}, only = {};
            vendorIds.forEach(function (id) { only[id] = all[id] === true; });
            data.vendor[name] = only;
          });
        }
        callback(data, true);
      },
      getInAppTCData: function (callback) { callback(inApp(current()), true); },
      getVendorList: getVendorList
    };

    // TCData as InAppTCData: booleans as 1/0, maps as bit strings.
    function inApp(d) {
      var out = { tcString: d.tcString, tcfPolicyVersion: d.tcfPolicyVersion, cmpId: d.cmpId, cmpVersion: d.cmpVersion,
        gdprApplies: flag(d.gdprApplies), eventStatus: d.eventStatus, cmpStatus: d.cmpStatus };
      if (d.gdprApplies === false) { delete out.tcString; return out; }
      var purpose = d.purpose || {}, vendor = d.vendor || {}, publisher = d.publisher || {}, custom = publisher.customPurpose || {};
      out.isServiceSpecific = flag(d.isServiceSpecific);
      out.useNonStandardTexts = flag(d.useNonStandardTexts);
      out.publisherCC = d.publisherCC;
      out.purposeOneTreatment = flag(d.purposeOneTreatment);
      out.purpose = { consents: bitString(purpose.consents), legitimateInterests: bitString(purpose.legitimateInterests) };
      out.vendor = { consents: bitString(vendor.consents), legitimateInterests: bitString(vendor.legitimateInterests),
        disclosedVendors: bitString(vendor.disclosedVendors) };
      out.specialFeatureOptins = bitString(d.specialFeatureOptins);
      out.publisher = { consents: bitString(publisher.consents), legitimateInterests: bitString(publisher.legitimateInterests),
        customPurpose: { consents: bitString(custom.consents), legitimateInterests: bitString(custom.legitimateInterests) },
        restrictions: restrictionStrings(publisher.restrictions) };
      if (d.addtlConsent !== undefined) out.addtlConsent = d.addtlConsent;
      return out;
    }

    // No version: the one the current TC string was made with (else the CMP's, else the newest).
    function getVendorList(callback, version) {
      if (version == null) version = vendorListVersionOf(tcData.tcString) || settings.gvlVersion || 'LATEST';
      else if (version !== 'LATEST') {
        if (typeof version === 'string' && /^[0-9]+$/.test(version)) version = Number(version);
        if (!isInteger(version) || version < 2) { callback(null, false); return; }
      }
      if (typeof settings.vendorList !== 'function') { callback(null, false); return; }
      var answered = false;
      function done(gvl) {
        if (answered) return;
        answered = true;
        if (isObject(gvl)) callback(clone(gvl), true); else callback(null, false);
      }
      try { settings.vendorList(version, done); } catch (e) { if (answered) report(e); else done(null); }
    }

    function update(data, uiVisible, meta) {
      if (disabled) return;
      if (!isObject(data) || typeof data.gdprApplies !== 'boolean') throw new TypeError('ConsentKitTCF.update: tcData.gdprApplies must be true or false');
      var applies = data.gdprApplies;
      var next = applies ? clone(data) : { gdprApplies: false, tcfPolicyVersion: data.tcfPolicyVersion, cmpId: data.cmpId, cmpVersion: data.cmpVersion };
      if (applies) {
        expandIdMaps(next);  // may throw: nothing has changed yet
        delete next.eventStatus; delete next.cmpStatus; delete next.listenerId;
      }
      if (isObject(meta) && meta.gvlVersion !== undefined) settings.gvlVersion = meta.gvlVersion;
      tcData = next;
      tcDataText = JSON.stringify(tcData);
      if (uiVisible && applies && !readOnly) { eventStatus = 'cmpuishown'; displayStatus = 'visible'; }
      else if (!updates) { eventStatus = 'tcloaded'; displayStatus = 'disabled'; }
      else { eventStatus = 'useractioncomplete'; displayStatus = applies && !readOnly ? 'hidden' : 'disabled'; }
      updates++;
      if (updates === 1) {
        var calls = pending;
        pending = [];
        frames.replay(calls, function (call) { api.apply(null, call); });
        return;
      }
      Object.keys(listeners).forEach(function (id) {
        if (!has(listeners, id)) return;  // removed by an earlier listener
        try { listeners[id](current(Number(id)), true); } catch (e) { report(e); }
      });
    }

    function disable() {
      disabled = true;
      listeners = {};
      var calls = pending;
      pending = [];
      frames.replay(calls, function (call) { call[2](null, false); });
    }

    return { api: api, update: update, disable: disable, settings: settings };
  }

  /* ---------------------------------------------------------------- the page's CMP */

  function install(options) {
    options = isObject(options) ? options : {};
    var previous = window.__tcfapi, queue = [], declared;
    if (typeof previous === 'function' && !previous.consentKitCmp) {
      // A stub: its queue, and whether the page declared that GDPR applies.
      try { queue = previous(); } catch (e) { queue = []; }
      if (typeof previous.gdprApplies === 'boolean') declared = previous.gdprApplies;
    }
    page = createCmp({ cmpId: options.cmpId, cmpVersion: options.cmpVersion, gvlVersion: options.gvlVersion,
      tcfPolicyVersion: options.tcfPolicyVersion, vendorList: options.vendorList, gdprApplies: declared }, false);
    var api = /** @type {any} */ (page.api);
    // One listener per window serves whatever __tcfapi is current: the stub's, or ours.
    if (!(typeof previous === 'function' && previous.consentKitListener === true)) {
      listen(function () { return typeof window.__tcfapi === 'function' ? window.__tcfapi : null; });
    }
    api.consentKitListener = true;
    window.__tcfapi = api;
    addLocator(api);
    frames.replay(Array.isArray(queue) ? queue : [], function (call) { api.apply(null, call); });
    return true;
  }

  function pageCmp(name) {
    if (!page) throw new Error('ConsentKitTCF.' + name + ': call ConsentKitTCF.install first');
    return page;
  }

  /* ---------------------------------------------------------------- the app's consent in a web view */

  // The TCData the app's payload stands for; update() copies it, so the payload is never changed.
  // GDPR applies and the app holds no decision (or none that decodes): the page hears "no
  // consent, no legitimate interest" (iabtcf-es's update('')), never silence and never a guess.
  function noDecision() {
    function none() { return { consents: {}, legitimateInterests: {} }; }
    return {
      tcString: '', isServiceSpecific: true, useNonStandardTexts: false, publisherCC: 'AA', purposeOneTreatment: false,
      purpose: none(), vendor: { consents: {}, legitimateInterests: {}, disclosedVendors: {} }, specialFeatureOptins: {},
      publisher: { consents: {}, legitimateInterests: {}, customPurpose: none(), restrictions: {} }
    };
  }

  function appTCData(payload) {
    var source = isObject(payload.tcData) ? payload.tcData : payload.gdprApplies === true ? noDecision() : {}, data = {}, k;
    for (k in source) if (has(source, k)) data[k] = source[k];
    ['tcString', 'addtlConsent', 'cmpId', 'cmpVersion', 'tcfPolicyVersion'].forEach(function (name) {
      if (data[name] === undefined && payload[name] != null) data[name] = payload[name];
    });
    data.gdprApplies = payload.gdprApplies;
    return data;
  }

  var appPayload = null;     // the frozen payload the app handed over last
  var firstPayload = null;   // ... at document start: the only one recorded
  var recorded = false;

  function fromApp(payload, secret) {
    if (!handOver || secret !== handOver.secret) {
      throw new Error('ConsentKitTCF.fromApp: only the app that injected this script hands over its consent');
    }
    if (!isObject(payload)) throw new TypeError('ConsentKitTCF.fromApp: the payload must be an object');
    var consent = deepFreeze(clone(payload));
    appPayload = consent;
    if (!firstPayload) firstPayload = consent;
    window.dispatchEvent(new CustomEvent('consentkit:appconsent', { detail: consent }));
    if (!appDecided) {
      appDecided = true;
      if (window.__tcfapi == null && !locatorAbove()) {
        app = createCmp({}, true);
        var api = /** @type {any} */ (app.api);
        api.consentKitInjected = true;
        // Plain assignment, so that the page's own stub or CMP can replace it; from then on this
        // listener stays silent and the locator is theirs to make.
        window.__tcfapi = api;
        listen(function () { return window.__tcfapi === api ? api : null; });
        addLocator(api);
        // __gpp too, unless the page has a GPP CMP of its own.
        if (appGPP && window.__gpp == null && !frames.locatorAbove('__gppLocator')) { appGPP.install(); gppInstalled = true; }
      }
    }
    if (!app || window.__tcfapi !== app.api) return;
    var s = app.settings;
    s.cmpId = payload.cmpId; s.cmpVersion = payload.cmpVersion;
    s.gvlVersion = payload.gvlVersion; s.tcfPolicyVersion = payload.tcfPolicyVersion;
    if (typeof payload.gdprApplies === 'boolean') app.update(appTCData(payload), false);
    // The app's GPP string (its IABGPP_* keys), as __gpp's state; null while the app stored none.
    var state = payload.gpp;
    if (gppInstalled && isObject(state)) {
      appGPP.update({ gppString: state.gppString, sectionList: state.sectionList, applicableSections: state.applicableSections,
        parsedSections: state.parsedSections, supportedAPIs: state.supportedAPIs, cmpId: payload.cmpId, cmpDisplayStatus: null });
    }
  }

  // The app's document-start choice, recorded once with the app's subject token (see the header).
  function recordAppConsent(consentd, credential, language) {
    var app = handOver && handOver.credential, first = firstPayload;
    if (recorded || !app || !first || appPayload !== first || first.gdprApplies !== true || typeof first.tcString !== 'string' || first.tcString === '' ||
        typeof consentd !== 'string' || consentd !== app.consentd || typeof credential !== 'string') return null;
    recorded = true;
    // Objects without a prototype: no getter or toJSON a page script adds to Object.prototype sees them.
    var consent = createObject(null), body = createObject(null), init = createObject(null), headers = createObject(null);
    consent.tcString = first.tcString;
    if (typeof first.addtlConsent === 'string') consent.addtlConsent = first.addtlConsent;
    consent.subjectToken = app.subjectToken;
    consent.subjectId = app.subjectId;
    body.credential = credential;
    if (typeof language === 'string') body.language = language;
    body.appConsent = consent;
    headers['Content-Type'] = 'text/plain';
    init.method = 'POST'; init.mode = 'cors'; init.credentials = 'omit'; init.headers = headers; init.body = stringify(body);
    return nativeFetch(consentd + '/v1/web/choices', init).then(function (response) {
      return response.json().then(function (json) {
        if (response.ok) return json;
        var error = /** @type {Error & { status?: number }} */ (new Error(json && json.error ? json.error.code + ': ' + json.error.message : 'HTTP ' + response.status));
        error.status = response.status;
        throw error;
      });
    });
  }

  // For Node's tests only (a browser has no module): the pure helpers.
  if (typeof module === 'object' && module && module.exports) {
    module.exports = { bitString: bitString, idMapOf: idMapOf, restrictionStrings: restrictionStrings, vendorListVersionOf: vendorListVersionOf };
  }

  var api = {
    install: install,
    update: function (tcData, uiVisible, meta) { pageCmp('update').update(tcData, uiVisible, meta); },
    disable: function () { pageCmp('disable').disable(); },
    fromApp: fromApp,
    appConsent: function () { return appPayload; },
    recordAppConsent: recordAppConsent
  };
  if (!handOver) {
    window.ConsentKitTCF = api;
    return;
  }
  // The app's: neither replaceable nor changeable by page scripts, and so neither is what the
  // page's CMP and vendors read of the app's consent.
  Object.defineProperty(window, 'ConsentKitTCF', { value: Object.freeze(api), writable: false, configurable: false, enumerable: true });
  Object.defineProperty(window, 'ConsentKitAppConsent', { get: function () { return appPayload; }, configurable: false, enumerable: true });
  fromApp(handOver.payload, handOver.secret);
})();
