// @ts-check
/* ConsentKit consent notice, its model (protocol 1, see docs/notice-protocol.md): the document's
 * types, and the pure functions from a document to what the page shows and back to the result's
 * choices. No DOM, no state: `node --test` runs them (Tests/js/notice-model.test.js).
 *
 * The notice's scripts, loaded in this order by notice.html (no build step):
 *   notice-model.js   this file: validate, normalise, buildModel, initialChoices, collectChoices
 *   notice-dom.js     element and text helpers, the theme
 *   notice-google.js  Google mode's three screens
 *   notice-us.js      US mode's layers 1 and 2 (the notice at collection, the opt-outs)
 *   notice-details.js a website's vendor details, loaded when first needed
 *   notice-vendors.js layer 3, the vendor list, and each vendor's details
 *   notice-layers.js  the dialog: its shell, the switches, the TCF layers 1, 2 and 4, the result
 *   notice.js         window.ConsentKitNotice: configure(), the messages to the host
 * Each defines one frozen object (NoticeModel, NoticeDom, NoticeGoogle, NoticeUS, NoticeVendors, NoticeLayers); the state
 * of a shown notice lives in the view configure() creates, not in the scripts.
 */

/**
 * A purpose, feature, special purpose or special feature as the document names it.
 * @typedef {{ name?: string, description?: string, illustrations?: string[] }} NoticeDeclaration
 */
/**
 * A vendor of the Global Vendor List, as the document carries it.
 * @typedef {{
 *   id: number, name: string, purposes?: number[], legIntPurposes?: number[], flexiblePurposes?: number[],
 *   specialPurposes?: number[], features?: number[], specialFeatures?: number[], dataCategories?: number[],
 *   retention?: { std?: number, purposes?: Object<string, number>, specialPurposes?: Object<string, number> },
 *   usesCookies?: boolean, cookieMaxAgeSeconds?: number | null, cookieRefresh?: boolean, usesNonCookieAccess?: boolean,
 *   privacyPolicyUrl?: string, legIntClaimUrl?: string, storageDisclosureUrl?: string | null
 * }} NoticeVendor
 */
/**
 * A Google ad-tech provider (not in the TCF).
 * @typedef {{ id: number, name: string, privacyPolicyUrl?: string }} NoticeAdTechProvider
 */
/**
 * A stack: purposes and special features shown as one item on the first layer.
 * @typedef {{ id: number, name?: string, description?: string, purposes?: number[], specialFeatures?: number[] }} NoticeStack
 */
/**
 * The present choices a document may open on (the result's choices, by the same names).
 * @typedef {{
 *   purposeConsents?: number[], purposeLegitimateInterests?: number[], specialFeatureOptIns?: number[],
 *   vendorConsents?: number[], vendorLegitimateInterests?: number[], adTechProviderConsents?: number[],
 *   us?: NoticeUSChoice | null
 * }} NoticeCurrent
 */
/**
 * The document the host configures the page with (docs/notice-protocol.md), after normalise().
 * @typedef {{
 *   protocol: number, mode: 'tcf' | 'google' | 'us', language: string, direction?: 'ltr' | 'rtl',
 *   texts: Object<string, string>, noticeVersion?: number | null, allowsDismissal?: boolean, choiceStorageDays?: number | null,
 *   startLayer?: 'first' | 'purposes',
 *   publisher: { name?: string, appName?: string, privacyPolicyUrl: string, logo?: string },
 *   cmp: { id: number, version?: number },
 *   purposes: Object<string, NoticeDeclaration>, specialPurposes: Object<string, NoticeDeclaration>,
 *   features: Object<string, NoticeDeclaration>, specialFeatures: Object<string, NoticeDeclaration>,
 *   dataCategories: Object<string, NoticeDeclaration>, stacks: NoticeStack[],
 *   vendors: NoticeVendor[], adTechProviders: NoticeAdTechProvider[],
 *   adFree: { offered?: boolean },
 *   google: { personalizedOffered?: boolean, nonPersonalizedOffered?: boolean, refusalOffered?: boolean, appIcon?: string | null },
 *   current?: NoticeCurrent | null, theme?: Object<string, any>, us?: NoticeUSContext
 * }} NoticeDocument
 */
/**
 * A save's choices, as the result carries them: sorted ids.
 * @typedef {{
 *   purposeConsents: number[], purposeLegitimateInterests: number[], specialFeatureOptIns: number[],
 *   vendorConsents: number[], vendorLegitimateInterests: number[], adTechProviderConsents: number[]
 * }} NoticeChoices
 */
/**
 * The one result the page posts (`type` "result"), or its other messages ("ready", "loadError").
 * @typedef {{
 *   protocol: number, type: 'result', action: string, layer: number | string, language: string,
 *   noticeVersion: number | null, choices?: NoticeChoices | { us: NoticeUSChoice }, timings?: Object<string, number>
 * }} NoticeResult
 */
/**
 * @typedef {NoticeResult
 *   | { protocol: number, type: 'ready', layer: number, renderMs: number }
 *   | { protocol: number, type: 'loadError', code: string, message: string }} NoticeMessage
 */
/**
 * The indexes buildModel() derives from a document.
 * @typedef {{
 *   vendorById: Object<string, NoticeVendor>, consentByPurpose: Object<string, NoticeVendor[]>,
 *   liByPurpose: Object<string, NoticeVendor[]>, bySpecialPurpose: Object<string, NoticeVendor[]>,
 *   byFeature: Object<string, NoticeVendor[]>, bySpecialFeature: Object<string, NoticeVendor[]>,
 *   liPurposeIds: number[], liVendorIds: number[], liPurposesOf: Object<string, number[]>
 * }} NoticeIndex
 */
/**
 * The user's present choices while the notice is open: the page keeps objections, the result
 * lists the legitimate interests kept.
 * @typedef {{
 *   purposeConsents: Set<number>, purposeObjections: Set<number>, specialFeatureOptIns: Set<number>,
 *   vendorConsents: Set<number>, vendorObjections: Set<number>, atpConsents: Set<number>
 * }} NoticeChoiceSets
 */

const NoticeModel = (function () {
  'use strict';

  var PROTOCOL = 1;
  // TCF 2.2: purposes 1 and 3-6 can never rest on legitimate interest, whatever the data says.
  /** @type {Object<string, boolean>} */
  var NO_LI_PURPOSES = { 1: true, 3: true, 4: true, 5: true, 6: true };

  // A switch of the notice: a native checkbox with role=switch, whose kind names the set of the
  // choices it edits.
  /** @type {Object<string, keyof NoticeChoiceSets>} */
  var KIND_SET = {
    purpose: 'purposeConsents', purposeLi: 'purposeObjections', specialFeature: 'specialFeatureOptIns',
    vendor: 'vendorConsents', vendorLi: 'vendorObjections', atp: 'atpConsents'
  };

  /** @param {any} x @returns {boolean} */
  function isObject(x) { return x !== null && typeof x === 'object' && !Array.isArray(x); }
  /** @param {any} x @returns {any[]} */
  function asArray(x) { return Array.isArray(x) ? x : []; }
  /** @param {any} x @returns {Object<string, any>} */
  function asObject(x) { return isObject(x) ? x : {}; }
  /** @param {number} a @param {number} b */
  function byNumber(a, b) { return a - b; }
  /** The numeric keys of an object, sorted. @param {Object<string, any>} obj @returns {number[]} */
  function sortedIds(obj) { return Object.keys(obj).map(Number).filter(isFinite).sort(byNumber); }
  /** The text when it is an http(s) URL, else null. @param {any} u @returns {string | null} */
  function httpUrl(u) { return typeof u === 'string' && /^https?:\/\/[^\s]+$/i.test(u) ? u : null; }

  /**
   * Null when the document can be rendered, else [code, message] (a loadError's).
   * @param {any} d
   * @returns {[string, string] | null}
   */
  function validate(d) {
    if (!isObject(d)) return ['malformed_document', 'The document is not a JSON object.'];
    if (d.protocol !== PROTOCOL) return ['unsupported_protocol', 'This page speaks protocol 1, the document names ' + JSON.stringify(d.protocol) + '.'];
    // US mode's own part (`us`) is NoticeUS.validate's.
    if (d.mode !== 'tcf' && d.mode !== 'google' && d.mode !== 'us') return ['malformed_document', 'mode must be "tcf", "google" or "us".'];
    if (!isObject(d.texts)) return ['malformed_document', 'texts must be an object.'];
    if (typeof d.language !== 'string' || !/^[a-z]{2}$/.test(d.language)) return ['malformed_document', 'language must be an ISO 639-1 code.'];
    if (!isObject(d.publisher)) return ['missing_privacy_policy_url', 'publisher is missing.'];
    if (!httpUrl(d.publisher.privacyPolicyUrl)) return ['missing_privacy_policy_url', 'publisher.privacyPolicyUrl must be an http(s) URL.'];
    var cmpId = isObject(d.cmp) ? d.cmp.id : undefined;
    if (typeof cmpId !== 'number' || Math.floor(cmpId) !== cmpId || cmpId < 2 || cmpId > 4095) return ['missing_cmp_id', 'cmp.id must be an integer from 2 to 4095.'];
    if (d.vendors !== undefined && d.vendors !== null && !Array.isArray(d.vendors)) return ['malformed_document', 'vendors must be an array.'];
    if (d.adTechProviders !== undefined && d.adTechProviders !== null && !Array.isArray(d.adTechProviders)) return ['malformed_document', 'adTechProviders must be an array.'];
    var vendors = asArray(d.vendors), atps = asArray(d.adTechProviders);
    for (var i = 0; i < vendors.length; i++) {
      if (!isObject(vendors[i]) || typeof vendors[i].id !== 'number' || typeof vendors[i].name !== 'string') return ['malformed_document', 'vendors[' + i + '] needs a numeric id and a name.'];
    }
    for (var j = 0; j < atps.length; j++) {
      if (!isObject(atps[j]) || typeof atps[j].id !== 'number' || typeof atps[j].name !== 'string') return ['malformed_document', 'adTechProviders[' + j + '] needs a numeric id and a name.'];
    }
    if (d.mode === 'tcf' && vendors.length === 0) return ['no_vendors', 'A TCF notice needs at least one vendor.'];
    if (d.mode === 'google' && vendors.length === 0 && atps.length === 0) return ['no_vendors', 'A Google notice needs at least one ad-tech provider or vendor.'];
    if (d.mode === 'google' && isObject(d.google) && d.google.personalizedOffered === false && d.google.nonPersonalizedOffered === false) {
      return ['malformed_document', 'A Google notice must offer personalized or non-personalized ads.'];
    }
    if (d.mode === 'google' && isObject(d.google) && d.google.refusalOffered === false && !(isObject(d.adFree) && d.adFree.offered === true)) {
      return ['malformed_document', 'A Google notice must offer a refusal: "Do not consent" (google.refusalOffered) or the ad-free version.'];
    }
    return null;
  }

  /**
   * Normalises a validated document's optional parts (in place) so the renderers need no checks.
   * @param {any} d
   * @returns {NoticeDocument}
   */
  function normalise(d) {
    d.vendors = asArray(d.vendors);
    d.adTechProviders = asArray(d.adTechProviders);
    ['purposes', 'specialPurposes', 'features', 'specialFeatures', 'dataCategories'].forEach(function (k) { d[k] = asObject(d[k]); });
    d.stacks = asArray(d.stacks).filter(isObject);
    d.adFree = asObject(d.adFree);
    d.google = asObject(d.google);
    return d;
  }

  /**
   * Indexes: which vendors use each purpose under each legal basis, who has objectable LI.
   * @param {NoticeDocument} d
   * @returns {NoticeIndex}
   */
  function buildModel(d) {
    /** @type {NoticeIndex} */
    var m = {
      vendorById: {}, consentByPurpose: {}, liByPurpose: {}, bySpecialPurpose: {}, byFeature: {},
      bySpecialFeature: {}, liPurposeIds: [], liVendorIds: [], liPurposesOf: {}
    };
    /** @param {Object<string, NoticeVendor[]>} index @param {number} id @param {NoticeVendor} v */
    function add(index, id, v) { (index[id] = index[id] || []).push(v); }
    d.vendors.forEach(function (v) {
      m.vendorById[v.id] = v;
      asArray(v.purposes).forEach(function (p) { add(m.consentByPurpose, p, v); });
      // The vendors with an objectable legitimate interest (liVendorIds): those declaring one for
      // a purpose that may rest on it.
      var li = asArray(v.legIntPurposes).filter(function (p) { return !NO_LI_PURPOSES[p]; });
      m.liPurposesOf[v.id] = li;
      li.forEach(function (p) { add(m.liByPurpose, p, v); });
      if (li.length) m.liVendorIds.push(v.id);
      asArray(v.specialPurposes).forEach(function (p) { add(m.bySpecialPurpose, p, v); });
      asArray(v.features).forEach(function (p) { add(m.byFeature, p, v); });
      asArray(v.specialFeatures).forEach(function (p) { add(m.bySpecialFeature, p, v); });
    });
    m.liPurposeIds = sortedIds(m.liByPurpose).filter(function (p) { return d.purposes[p]; });
    m.liVendorIds.sort(byNumber);
    return m;
  }

  /**
   * Starting choices: everything off, unless document.current carries the present choices.
   * @param {NoticeDocument} d
   * @param {NoticeIndex} m
   * @returns {NoticeChoiceSets}
   */
  function initialChoices(d, m) {
    /** @type {NoticeChoiceSets} */
    var c = {
      purposeConsents: new Set(), purposeObjections: new Set(), specialFeatureOptIns: new Set(),
      vendorConsents: new Set(), vendorObjections: new Set(), atpConsents: new Set()
    };
    var cur = d.current;
    if (!cur || !isObject(cur)) return c;
    /** @param {Set<number>} set @param {any} ids @param {(id: number) => any} shown */
    function fill(set, ids, shown) { asArray(ids).forEach(function (id) { if (shown(id)) set.add(id); }); }
    fill(c.purposeConsents, cur.purposeConsents, function (id) { return d.purposes[id]; });
    fill(c.specialFeatureOptIns, cur.specialFeatureOptIns, function (id) { return d.specialFeatures[id]; });
    fill(c.vendorConsents, cur.vendorConsents, function (id) { return m.vendorById[id]; });
    fill(c.atpConsents, cur.adTechProviderConsents, function (id) {
      return d.adTechProviders.some(function (a) { return a.id === id; });
    });
    // The result lists the legitimate interests kept; the page stores the objections.
    var keptPurposes = cur.purposeLegitimateInterests, keptVendors = cur.vendorLegitimateInterests;
    if (Array.isArray(keptPurposes)) {
      m.liPurposeIds.forEach(function (p) { if (keptPurposes.indexOf(p) < 0) c.purposeObjections.add(p); });
    }
    if (Array.isArray(keptVendors)) {
      m.liVendorIds.forEach(function (v) { if (keptVendors.indexOf(v) < 0) c.vendorObjections.add(v); });
    }
    return c;
  }

  /**
   * A save's choices: the sets as sorted ids, and the legitimate interests not objected to.
   * @param {NoticeIndex} m
   * @param {NoticeChoiceSets} choice
   * @returns {NoticeChoices}
   */
  function collectChoices(m, choice) {
    /** @param {Set<number>} set */
    function list(set) { return Array.from(set).sort(byNumber); }
    return {
      purposeConsents: list(choice.purposeConsents),
      purposeLegitimateInterests: m.liPurposeIds.filter(function (p) { return !choice.purposeObjections.has(p); }),
      specialFeatureOptIns: list(choice.specialFeatureOptIns),
      vendorConsents: list(choice.vendorConsents),
      vendorLegitimateInterests: m.liVendorIds.filter(function (v) { return !choice.vendorObjections.has(v); }),
      adTechProviderConsents: list(choice.atpConsents)
    };
  }

  return Object.freeze({
    PROTOCOL: PROTOCOL, NO_LI_PURPOSES: NO_LI_PURPOSES, KIND_SET: Object.freeze(KIND_SET),
    isObject: isObject, asArray: asArray, asObject: asObject, byNumber: byNumber, sortedIds: sortedIds, httpUrl: httpUrl,
    validate: validate, normalise: normalise, buildModel: buildModel, initialChoices: initialChoices, collectChoices: collectChoices
  });
})();
