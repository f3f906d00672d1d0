// @ts-check
/* ConsentKit consent notice, the vendors' details of a website's notice (see notice-model.js for
 * the scripts' order). The document consentd sends a website's page (POST /v1/web/session) keeps
 * in each vendor only what the first layer and the switches need, and names where the rest is
 * (`vendorDetailsUrl`, a path of consentd's origin: GET /v1/web/vendor-details, cached by the
 * browser with its ETag): data categories, retention, the privacy policy and legitimate-interest
 * claim URLs, cookies and other storage, the storage disclosure. NoticeDetails.when(doc, use)
 * loads them the first time the vendor list or a vendor's details need them, puts them into the
 * document's vendor objects, then calls `use`. An app's document has them inline: `use` runs at
 * once. When loading fails, `use` runs anyway (the vendor shows what the document has) and the
 * next call tries again.
 */

/** @typedef {{ when: (doc: NoticeDocument, use: () => void) => void }} NoticeDetailsApi */

/** @type {NoticeDetailsApi} */
const NoticeDetails = (function () {
  'use strict';

  var isObject = NoticeModel.isObject, asArray = NoticeModel.asArray;
  // What a details answer may set on a vendor: never its id, name, purposes or features.
  var FIELDS = ['dataCategories', 'retention', 'privacyPolicyUrl', 'legIntClaimUrl', 'usesCookies', 'cookieMaxAgeSeconds',
    'cookieRefresh', 'usesNonCookieAccess', 'storageDisclosureUrl'];
  /** The documents whose details are in, and the loads under way. */
  var loaded = new WeakSet(), loading = new WeakMap();

  /** @param {NoticeDocument} doc @param {any} answer */
  function merge(doc, answer) {
    /** @type {Object<string, any>} */
    var byId = {};
    asArray(doc.vendors).forEach(function (v) { byId[v.id] = v; });
    asArray(isObject(answer) ? answer.vendors : null).forEach(function (d) {
      var v = isObject(d) ? byId[d.id] : null;
      if (v) FIELDS.forEach(function (k) { if (d[k] !== undefined) v[k] = d[k]; });
    });
  }

  /** @param {NoticeDocument} doc @param {() => void} use */
  function when(doc, use) {
    var url = /** @type {any} */ (doc).vendorDetailsUrl;
    // Only a path of the notice's own origin (consentd's): the details are never asked of another.
    if (typeof url !== 'string' || !/^\/(?!\/)/.test(url) || loaded.has(doc)) { use(); return; }
    var load = loading.get(doc);
    if (!load) {
      load = fetch(url, { credentials: 'omit' })
        .then(function (r) { if (!r.ok) throw new Error('HTTP ' + r.status); return r.json(); })
        .then(function (answer) { merge(doc, answer); loaded.add(doc); loading.delete(doc); },
          function () { loading.delete(doc); });
      loading.set(doc, load);
    }
    load.then(use);
  }

  return { when: when };
})();
