/* ConsentKit consent notice (protocol 1, see docs/notice-protocol.md).
 *
 * The host calls window.ConsentKitNotice.configure(document) with one document; the page renders
 * the notice from it and posts back exactly one result (or a loadError). Every UI string comes
 * from document.texts. Read top to bottom:
 *   1. constants and state           7. layer 2: purposes and features
 *   2. small DOM and text helpers    8. layer 3: the vendor list
 *   3. messages to the host          9. layer 4: legitimate interest
 *   4. document validation          10. results
 *   5. the dialog shell             11. Google mode
 *   6. toggles; layer 1: first layer 12. configure()
 * Timings (performance.now()) are kept in ConsentKitNotice.metrics and sent in the messages.
 */
(function () {
  'use strict';

  /* ---------------------------------------------------------------- 1. constants and state */

  var PROTOCOL = 1;
  // TCF 2.2: purposes 1 and 3-6 can never rest on legitimate interest, whatever the data says.
  var NO_LI_PURPOSES = { 1: true, 3: true, 4: true, 5: true, 6: true };
  var THEME_KEYS = ['background', 'surface', 'text', 'mutedText', 'primary', 'onPrimary', 'border', 'link'];

  var api = { configure: configure, lastMessage: null, metrics: {} };
  var doc = null;      // the validated document
  var model = null;    // indexes derived from the document (vendors per purpose, ...)
  var choice = null;   // the user's present choices (Sets of ids)
  var ui = null;       // the rendered dialog: elements, layers, history
  var startedAt = 0;   // performance.now() when configure() was called
  var shownAt = 0;     // ... when the first screen became interactive
  var decided = false;

  /* ---------------------------------------------------------------- 2. small helpers */

  function now() { return window.performance ? performance.now() : Date.now(); }
  function round1(ms) { return Math.round(ms * 10) / 10; }
  function isObject(x) { return x !== null && typeof x === 'object' && !Array.isArray(x); }
  function asArray(x) { return Array.isArray(x) ? x : []; }
  function asObject(x) { return isObject(x) ? x : {}; }
  function byNumber(a, b) { return a - b; }
  function sortedIds(obj) { return Object.keys(obj).map(Number).filter(isFinite).sort(byNumber); }
  function httpUrl(u) { return typeof u === 'string' && /^https?:\/\/[^\s]+$/i.test(u) ? u : null; }
  // A storage disclosure may also be a path on the page's own origin (consentd's proxy serving the page).
  function storageUrl(u) {
    if (typeof u === 'string' && /^\/[^\/\s][^\s]*$/.test(u) && /^https?:$/.test(location.protocol)) return location.origin + u;
    return httpUrl(u);
  }

  // h('p', {class: 'x', text: 'hello'}, [children]) creates an element. Keys starting with "on"
  // become listeners; "text" sets textContent; everything else is an attribute.
  function h(tag, attrs, children) {
    var el = document.createElement(tag);
    if (attrs) {
      for (var k in attrs) {
        var v = attrs[k];
        if (v === null || v === undefined || v === false) continue;
        if (k === 'text') el.textContent = v;
        else if (k.slice(0, 2) === 'on') el.addEventListener(k.slice(2), v);
        else el.setAttribute(k, v === true ? '' : v);
      }
    }
    if (children) appendAll(el, children);
    return el;
  }
  function appendAll(el, children) {
    for (var i = 0; i < children.length; i++) {
      var c = children[i];
      if (c === null || c === undefined || c === false) continue;
      el.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    }
    return el;
  }

  // Texts: every UI string comes from document.texts; "{name}" placeholders are filled from params.
  function t(key, params) {
    var s = doc.texts[key];
    if (typeof s !== 'string') { (api.metrics.missingTexts = api.metrics.missingTexts || []).push(key); return ''; }
    return params ? s.replace(/\{(\w+)\}/g, function (m, name) {
      return params[name] !== undefined ? String(params[name]) : m;
    }) : s;
  }
  // The same, but a placeholder may be a DOM node (a link inside a sentence).
  function tNodes(key, params) {
    var parts = t(key).split(/(\{\w+\})/);
    var frag = document.createDocumentFragment();
    parts.forEach(function (part) {
      var m = /^\{(\w+)\}$/.exec(part);
      var v = m && params[m[1]] !== undefined ? params[m[1]] : part;
      if (v instanceof Node) frag.appendChild(v);
      else if (v !== '') frag.appendChild(document.createTextNode(String(v)));
    });
    return frag;
  }
  // Intl formatters are costly to create: one of each per language, made on first use.
  var intlCache = {};
  function intl(kind, options) {
    var key = kind + ':' + doc.language + ':' + JSON.stringify(options || {});
    if (!intlCache[key]) {
      try { intlCache[key] = new Intl[kind](doc.language, options); } catch (e) { intlCache[key] = null; }
    }
    return intlCache[key];
  }
  function num(n) {
    var f = intl('NumberFormat');
    return f ? f.format(n) : String(n);
  }
  // "813 vendors" with the language's plural rules (keys vendors_one, vendors_few, vendors_other...).
  function vendorsLabel(n) {
    var rules = intl('PluralRules');
    var cat = rules ? rules.select(n) : 'other';
    var key = typeof doc.texts['vendors_' + cat] === 'string' ? 'vendors_' + cat : 'vendors_other';
    return t(key, { vendorCount: num(n) });
  }
  // Seconds as a readable duration in the document's language: "1 year, 31 days", "2 hours".
  function duration(seconds) {
    if (typeof seconds !== 'number' || !isFinite(seconds)) return '';
    if (seconds <= 0) return t('session');
    function unit(value, name) {
      var f = intl('NumberFormat', { style: 'unit', unit: name, unitDisplay: 'long', maximumFractionDigits: 0 });
      return f ? f.format(value) : value + ' ' + name;
    }
    var days = Math.floor(seconds / 86400);
    if (days >= 1) {
      var parts = [];
      if (days >= 365) parts.push(unit(Math.floor(days / 365), 'year'));
      if (days % 365) parts.push(unit(days % 365, 'day'));
      var list = intl('ListFormat', { style: 'long', type: 'unit' });
      return list ? list.format(parts) : parts.join(', ');
    }
    if (seconds >= 3600) return unit(Math.round(seconds / 3600), 'hour');
    if (seconds >= 60) return unit(Math.round(seconds / 60), 'minute');
    return unit(Math.round(seconds), 'second');
  }
  function nameOf(kind, id) {
    var item = doc[kind][id];
    return item && typeof item.name === 'string' ? item.name.trim() : String(id);
  }
  function externalLink(url, text) {
    var href = httpUrl(url);
    return href ? h('a', { href: href, target: '_blank', rel: 'noopener noreferrer', text: text }) : null;
  }
  var ICONS = {
    close: '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M6 6l12 12M18 6L6 18" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" fill="none"/></svg>',
    back: '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M15 5l-7 7 7 7" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round" fill="none"/></svg>'
  };
  function iconButton(icon, label, onClick, extraClass) {
    var b = h('button', { type: 'button', class: 'ck-icon-btn ' + (extraClass || ''), 'aria-label': label, onclick: onClick });
    b.innerHTML = ICONS[icon];
    return b;
  }

  /* ---------------------------------------------------------------- 3. messages to the host */

  // The first transport that exists (WKWebView handler, else the parent frame), and always a
  // CustomEvent on window.
  function post(message) {
    api.lastMessage = message;
    try {
      if (typeof window.webkit !== 'undefined' && window.webkit && window.webkit.messageHandlers &&
          window.webkit.messageHandlers.consentkit) {
        window.webkit.messageHandlers.consentkit.postMessage(message);
      } else if (window.parent && window.parent !== window) {
        window.parent.postMessage(message, '*');
      }
    } catch (e) { /* a broken host transport must not stop the event below */ }
    window.dispatchEvent(new CustomEvent('consentkit:message', { detail: message }));
  }

  /* ---------------------------------------------------------------- 4. document validation */

  // Returns null when the document can be rendered, else [code, message].
  function validate(d) {
    if (!isObject(d)) return ['malformed_document', 'The document is not a JSON object.'];
    if (d.protocol !== PROTOCOL) return ['unsupported_protocol', 'This page speaks protocol 1, the document names ' + JSON.stringify(d.protocol) + '.'];
    if (d.mode !== 'tcf' && d.mode !== 'google') return ['malformed_document', 'mode must be "tcf" or "google".'];
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
    return null;
  }

  // Normalises optional parts so the renderers need no checks.
  function normalise(d) {
    d.vendors = asArray(d.vendors);
    d.adTechProviders = asArray(d.adTechProviders);
    ['purposes', 'specialPurposes', 'features', 'specialFeatures', 'dataCategories'].forEach(function (k) { d[k] = asObject(d[k]); });
    d.stacks = asArray(d.stacks).filter(isObject);
    d.adFree = asObject(d.adFree);
    d.google = asObject(d.google);
    return d;
  }

  // Indexes: which vendors use each purpose under each legal basis, who has objectable LI.
  function buildModel(d) {
    var m = {
      vendorById: {}, consentByPurpose: {}, liByPurpose: {}, bySpecialPurpose: {}, byFeature: {},
      bySpecialFeature: {}, liPurposeIds: [], liVendorIds: [], liPurposesOf: {}
    };
    function add(index, id, v) { (index[id] = index[id] || []).push(v); }
    d.vendors.forEach(function (v) {
      m.vendorById[v.id] = v;
      asArray(v.purposes).forEach(function (p) { add(m.consentByPurpose, p, v); });
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

  // Starting choices: everything off, unless document.current carries the present choices.
  function initialChoices(d, m) {
    var c = {
      purposeConsents: new Set(), purposeObjections: new Set(), specialFeatureOptIns: new Set(),
      vendorConsents: new Set(), vendorObjections: new Set(), atpConsents: new Set()
    };
    var cur = d.current;
    if (!isObject(cur)) return c;
    function fill(set, ids, shown) { asArray(ids).forEach(function (id) { if (shown(id)) set.add(id); }); }
    fill(c.purposeConsents, cur.purposeConsents, function (id) { return d.purposes[id]; });
    fill(c.specialFeatureOptIns, cur.specialFeatureOptIns, function (id) { return d.specialFeatures[id]; });
    fill(c.vendorConsents, cur.vendorConsents, function (id) { return m.vendorById[id]; });
    fill(c.atpConsents, cur.adTechProviderConsents, function (id) {
      return d.adTechProviders.some(function (a) { return a.id === id; });
    });
    // The result lists the legitimate interests kept; the page stores the objections.
    if (Array.isArray(cur.purposeLegitimateInterests)) {
      m.liPurposeIds.forEach(function (p) { if (cur.purposeLegitimateInterests.indexOf(p) < 0) c.purposeObjections.add(p); });
    }
    if (Array.isArray(cur.vendorLegitimateInterests)) {
      m.liVendorIds.forEach(function (v) { if (cur.vendorLegitimateInterests.indexOf(v) < 0) c.vendorObjections.add(v); });
    }
    return c;
  }

  /* ---------------------------------------------------------------- 5. the dialog shell */

  // Theme colours from the document, as the custom properties notice.css reads. A pair that
  // fails the 5:1 contrast the CTAs need falls back to the built-in palette for that scheme.
  function applyTheme(theme) {
    var root = document.documentElement.style;
    theme = asObject(theme);
    if (typeof theme.cornerRadius === 'number' && theme.cornerRadius >= 0 && theme.cornerRadius <= 32) {
      root.setProperty('--ck-radius', theme.cornerRadius + 'px');
    }
    ['light', 'dark'].forEach(function (scheme) {
      var colours = asObject(theme[scheme]);
      var usable = THEME_KEYS.every(function (k) { return /^#[0-9a-f]{6}$/i.test(colours[k] || ''); }) &&
        contrast(colours.primary, colours.onPrimary) >= 5 && contrast(colours.background, colours.text) >= 5;
      THEME_KEYS.forEach(function (k) {
        if (usable) root.setProperty('--ck-' + scheme + '-' + k, colours[k]);
        else root.removeProperty('--ck-' + scheme + '-' + k);
      });
    });
  }
  function luminance(hex) {
    var rgb = [1, 3, 5].map(function (i) {
      var c = parseInt(hex.substr(i, 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
  }
  function contrast(a, b) {
    var la = luminance(a), lb = luminance(b);
    return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
  }

  // Builds the empty dialog: a top bar (back, logo, close), a scrolling area holding one section
  // per layer, and a footer holding the current layer's buttons.
  function openShell() {
    var root = document.getElementById('ck-root') || document.body.appendChild(h('div', { id: 'ck-root' }));
    var html = document.documentElement;
    html.lang = doc.language;
    html.dir = doc.direction === 'rtl' ? 'rtl' : 'ltr';

    ui = { root: root, layers: {}, history: [], current: 0, scrollTops: {}, opener: document.activeElement };
    ui.back = iconButton('back', t('back'), goBack, 'ck-back');
    ui.back.appendChild(h('span', { text: t('back') }));
    ui.close = doc.allowsDismissal ? iconButton('close', t('close'), function () { finish('dismissed'); }) : null;
    var logo = null;
    var logoUrl = doc.publisher.logo;
    if (typeof logoUrl === 'string' && (/^data:image\/(png|jpeg|gif|webp);base64,/.test(logoUrl) || httpUrl(logoUrl))) {
      logo = h('img', { class: 'ck-logo', src: logoUrl, alt: doc.publisher.name || '' });
    }
    ui.topbar = h('div', { class: 'ck-column ck-topbar' }, [ui.back, logo, h('span', { class: 'ck-spacer' }), ui.close]);
    ui.topbarWrap = h('div', { class: 'ck-top' }, [ui.topbar]);
    ui.column = h('div', { class: 'ck-column' });
    // The top bar sits in the scrolling area: sticky on tall screens, scrolled away on short ones.
    ui.scroll = h('div', { class: 'ck-scroll' }, [ui.topbarWrap, ui.column]);
    ui.footer = h('div', { class: 'ck-footer' });
    ui.dialog = h('div', { class: 'ck-dialog' + (doc.mode === 'google' ? ' ck-google' : ''), role: 'dialog', 'aria-modal': 'true' },
      [ui.scroll, ui.footer]);
    ui.dialog.addEventListener('change', onToggle);
    ui.hasLogo = !!logo;

    // Everything else on the page is out of reach while the notice is open.
    ui.inerted = [];
    Array.prototype.forEach.call(document.body.children, function (el) {
      if (el !== root && el.tagName !== 'SCRIPT' && !el.inert) {
        el.inert = true; el.setAttribute('aria-hidden', 'true'); ui.inerted.push(el);
      }
    });
    root.textContent = '';
    root.appendChild(ui.dialog);
  }

  function closeShell() {
    if (!ui) return;
    ui.inerted.forEach(function (el) { el.inert = false; el.removeAttribute('aria-hidden'); });
    ui.root.textContent = '';
    var opener = ui.opener;
    ui = null;
    if (opener && opener !== document.body && document.contains(opener) && opener.focus) opener.focus();
    else if (document.activeElement && document.activeElement.blur) document.activeElement.blur();
  }

  // Shows layer n (1-4; Google mode uses its own screen names), building it on first use.
  function showLayer(n, fromHistory) {
    if (ui.current && !fromHistory) ui.history.push(ui.current);
    if (ui.current) {
      ui.scrollTops[ui.current] = ui.scroll.scrollTop;
      ui.layers[ui.current].hidden = true;
    }
    if (!ui.layers[n]) {
      var t0 = now();
      ui.layers[n] = BUILDERS[n]();
      ui.column.appendChild(ui.layers[n]);
      void ui.column.offsetHeight; // include style and layout in the measurement
      api.metrics['layer' + n + 'Ms'] = round1(now() - t0);
    } else {
      syncControls(ui.layers[n]);
    }
    ui.layers[n].hidden = false;
    ui.current = n;
    ui.footer.textContent = '';
    var footer = FOOTERS[n] ? FOOTERS[n]() : null;
    ui.footer.hidden = !footer;
    if (footer) ui.footer.appendChild(footer);
    ui.back.hidden = !ui.history.length;
    ui.topbarWrap.hidden = ui.back.hidden && !ui.close && !ui.hasLogo;
    var title = ui.layers[n].querySelector('h1');
    ui.dialog.setAttribute('aria-labelledby', title.id);
    ui.scroll.scrollTop = ui.scrollTops[n] || 0;
    title.focus({ preventScroll: true });
  }
  function goBack() {
    if (ui.history.length) showLayer(ui.history.pop(), true);
  }

  // A layer section with its heading (the dialog's label while the layer is shown).
  function layerSection(n, titleText) {
    return h('section', { class: 'ck-layer', 'data-layer': n }, [
      h('h1', { id: 'ck-title-' + n, class: 'ck-title', tabindex: '-1', text: titleText })
    ]);
  }

  // Focus stays in the dialog: Tab and Shift+Tab wrap; Escape closes only when dismissal is allowed.
  function onKeyDown(e) {
    if (e.key === 'Escape') {
      e.preventDefault();
      if (doc.allowsDismissal) finish('dismissed');
      return;
    }
    if (e.key !== 'Tab') return;
    var first = edgeFocusable(true), last = edgeFocusable(false), active = document.activeElement;
    if (!first) { e.preventDefault(); return; }
    var before = function (a, b) { return a === b || !!(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_PRECEDING); };
    if (e.shiftKey && before(active, first)) { e.preventDefault(); last.focus(); }
    else if (!e.shiftKey && before(last, active)) { e.preventDefault(); first.focus(); }
  }
  var FOCUSABLE = 'a[href],button:not([disabled]),input:not([disabled]),summary,[tabindex]:not([tabindex="-1"])';
  function edgeFocusable(fromStart) {
    var all = ui.dialog.querySelectorAll(FOCUSABLE);
    for (var i = 0; i < all.length; i++) {
      var el = all[fromStart ? i : all.length - 1 - i];
      var visible = el.checkVisibility ? el.checkVisibility() : el.getClientRects().length > 0;
      if (visible) return el;
    }
    return null;
  }
  document.addEventListener('keydown', function (e) { if (ui) onKeyDown(e); });
  document.addEventListener('focusin', function (e) {
    if (ui && !ui.dialog.contains(e.target)) { var f = edgeFocusable(true); if (f) f.focus(); }
  });

  /* ---------------------------------------------------------------- 6. toggles (all layers) */

  // A switch: a native checkbox with role=switch. kind names the Set in `choice` it edits.
  var KIND_SET = {
    purpose: 'purposeConsents', purposeLi: 'purposeObjections', specialFeature: 'specialFeatureOptIns',
    vendor: 'vendorConsents', vendorLi: 'vendorObjections', atp: 'atpConsents'
  };
  function toggle(kind, id, visibleLabel, accessibleName) {
    var input = h('input', { type: 'checkbox', role: 'switch' });
    registerToggle(input, kind, id, accessibleName);
    return h('label', { class: 'ck-switch' }, [input, h('span', { text: visibleLabel })]);
  }
  function registerToggle(input, kind, id, accessibleName) {
    input.setAttribute('aria-label', accessibleName);
    input.setAttribute('data-kind', kind);
    input.setAttribute('data-id', id);
    input.checked = choice[KIND_SET[kind]].has(id); // a property: the initial DOM never has "checked"
  }
  function onToggle(e) {
    var input = e.target, kind = input.getAttribute('data-kind');
    if (!kind || !KIND_SET[kind]) return;
    var t0 = now();
    var id = Number(input.getAttribute('data-id')), set = choice[KIND_SET[kind]];
    if (input.checked) set.add(id); else set.delete(id);
    // The same choice can be shown twice (a vendor's objection on layers 3 and 4): keep both in step.
    var same = ui.dialog.querySelectorAll('input[data-kind="' + kind + '"][data-id="' + id + '"]');
    for (var i = 0; i < same.length; i++) same[i].checked = input.checked;
    var ms = now() - t0;
    api.metrics.toggleMs = round1(ms);
    api.metrics.toggleMaxMs = Math.max(api.metrics.toggleMaxMs || 0, round1(ms));
  }
  function syncControls(container) {
    var inputs = container.querySelectorAll('input[data-kind]');
    for (var i = 0; i < inputs.length; i++) {
      var kind = inputs[i].getAttribute('data-kind');
      inputs[i].checked = choice[KIND_SET[kind]].has(Number(inputs[i].getAttribute('data-id')));
    }
  }

  /* ---------------------------------------------------------------- 6. layer 1: the first layer */

  function buildFirstLayer() {
    var s = layerSection(1, t('firstTitle', { publisherName: doc.publisher.name || '' }));
    var vendorsLink = h('button', { type: 'button', class: 'ck-link', 'data-action': 'open-vendors',
      'data-count': doc.vendors.length, text: vendorsLabel(doc.vendors.length), onclick: function () { showLayer(3); } });
    s.appendChild(h('p', null, [tNodes('firstStorage', { vendorsLink: vendorsLink })]));
    s.appendChild(h('p', { text: t('firstPersonalData') }));

    // Stacks first, then the purposes and special features no chosen stack covers.
    var inStack = { purposes: {}, specialFeatures: {} };
    var items = [];
    doc.stacks.forEach(function (stack) {
      asArray(stack.purposes).forEach(function (p) { inStack.purposes[p] = true; });
      asArray(stack.specialFeatures).forEach(function (p) { inStack.specialFeatures[p] = true; });
      items.push(h('li', { 'data-stack': stack.id }, [h('strong', { dir: 'auto', text: String(stack.name || '').trim() }),
        stack.description ? h('span', { class: 'ck-desc', dir: 'auto', text: stack.description }) : null]));
    });
    sortedIds(doc.purposes).forEach(function (p) {
      if (!inStack.purposes[p]) items.push(h('li', { 'data-purpose': p }, [h('strong', { dir: 'auto', text: nameOf('purposes', p) })]));
    });
    s.appendChild(h('h2', { text: t('purposesHeading') }));
    s.appendChild(h('ul', { class: 'ck-list ck-first-list' }, items));
    var features = sortedIds(doc.specialFeatures).filter(function (p) { return !inStack.specialFeatures[p]; });
    if (features.length) {
      s.appendChild(h('h2', { text: t('specialFeaturesHeading') }));
      s.appendChild(h('ul', { class: 'ck-list ck-first-list' }, features.map(function (p) {
        return h('li', { 'data-special-feature': p }, [h('strong', { dir: 'auto', text: nameOf('specialFeatures', p) })]);
      })));
    }
    s.appendChild(h('p', { class: 'ck-small ck-muted', text: t('specialPurposesNotice') }));
    if (model.liVendorIds.length) {
      var liLink = h('button', { type: 'button', class: 'ck-link', 'data-action': 'open-li', text: t('liLink'), onclick: function () { showLayer(4); } });
      s.appendChild(h('p', { 'data-text': 'firstLegitimateInterest' }, [tNodes('firstLegitimateInterest', { liLink: liLink })]));
    }
    s.appendChild(h('p', { 'data-text': 'firstScope', text: t('firstScope', { publisherName: doc.publisher.name || '' }) }));
    s.appendChild(h('p', { 'data-text': 'firstWithdraw', text: t('firstWithdraw') }));
    s.appendChild(h('p', { class: 'ck-small' }, [externalLink(doc.publisher.privacyPolicyUrl, t('privacyPolicy'))]));
    return s;
  }

  function footerButtons(buttons) {
    return h('div', { class: 'ck-column' }, [h('div', { class: 'ck-actions' }, buttons)]);
  }
  function actionButton(action, label, primary, onClick) {
    return h('button', { type: 'button', class: 'ck-btn ' + (primary ? 'ck-btn-primary' : 'ck-btn-secondary'),
      'data-action': action, text: label, onclick: onClick });
  }
  function firstFooter() {
    return footerButtons([
      actionButton('acceptAll', t('acceptAll'), true, function () { finish('acceptAll'); }),
      actionButton('rejectAll', t('rejectAll'), true, function () { finish('rejectAll'); }),
      actionButton('manage', t('manageOptions'), false, function () { showLayer(2); })
    ]);
  }
  function choicesFooter() {
    return footerButtons([
      actionButton('acceptAll', t('acceptAll'), true, function () { finish('acceptAll'); }),
      actionButton('rejectAll', t('rejectAll'), true, function () { finish('rejectAll'); }),
      actionButton('save', t('saveChoices'), false, function () { finish('save'); })
    ]);
  }

  /* ---------------------------------------------------------------- 7. layer 2: purposes and features */

  // One purpose/feature card: name, full description, every illustration, the vendors using it
  // (a list filled when opened) and, where the user has a choice, a switch.
  function itemCard(kind, id, vendors, control, extra) {
    var item = doc[kind][id] || {};
    var illus = asArray(item.illustrations).filter(function (x) { return typeof x === 'string' && x; });
    return h('li', { class: 'ck-card', 'data-kind': kind, 'data-id': id }, [
      h('div', { class: 'ck-row' }, [h('h3', { class: 'ck-grow', dir: 'auto', text: nameOf(kind, id) }), control]),
      item.description ? h('p', { class: 'ck-desc-full', dir: 'auto', text: item.description }) : null,
      illus.length ? h('p', { class: 'ck-ill-label', 'aria-hidden': 'true', text: t('illustrationsLabel') }) : null,
      illus.length ? h('ul', { class: 'ck-illustrations', 'aria-label': t('illustrationsLabel') },
        illus.map(function (x) { return h('li', null, [h('span', { dir: 'auto', text: x })]); })) : null,
      vendorNamesDetails(vendors || []),
      extra || null
    ]);
  }
  // "N vendors" that opens to exactly those vendors' names (rendered on first open).
  function vendorNamesDetails(vendors) {
    var list = h('ul', { class: 'ck-vendor-names' });
    var d = h('details', { class: 'ck-vendors-of', 'data-count': vendors.length }, [h('summary', { text: vendorsLabel(vendors.length) }), list]);
    d.addEventListener('toggle', function () {
      if (!d.open || list.firstChild) return;
      var frag = document.createDocumentFragment();
      vendors.forEach(function (v) { frag.appendChild(h('li', { 'data-vendor': v.id }, [h('span', { dir: 'auto', text: v.name })])); });
      list.appendChild(frag);
    });
    return d;
  }

  function buildPurposesLayer() {
    var s = layerSection(2, t('purposesTitle'));
    s.appendChild(h('p', { text: t('purposesIntro') }));
    s.appendChild(h('div', { class: 'ck-nav' }, [
      h('button', { type: 'button', class: 'ck-link', 'data-action': 'open-vendors', text: t('openVendorList', { vendors: vendorsLabel(doc.vendors.length) }), onclick: function () { showLayer(3); } }),
      model.liVendorIds.length ? h('button', { type: 'button', class: 'ck-link', 'data-action': 'open-li', text: t('liLink'), onclick: function () { showLayer(4); } }) : null
    ]));

    s.appendChild(h('h2', { text: t('purposesHeading') }));
    s.appendChild(h('ul', { class: 'ck-list' }, sortedIds(doc.purposes).map(function (p) {
      var li = model.liByPurpose[p];
      var liLine = li && !NO_LI_PURPOSES[p] && doc.purposes[p]
        ? h('button', { type: 'button', class: 'ck-link ck-small', 'data-action': 'open-li', text: t('liCountLine', { vendors: vendorsLabel(li.length) }), onclick: function () { showLayer(4); } })
        : null;
      return itemCard('purposes', p, model.consentByPurpose[p], toggle('purpose', p, t('consent'), t('consentTo', { name: nameOf('purposes', p) })), liLine);
    })));

    var sf = sortedIds(doc.specialFeatures);
    if (sf.length) {
      s.appendChild(h('h2', { text: t('specialFeaturesHeading') }));
      s.appendChild(h('p', { class: 'ck-small ck-muted', text: t('specialFeaturesIntro') }));
      s.appendChild(h('ul', { class: 'ck-list' }, sf.map(function (p) {
        return itemCard('specialFeatures', p, model.bySpecialFeature[p], toggle('specialFeature', p, t('consent'), t('consentTo', { name: nameOf('specialFeatures', p) })));
      })));
    }
    var sp = sortedIds(doc.specialPurposes);
    if (sp.length) {
      s.appendChild(h('h2', { text: t('specialPurposesHeading') }));
      s.appendChild(h('p', { class: 'ck-small ck-muted', 'data-text': 'specialPurposesNotice', text: t('specialPurposesNotice') }));
      s.appendChild(h('ul', { class: 'ck-list' }, sp.map(function (p) { return itemCard('specialPurposes', p, model.bySpecialPurpose[p], null); })));
    }
    var f = sortedIds(doc.features);
    if (f.length) {
      s.appendChild(h('h2', { text: t('featuresHeading') }));
      s.appendChild(h('p', { class: 'ck-small ck-muted', text: t('featuresIntro') }));
      s.appendChild(h('ul', { class: 'ck-list' }, f.map(function (p) { return itemCard('features', p, model.byFeature[p], null); })));
    }
    return s;
  }

  /* ---------------------------------------------------------------- 8. layer 3: the vendor list */

  function buildVendorLayer() {
    var t0 = now();
    var s = layerSection(3, t('vendorsTitle'));
    s.appendChild(h('p', { text: t('vendorsIntro') }));
    var count = h('p', { class: 'ck-small ck-muted', 'aria-live': 'polite', 'data-count': doc.vendors.length, text: vendorsLabel(doc.vendors.length) });
    var search = h('input', { type: 'search', class: 'ck-search', placeholder: t('searchPlaceholder'), 'aria-label': t('searchPlaceholder'), autocomplete: 'off' });
    s.appendChild(search);
    s.appendChild(count);

    var list = h('ul', { class: 'ck-list ck-vendor-list' });
    list.appendChild(vendorRows(doc.vendors));
    applyOnMarkers(list);
    list.addEventListener('click', onDisclosureClick);
    s.appendChild(list);

    var atpList = null;
    if (doc.adTechProviders.length) {
      atpList = h('ul', { class: 'ck-list' }, doc.adTechProviders.map(function (a) {
        return h('li', { class: 'ck-card ck-vendor', 'data-atp': a.id, 'data-name': a.name.toLowerCase() }, [
          h('div', { class: 'ck-row' }, [
            h('div', { class: 'ck-grow' }, [h('div', { class: 'ck-vendor-name', dir: 'auto', text: a.name }),
              h('div', { class: 'ck-meta' }, [externalLink(a.privacyPolicyUrl, t('privacyPolicy'))])]),
            toggle('atp', a.id, t('consent'), t('consentTo', { name: a.name }))
          ])
        ]);
      }));
      s.appendChild(h('section', { class: 'ck-atp', 'data-section': 'atp', 'aria-labelledby': 'ck-atp-title' }, [
        h('span', { class: 'ck-section-label', text: t('notTcfLabel') }),
        h('h2', { id: 'ck-atp-title', text: t('atpHeading') }),
        h('p', { class: 'ck-small ck-muted', text: t('atpIntro') }),
        atpList
      ]));
    }

    // Search filters vendors (and ad-tech providers) by name.
    search.addEventListener('input', function () {
      var q = search.value.trim().toLowerCase(), shown = 0;
      [list, atpList].forEach(function (ul) {
        if (!ul) return;
        for (var el = ul.firstElementChild; el; el = el.nextElementSibling) {
          var match = !q || el.getAttribute('data-name').indexOf(q) >= 0;
          el.hidden = !match;
          if (match && ul === list) shown++;
        }
      });
      count.textContent = shown ? vendorsLabel(shown) : t('noVendorsFound');
    });
    api.metrics.vendorListBuildMs = round1(now() - t0);
    return s;
  }

  // The vendor rows are written as one HTML string and parsed once into a <template>'s
  // DocumentFragment: for 800+ vendors this is several times faster than building them node by
  // node. Each row: name, consent switch, objection switch when the vendor has an objectable
  // legitimate interest, and a "Details" disclosure button whose panel is built on first open
  // (a button with aria-expanded rather than <details>: 800 <details> elements each cost a shadow
  // tree, which doubled the time to open the list). Every vendor text is escaped.
  function esc(text) {
    return String(text).replace(/[&<>"']/g, function (c) { return '&#' + c.charCodeAt(0) + ';'; });
  }
  function switchHtml(kind, id, visibleLabel, accessibleName) {
    var on = choice[KIND_SET[kind]].has(id) ? ' data-on=""' : '';
    return '<label class="ck-switch"><input type="checkbox" role="switch" data-kind="' + kind + '" data-id="' + id +
      '" aria-label="' + esc(accessibleName) + '"' + on + '><span>' + esc(visibleLabel) + '</span></label>';
  }
  function vendorRows(vendors) {
    var consent = t('consent'), object = t('object'), details = esc(t('details')), html = [];
    vendors.forEach(function (v) {
      var name = esc(v.name);
      html.push('<li class="ck-card ck-vendor" data-vendor="', v.id, '" data-name="', esc(v.name.toLowerCase()),
        '"><div class="ck-row"><div class="ck-grow ck-vendor-name" dir="auto">', name, '</div><div class="ck-vendor-controls">',
        switchHtml('vendor', v.id, consent, t('consentTo', { name: v.name })),
        model.liPurposesOf[v.id].length ? switchHtml('vendorLi', v.id, object, t('objectTo', { name: v.name })) : '',
        '</div></div><button type="button" class="ck-disclosure" aria-expanded="false" data-details="', v.id, '">', details,
        '<span class="ck-sr">: ', name, '</span></button></li>');
    });
    var template = document.createElement('template');
    template.innerHTML = html.join('');
    return template.content;
  }
  // Present choices are set as properties after insertion (no "checked" attribute in the DOM).
  function applyOnMarkers(container) {
    var marked = container.querySelectorAll('input[data-on]');
    for (var i = 0; i < marked.length; i++) { marked[i].checked = true; marked[i].removeAttribute('data-on'); }
  }
  // A vendor's "Details" button shows or hides its panel; the panel is built on first open.
  function onDisclosureClick(e) {
    var button = e.target.closest ? e.target.closest('button.ck-disclosure') : null;
    if (!button) return;
    var open = button.getAttribute('aria-expanded') !== 'true';
    var panel = button.nextElementSibling;
    if (!panel) {
      panel = vendorDetails(model.vendorById[button.getAttribute('data-details')]);
      panel.id = 'ck-details-' + ui.current + '-' + button.getAttribute('data-details');
      button.setAttribute('aria-controls', panel.id);
      button.parentNode.appendChild(panel);
    }
    panel.hidden = !open;
    button.setAttribute('aria-expanded', String(open));
  }
  function disclosureButton(v) {
    return h('button', { type: 'button', class: 'ck-disclosure', 'aria-expanded': 'false', 'data-details': v.id },
      [t('details'), h('span', { class: 'ck-sr', text: ': ' + v.name })]);
  }

  // Everything a user can review about one vendor (POL C(c)(I), C(c)(VII), D(c)).
  function vendorDetails(v) {
    var retention = asObject(v.retention);
    function days(kind, id) {
      var perItem = asObject(retention[kind]);
      var d = typeof perItem[id] === 'number' ? perItem[id] : retention.std;
      return typeof d === 'number' ? t('retentionDays', { days: num(d) }) : '';
    }
    function list(kind, ids, retentionKind) {
      ids = asArray(ids);
      if (!ids.length) return null;
      return h('ul', null, ids.map(function (id) {
        var r = retentionKind ? days(retentionKind, id) : '';
        return h('li', { 'data-id': id }, [h('span', { dir: 'auto', text: nameOf(kind, id) }), r ? h('span', { class: 'ck-muted', 'data-retention': retentionKind + ':' + id, text: ' (' + r + ')' }) : null]);
      }));
    }
    var rows = [];
    function row(key, value) { if (value) rows.push(h('dt', { text: t(key) }), h('dd', null, [value])); }
    row('vendorConsentPurposes', list('purposes', v.purposes, 'purposes'));
    row('vendorLiPurposes', list('purposes', model.liPurposesOf[v.id], 'purposes'));
    row('vendorFlexiblePurposes', list('purposes', v.flexiblePurposes, null));
    row('specialPurposesHeading', list('specialPurposes', v.specialPurposes, 'specialPurposes'));
    row('featuresHeading', list('features', v.features, null));
    row('specialFeaturesHeading', list('specialFeatures', v.specialFeatures, null));
    var cats = asArray(v.dataCategories).filter(function (c) { return doc.dataCategories[c]; });
    row('dataCategoriesHeading', cats.length ? h('ul', null, cats.map(function (c) {
      return h('li', { 'data-category': c }, [h('span', { dir: 'auto', text: nameOf('dataCategories', c) })]);
    })) : null);

    var storage = [];
    if (v.usesCookies) {
      storage.push(h('li', { 'data-field': 'cookieMaxAge', text: t('cookieMaxAge', { duration: duration(v.cookieMaxAgeSeconds) }) }));
      storage.push(h('li', { 'data-field': 'cookieRefresh', text: t('cookieRefresh', { answer: t(v.cookieRefresh ? 'yes' : 'no') }) }));
    } else {
      storage.push(h('li', { 'data-field': 'noCookies', text: t('noCookies') }));
    }
    if (v.usesNonCookieAccess) storage.push(h('li', { 'data-field': 'nonCookieAccess', text: t('nonCookieAccess') }));
    row('storageHeading', h('ul', null, storage));

    var links = h('div', { class: 'ck-meta' }, [
      externalLink(v.privacyPolicyUrl, t('privacyPolicy')),
      model.liPurposesOf[v.id].length ? externalLink(v.legIntClaimUrl, t('legIntClaim')) : null
    ]);
    var box = h('div', { class: 'ck-vendor-detail-body ck-vendor-details' }, [h('dl', null, rows), links]);
    if (storageUrl(v.storageDisclosureUrl)) box.appendChild(storageDetailsButton(v));
    return box;
  }

  // Loads the vendor's device storage disclosure (no credentials) and lists its records.
  function storageDetailsButton(v) {
    var out = h('div', { class: 'ck-storage', 'aria-live': 'polite' });
    var button = h('button', { type: 'button', class: 'ck-btn-small', 'data-action': 'storage-details', text: t('storageDetails') });
    button.addEventListener('click', function () {
      button.disabled = true;
      out.textContent = t('loading');
      fetch(storageUrl(v.storageDisclosureUrl), { credentials: 'omit', mode: 'cors' })
        .then(function (r) { if (!r.ok) throw new Error(String(r.status)); return r.json(); })
        .then(function (json) {
          var records = asArray(json && json.disclosures).filter(isObject);
          out.textContent = '';
          if (!records.length) { out.appendChild(h('p', { text: t('storageEmpty') })); return; }
          var head = h('tr', null, ['storageIdentifier', 'storageType', 'storageMaxAge', 'storageDomains'].map(function (k) { return h('th', { scope: 'col', text: t(k) }); }));
          var body = records.map(function (d) {
            var domains = Array.isArray(d.domains) ? d.domains : (d.domain ? [d.domain] : []);
            return h('tr', null, [
              h('td', { text: String(d.identifier || '') }), h('td', { text: String(d.type || '') }),
              h('td', { text: typeof d.maxAgeSeconds === 'number' ? duration(d.maxAgeSeconds) : '–' }),
              h('td', { text: domains.join(', ') })
            ]);
          });
          out.appendChild(h('table', { class: 'ck-storage-table' }, [h('thead', null, [head]), h('tbody', null, body)]));
        })
        .catch(function () { out.textContent = t('storageError'); button.disabled = false; });
    });
    return h('div', null, [button, out]);
  }

  /* ---------------------------------------------------------------- 9. layer 4: legitimate interest */

  function buildLiLayer() {
    var s = layerSection(4, t('liTitle'));
    s.appendChild(h('p', { text: t('liIntro') }));
    s.appendChild(h('p', { class: 'ck-small ck-muted', text: t('cmpStorage') }));

    s.appendChild(h('h2', { text: t('purposesHeading') }));
    s.appendChild(h('ul', { class: 'ck-list' }, model.liPurposeIds.map(function (p) {
      return itemCard('purposes', p, model.liByPurpose[p], toggle('purposeLi', p, t('object'), t('objectTo', { name: nameOf('purposes', p) })));
    })));
    var sp = sortedIds(doc.specialPurposes);
    if (sp.length) {
      s.appendChild(h('h2', { text: t('specialPurposesHeading') }));
      s.appendChild(h('p', { class: 'ck-small ck-muted', text: t('specialPurposesNotice') }));
      s.appendChild(h('ul', { class: 'ck-list' }, sp.map(function (p) { return itemCard('specialPurposes', p, model.bySpecialPurpose[p], null); })));
    }

    s.appendChild(h('h2', { text: t('liVendorsHeading') }));
    var list = h('ul', { class: 'ck-list' });
    var frag = document.createDocumentFragment();
    model.liVendorIds.forEach(function (id) {
      var v = model.vendorById[id];
      frag.appendChild(h('li', { class: 'ck-card ck-vendor', 'data-vendor': id }, [
        h('div', { class: 'ck-row' }, [
          h('div', { class: 'ck-grow' }, [
            h('div', { class: 'ck-vendor-name', dir: 'auto', text: v.name }),
            h('div', { class: 'ck-small ck-muted', text: model.liPurposesOf[id].map(function (p) { return nameOf('purposes', p); }).join(' · ') }),
            h('div', { class: 'ck-meta' }, [externalLink(v.privacyPolicyUrl, t('privacyPolicy')), externalLink(v.legIntClaimUrl, t('legIntClaim'))])
          ]),
          toggle('vendorLi', id, t('object'), t('objectTo', { name: v.name }))
        ]),
        disclosureButton(v)
      ]));
    });
    list.appendChild(frag);
    list.addEventListener('click', onDisclosureClick);
    s.appendChild(list);
    return s;
  }

  var BUILDERS = { 1: buildFirstLayer, 2: buildPurposesLayer, 3: buildVendorLayer, 4: buildLiLayer };
  var FOOTERS = { 1: firstFooter, 2: choicesFooter, 3: choicesFooter, 4: choicesFooter };

  /* ---------------------------------------------------------------- 10. results */

  function collectChoices() {
    function list(set) { return Array.from(set).sort(byNumber); }
    return {
      purposeConsents: list(choice.purposeConsents),
      purposeLegitimateInterests: model.liPurposeIds.filter(function (p) { return !choice.purposeObjections.has(p); }),
      specialFeatureOptIns: list(choice.specialFeatureOptIns),
      vendorConsents: list(choice.vendorConsents),
      vendorLegitimateInterests: model.liVendorIds.filter(function (v) { return !choice.vendorObjections.has(v); }),
      adTechProviderConsents: list(choice.atpConsents)
    };
  }

  // Posts the one result and closes the notice. `layer` defaults to the layer on screen.
  function finish(action, layer) {
    if (decided || !ui) return;
    decided = true;
    var message = {
      protocol: PROTOCOL, type: 'result', action: action,
      layer: layer || (doc.mode === 'google' ? 1 : ui.current),
      language: doc.language, noticeVersion: doc.noticeVersion === undefined ? null : doc.noticeVersion
    };
    if (action === 'save') message.choices = collectChoices();
    message.timings = { shownMs: round1(shownAt - startedAt), decidedMs: round1(now() - shownAt) };
    ['layer3Ms', 'toggleMaxMs'].forEach(function (k) { if (api.metrics[k] !== undefined) message.timings[k] = api.metrics[k]; });
    closeShell();
    post(message);
  }

  /* ---------------------------------------------------------------- 11. Google mode */

  // Three screens modelled on Google's legacy consent form: the question, the explainer for
  // "less relevant ads", and the list of partners.
  function appName() { return doc.publisher.appName || doc.publisher.name || ''; }

  function buildGoogleMain() {
    var npaOnly = doc.google.personalizedOffered === false;
    var s = layerSection('g1', npaOnly ? t('googleNpaTitle') : t('googleQuestion'));
    var title = s.firstChild;
    s.insertBefore(h('div', { class: 'ck-google-head' }, [h('strong', { class: 'ck-app-name', text: appName() })]), title);
    s.insertBefore(h('p', { text: t('googleIntro', { appName: appName() }) }), title);
    if (npaOnly) s.appendChild(h('p', { text: t('googleNpaOnly') }));
    s.appendChild(h('p', { class: 'ck-small ck-muted', text: t('googleChangeAnytime', { appName: appName() }) }));
    s.appendChild(h('p', null, [h('button', { type: 'button', class: 'ck-link', 'data-action': 'open-partners',
      text: t('googleLearnMore', { appName: appName() }), onclick: function () { showLayer('g3'); } })]));
    s.appendChild(h('p', { class: 'ck-small' }, [externalLink(doc.publisher.privacyPolicyUrl, t('privacyPolicy'))]));
    return s;
  }
  function googleMainFooter() {
    var buttons = [];
    if (doc.google.personalizedOffered !== false) {
      buttons.push(actionButton('acceptAll', t('googleYes'), true, function () { finish('acceptAll', 1); }));
      buttons.push(actionButton('nonPersonalizedInfo', t('googleNo'), true, function () { showLayer('g2'); }));
    } else {
      buttons.push(actionButton('nonPersonalized', t('googleAgree'), true, function () { finish('nonPersonalized', 1); }));
    }
    if (doc.adFree.offered === true) buttons.push(actionButton('adFree', t('googleAdFree'), false, function () { finish('adFree', 1); }));
    return h('div', { class: 'ck-column' }, [h('div', { class: 'ck-stack-buttons' }, buttons)]);
  }
  function buildGoogleExplainer() {
    var s = layerSection('g2', t('googleExplainerTitle'));
    s.appendChild(h('p', { text: t('googleExplainer') }));
    s.appendChild(h('p', { class: 'ck-small ck-muted', text: t('googleChangeAnytime', { appName: appName() }) }));
    return s;
  }
  function googleExplainerFooter() {
    return footerButtons([
      actionButton('back', t('back'), false, goBack),
      actionButton('nonPersonalized', t('googleAgree'), true, function () { finish('nonPersonalized', 2); })
    ]);
  }
  function buildGooglePartners() {
    var s = layerSection('g3', t('googlePartnersTitle'));
    var partners = doc.vendors.map(function (v) { return { name: v.name, url: v.privacyPolicyUrl, kind: 'vendor', id: v.id }; })
      .concat(doc.adTechProviders.map(function (a) { return { name: a.name, url: a.privacyPolicyUrl, kind: 'atp', id: a.id }; }))
      .sort(function (a, b) { return a.name.localeCompare(b.name, doc.language); });
    s.appendChild(h('p', { 'data-count': partners.length, text: vendorsLabel(partners.length) }));
    var frag = document.createDocumentFragment();
    partners.forEach(function (p) {
      frag.appendChild(h('li', { 'data-partner': p.kind + ':' + p.id }, [h('span', { dir: 'auto' }, [externalLink(p.url, p.name) || p.name])]));
    });
    s.appendChild(h('ul', { class: 'ck-first-list ck-list' }, [frag]));
    s.appendChild(h('p', null, [externalLink(doc.publisher.privacyPolicyUrl, t('googleHowAppUses', { appName: appName() }))]));
    return s;
  }
  BUILDERS.g1 = buildGoogleMain; BUILDERS.g2 = buildGoogleExplainer; BUILDERS.g3 = buildGooglePartners;
  FOOTERS.g1 = googleMainFooter; FOOTERS.g2 = googleExplainerFooter;

  /* ---------------------------------------------------------------- 12. configure() */

  function configure(input) {
    startedAt = now();
    if (ui) closeShell();
    decided = false; api.metrics = {}; doc = null;

    var d = input;
    if (typeof input === 'string') {
      try { d = JSON.parse(input); } catch (e) { d = undefined; }
    }
    var problem = validate(d);
    if (problem) {
      var root = document.getElementById('ck-root');
      if (root) root.textContent = '';
      post({ protocol: PROTOCOL, type: 'loadError', code: problem[0], message: problem[1] });
      return false;
    }
    var first = d.mode === 'google' ? 'g1' : (d.startLayer === 'purposes' ? 2 : 1);
    try {
      doc = normalise(d);
      model = buildModel(doc);
      choice = initialChoices(doc, model);
      applyTheme(doc.theme);
      openShell();
      showLayer(first);
    } catch (e) {
      // A document that passed validation but cannot be rendered: nothing stays on screen.
      closeShell();
      post({ protocol: PROTOCOL, type: 'loadError', code: 'malformed_document', message: 'The document could not be rendered: ' + e });
      return false;
    }
    shownAt = now();
    api.metrics.renderMs = round1(shownAt - startedAt);
    post({ protocol: PROTOCOL, type: 'ready', layer: first === 2 ? 2 : 1, renderMs: api.metrics.renderMs });
    return true;
  }

  // Warm up ICU while the page loads, so the first configure() does not pay for it.
  try { new Intl.NumberFormat().format(1); new Intl.PluralRules().select(1); } catch (e) { /* no Intl: plain numbers */ }

  // A page of another origin (a website's CMP, consentd's /cmp/cmp.js) cannot reach configure()
  // across the frame boundary; it posts {protocol: 1, type: 'configure', document} instead.
  window.addEventListener('message', function (e) {
    var m = e.data;
    if (window.parent !== window && e.source === window.parent && isObject(m) && m.protocol === PROTOCOL && m.type === 'configure') {
      configure(m.document);
    }
  });

  window.ConsentKitNotice = api;
})();
