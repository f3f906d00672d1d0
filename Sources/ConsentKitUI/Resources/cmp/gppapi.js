// @ts-check
/* ConsentKit __gpp: the IAB GPP CMP API v1.1 on the CMP's state (the stub is gppapi-stub.js; both
 * use cmp-frames.js, loaded first).
 *
 * window.ConsentKitGPP:
 *   install() -> true
 *       Puts the API in place of the stub (ours, or the specification's example stub: both keep
 *       __gpp.queue, __gpp.events and __gpp.lastId) or where there is none. The stub's listeners
 *       become the API's, with their listenerIds, and hear every later event (the first is
 *       cmpStatus 'loading'); listenerIds go on after the stub's last. Queued calls are then run in
 *       call order. Adds the message listener unless the stub's is there, and the __gppLocator
 *       frame unless one exists. cmpStatus is 'loading', signalStatus 'not ready', cmpId 0 and
 *       applicableSections the stub's ([0], or the ids its tag declared) until the first update().
 *       A later install() starts afresh. Throws an Error when cmp-frames.js was not loaded first.
 *   update(state)
 *       The CMP's state: any of {gppString, sectionList, applicableSections, parsedSections,
 *       supportedAPIs, cmpId, cmpDisplayStatus, signalStatus} (GPPState, Tests/js/globals.d.ts). Fields left out
 *       keep their value, except signalStatus, which is 'ready' unless the state says 'not ready'
 *       (an update is the signal vendors may use, unless the CMP still waits for the user).
 *       applicableSections [] is [-1] (none applies); cmpId left out until the first update is 1
 *       (a CMP without an IAB id). A section's Created and LastUpdated given as ISO 8601 text (a
 *       state read from JSON) become Dates. A field of the wrong type is a TypeError naming it, and so is a
 *       'ready' signal whose applicable section is not in sectionList (the specification: ready
 *       only once the string holds the applicable section); nothing changes then. The caller's objects are copied, never kept or changed.
 *       The events, in this order, each to every listener with the PingReturn of that moment:
 *         signalStatus 'not ready'   when the signal is 'ready' and the gppString, the section
 *                                    list, the applicable sections or a parsed section changes,
 *                                    or the state says 'not ready';
 *         cmpStatus 'loaded'         at the first update;
 *         cmpDisplayStatus           when it changes;
 *         sectionChange (prefix)     per section added, changed or removed (not at the first
 *                                    update: the sections found at load are loaded, not changed);
 *         signalStatus 'ready'       when the signal was not ready and the state does not say 'not ready'.
 *       Ignored after disable(); throws an Error before install().
 *   disable(message)
 *       cmpStatus 'error' (event cmpStatus, then event error with `message`); from then on only
 *       'ping' answers, every other call gets (null, false), and no listener hears anything more.
 *
 * Commands (__gpp(command, callback, parameter, version); version: none or '1.1'; no return value):
 *   ping, addEventListener (an EventListener object at once, listenerRegistered, then one per
 *   event), removeEventListener(listenerId) (EventListener listenerRemoved, data true or false),
 *   hasSection(prefix), getSection(prefix), getField('prefix.Field') (the field of the first
 *   sub-section that has it). Before the first update these three answer null; after it, an absent
 *   section or field is false / null. Every answer is synchronous, each callback gets its own copy.
 *   A command this API does not know (a section's own), another version, or a parameter of the
 *   wrong type: (null, false). A callback that is not a function is a TypeError.
 *
 * createCmp (the state machine, without a page) is exported to Node when the file is loaded there
 * (Tests/js/gppapi.test.js); a browser has no `module`.
 */

// Its types, GPPPing (PingReturn) and GPPState (what update() takes), are in Tests/js/globals.d.ts.
(function () {
  'use strict';

  if (window.ConsentKitGPP && typeof window.ConsentKitGPP.install === 'function') return;

  var frames = window.ConsentKitCMPFrames;  // undefined in Node's tests, which use createCmp only
  var LOCATOR = '__gppLocator';
  var page = null;

  /* ---------------------------------------------------------------- helpers */

  function isObject(x) { return x !== null && typeof x === 'object' && !Array.isArray(x); }
  function isInteger(x) { return typeof x === 'number' && isFinite(x) && Math.floor(x) === x; }
  function has(obj, key) { return Object.prototype.hasOwnProperty.call(obj, key); }
  function isVersion(v) { return v == null || v === '1.1' || v === 1.1; }
  function report(error) { if (frames) frames.report(error); else setTimeout(function () { throw error; }, 0); }

  // A copy of plain data: objects, arrays and Dates (a section's Created and LastUpdated; made in
  // any window, so not told by instanceof).
  function copy(x) {
    if (Object.prototype.toString.call(x) === '[object Date]') return new Date(x.getTime());
    if (Array.isArray(x)) return x.map(copy);
    if (!isObject(x)) return x;
    var out = {};
    for (var k in x) if (has(x, k)) out[k] = copy(x[k]);
    return out;
  }
  function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

  // The state's fields, checked; a TypeError names the first wrong one and nothing has changed.
  /** @param {any} state @returns {GPPState} */
  function checked(state) {
    function fail(field, what) { throw new TypeError('ConsentKitGPP.update: ' + field + ' must be ' + what); }
    function integers(field, list, min) {
      if (!Array.isArray(list) || !list.every(function (n) { return isInteger(n) && n >= min; })) fail(field, 'an array of integers ≥ ' + min);
    }
    if (!isObject(state)) fail('the state', 'an object');
    var out = {};
    if (has(state, 'gppString')) { if (typeof state.gppString !== 'string') fail('gppString', 'a string'); out.gppString = state.gppString; }
    if (has(state, 'sectionList')) { integers('sectionList', state.sectionList, 1); out.sectionList = state.sectionList.slice(); }
    if (has(state, 'applicableSections')) {
      var ids = state.applicableSections;
      integers('applicableSections', ids, -1);
      if (ids.length > 2 || (ids.indexOf(-1) >= 0 && ids.length > 1)) fail('applicableSections', 'at most two section ids, or [-1]');
      out.applicableSections = ids.length ? ids.slice() : [-1];
    }
    if (has(state, 'parsedSections')) {
      var sections = state.parsedSections;
      if (!isObject(sections)) fail('parsedSections', 'an object {prefix: [sub-section, ...]}');
      for (var prefix in sections) {
        if (has(sections, prefix) && !(Array.isArray(sections[prefix]) && sections[prefix].every(isObject))) {
          fail('parsedSections.' + prefix, 'an array of sub-section objects');
        }
      }
      out.parsedSections = copy(sections);
      // A section's dates arrive as ISO 8601 text when the state came as JSON (consentd's answer,
      // an app's payload); the API answers them as Dates.
      for (var key in out.parsedSections) {
        out.parsedSections[key].forEach(function (sub) {
          ['Created', 'LastUpdated'].forEach(function (field) {
            if (typeof sub[field] === 'string' && !isNaN(Date.parse(sub[field]))) sub[field] = new Date(sub[field]);
          });
        });
      }
    }
    if (has(state, 'supportedAPIs')) {
      if (!Array.isArray(state.supportedAPIs) || !state.supportedAPIs.every(function (s) { return typeof s === 'string' && /^[0-9]+:[a-z0-9]+$/.test(s); })) {
        fail('supportedAPIs', 'an array of "id:prefix" strings');
      }
      out.supportedAPIs = state.supportedAPIs.slice();
    }
    if (has(state, 'cmpId')) { if (!isInteger(state.cmpId) || state.cmpId < 1) fail('cmpId', 'an integer ≥ 1 (1: no IAB CMP id)'); out.cmpId = state.cmpId; }
    if (has(state, 'cmpDisplayStatus')) {
      if ([null, 'hidden', 'visible', 'disabled'].indexOf(state.cmpDisplayStatus) < 0) fail('cmpDisplayStatus', "'hidden', 'visible', 'disabled' or null");
      out.cmpDisplayStatus = state.cmpDisplayStatus;
    }
    if (has(state, 'signalStatus')) {
      if (state.signalStatus !== 'ready' && state.signalStatus !== 'not ready') fail('signalStatus', "'ready' or 'not ready'");
      out.signalStatus = state.signalStatus;
    }
    return out;
  }

  /* ---------------------------------------------------------------- one CMP API */

  // start: {applicableSections, listeners: [{id, callback}] (a stub's), lastId}.
  /** @param {{ applicableSections?: number[], listeners?: any[], lastId?: number }} start */
  function createCmp(start) {
    /** @type {GPPPing} */
    var s = { gppVersion: '1.1', cmpStatus: 'loading', cmpDisplayStatus: 'hidden', signalStatus: 'not ready', supportedAPIs: [], cmpId: 0,
      sectionList: [], applicableSections: Array.isArray(start.applicableSections) ? start.applicableSections.slice() : [0],
      gppString: '', parsedSections: {} };
    /** @type {{ id: number, callback: Function }[]} */
    var listeners = (start.listeners || []).filter(function (l) { return l && isInteger(l.id) && typeof l.callback === 'function'; })
      .map(function (l) { return { id: l.id, callback: l.callback }; });
    var nextId = Math.max.apply(null, [isInteger(start.lastId) ? start.lastId : 0].concat(listeners.map(function (l) { return l.id; }))) + 1;

    function ping() { return /** @type {GPPPing} */ (copy(s)); }
    function eventObject(eventName, listenerId, data) { return { eventName: eventName, listenerId: listenerId, data: data, pingData: ping() }; }

    // Every listener registered when the event fires, unless an earlier one removed it.
    function fire(eventName, data) {
      listeners.slice().forEach(function (l) {
        if (listeners.indexOf(l) < 0) return;
        try { l.callback(eventObject(eventName, l.id, data), true); } catch (e) { report(e); }
      });
    }

    var commands = {
      addEventListener: function (callback) {
        var id = nextId++;
        listeners.push({ id: id, callback: callback });
        callback(eventObject('listenerRegistered', id, true), true);
      },
      removeEventListener: function (callback, listenerId) {
        var id = Number(listenerId), before = listeners.length;
        listeners = listeners.filter(function (l) { return l.id !== id; });
        callback(eventObject('listenerRemoved', id, listeners.length < before), true);
      },
      hasSection: function (callback, prefix) {
        if (typeof prefix !== 'string') { callback(null, false); return; }
        callback(s.cmpStatus === 'loaded' ? has(s.parsedSections, prefix) : null, true);
      },
      getSection: function (callback, prefix) {
        if (typeof prefix !== 'string') { callback(null, false); return; }
        callback(s.cmpStatus === 'loaded' && has(s.parsedSections, prefix) ? copy(s.parsedSections[prefix]) : null, true);
      },
      getField: function (callback, path) {
        var dot = typeof path === 'string' ? path.indexOf('.') : -1;
        if (dot < 1 || dot === path.length - 1) { callback(null, false); return; }
        var prefix = path.slice(0, dot), field = path.slice(dot + 1), value = null;
        if (s.cmpStatus === 'loaded' && has(s.parsedSections, prefix)) {
          var holder = s.parsedSections[prefix].filter(function (sub) { return has(sub, field); })[0];
          if (holder) value = copy(holder[field]);
        }
        callback(value, true);
      }
    };

    /** @param {string} command @param {any} callback @param {any} [parameter] @param {any} [version] */
    function api(command, callback, parameter, version) {
      if (frames) frames.claim('__gpp');
      if (typeof callback !== 'function') throw new TypeError('__gpp: the callback of "' + command + '" must be a function');
      if (command === 'ping') { callback(ping(), true); return; }
      if (s.cmpStatus === 'error' || !isVersion(version) || !has(commands, command)) { callback(null, false); return; }
      commands[command](callback, parameter);
    }

    // The API is in place: the stub's listeners hear that it is loading.
    function begin() { fire('cmpStatus', 'loading'); }

    /** @param {any} state */
    function update(state) {
      if (s.cmpStatus === 'error') return;
      var next = checked(state);
      var first = s.cmpStatus !== 'loaded';
      var sections = has(next, 'parsedSections') ? next.parsedSections : s.parsedSections;
      var changed = first ? [] : Object.keys(sections).concat(Object.keys(s.parsedSections).filter(function (p) { return !has(sections, p); }))
        .filter(function (p) { return !same(sections[p], s.parsedSections[p]); });
      var signalChanged = changed.length > 0 || ['gppString', 'sectionList', 'applicableSections'].some(function (k) { return has(next, k) && !same(next[k], s[k]); });
      var ready = next.signalStatus !== 'not ready';
      var inForce = has(next, 'applicableSections') ? next.applicableSections : s.applicableSections;
      var listed = has(next, 'sectionList') ? next.sectionList : s.sectionList;
      var missing = inForce.filter(function (id) { return id > 0 && listed.indexOf(id) < 0; });
      if (ready && missing.length) {
        throw new TypeError('ConsentKitGPP.update: applicableSections: section ' + missing[0] + ' is not in sectionList; ' +
          "a 'ready' signal needs the applicable section in the string (else signalStatus 'not ready')");
      }

      if (s.signalStatus === 'ready' && (signalChanged || !ready)) { s.signalStatus = 'not ready'; fire('signalStatus', 'not ready'); }
      ['gppString', 'sectionList', 'applicableSections', 'parsedSections', 'supportedAPIs', 'cmpId'].forEach(function (k) {
        if (has(next, k)) s[k] = next[k];
      });
      if (first) {
        s.cmpStatus = 'loaded';
        if (!has(next, 'cmpId') && s.cmpId === 0) s.cmpId = 1;
        fire('cmpStatus', 'loaded');
      }
      if (has(next, 'cmpDisplayStatus') && next.cmpDisplayStatus !== s.cmpDisplayStatus) {
        s.cmpDisplayStatus = next.cmpDisplayStatus;
        fire('cmpDisplayStatus', s.cmpDisplayStatus);
      }
      changed.forEach(function (prefix) { fire('sectionChange', prefix); });
      if (ready && s.signalStatus !== 'ready') { s.signalStatus = 'ready'; fire('signalStatus', 'ready'); }
    }

    function disable(message) {
      if (s.cmpStatus === 'error') return;
      s.cmpStatus = 'error';
      fire('cmpStatus', 'error');
      fire('error', typeof message === 'string' && message ? message : 'the CMP cannot answer');
      listeners = [];
    }

    return { api: api, begin: begin, update: update, disable: disable };
  }

  /* ---------------------------------------------------------------- the page's CMP */

  function install() {
    if (!frames) throw new Error('ConsentKitGPP.install: load cmp-frames.js first');
    var previous = /** @type {any} */ (window.__gpp), queue = [], start = {};
    if (typeof previous === 'function' && !previous.consentKitCmp) {
      queue = Array.isArray(previous.queue) ? previous.queue.slice() : [];
      start.listeners = Array.isArray(previous.events) ? previous.events : [];
      start.lastId = previous.lastId;
      // The stub's applicable sections; the specification's example stub returns its ping
      // instead of calling back (GPP issue #46): either form is read.
      try {
        var returned = previous('ping', function (p) { if (p && Array.isArray(p.applicableSections)) start.applicableSections = p.applicableSections; });
        if (!start.applicableSections && returned && Array.isArray(returned.applicableSections)) start.applicableSections = returned.applicableSections;
      } catch (e) { /* a stub that cannot ping: [0] */ }
      previous.queue = [];
      previous.events = [];
    }
    page = createCmp(start);
    var api = /** @type {any} */ (page.api);
    api.consentKitCmp = true;
    // One listener per window serves whatever __gpp is current: the stub's, or this one.
    if (!(typeof previous === 'function' && previous.consentKitListener === true)) {
      frames.listen('__gpp', function () {
        var current = window.__gpp;
        return typeof current === 'function' ? function (call, answer) { current(call.command, answer, call.parameter, call.version); } : null;
      });
    }
    api.consentKitListener = true;
    window.__gpp = api;
    frames.addLocator(LOCATOR, function () { return window.__gpp === api; });
    page.begin();
    frames.replay(queue, function (call) { api.apply(null, call); });
    return true;
  }

  function pageCmp(name) {
    if (!page) throw new Error('ConsentKitGPP.' + name + ': call ConsentKitGPP.install first');
    return page;
  }

  // For Node's tests only (a browser has no module): the state machine.
  if (typeof module === 'object' && module && module.exports) module.exports = { createCmp: createCmp };

  window.ConsentKitGPP = {
    install: install,
    update: function (state) { pageCmp('update').update(state); },
    disable: function (message) { pageCmp('disable').disable(message); }
  };
})();
