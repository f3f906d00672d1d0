// @ts-check
/* ConsentKit consent notice, its DOM and text helpers (see notice-model.js for the scripts'
 * order): h() builds elements and never turns text into markup; texts() reads every UI string
 * from the document; applyTheme() sets the document's colours when they are readable. */

/**
 * The UI texts of one document, in its language.
 * @typedef {{
 *   t: (key: string, params?: Object<string, any>) => string,
 *   tNodes: (key: string, params: Object<string, any>) => DocumentFragment,
 *   num: (n: number) => string,
 *   vendorsLabel: (n: number) => string,
 *   plural: (family: string, n: number, param: string) => string,
 *   duration: (seconds: any) => string,
 *   choiceStorage: () => string,
 *   nameOf: (kind: 'purposes' | 'specialPurposes' | 'features' | 'specialFeatures' | 'dataCategories', id: number) => string
 * }} NoticeTexts
 */

const NoticeDom = (function () {
  'use strict';

  var THEME_KEYS = ['background', 'surface', 'text', 'mutedText', 'primary', 'onPrimary', 'border', 'link'];
  var isObject = NoticeModel.isObject, asObject = NoticeModel.asObject, httpUrl = NoticeModel.httpUrl;

  /** Milliseconds, for the metrics. */
  function now() { return window.performance ? performance.now() : Date.now(); }
  /** @param {number} ms */
  function round1(ms) { return Math.round(ms * 10) / 10; }

  /**
   * A storage disclosure: an http(s) URL, or a path on the page's own origin (consentd's proxy
   * serving the page).
   * @param {any} u
   * @returns {string | null}
   */
  function storageUrl(u) {
    if (typeof u === 'string' && /^\/[^\/\s][^\s]*$/.test(u) && /^https?:$/.test(location.protocol)) return location.origin + u;
    return httpUrl(u);
  }

  /**
   * h('p', {class: 'x', text: 'hello'}, [children]) creates an element. Keys starting with "on"
   * become listeners; "text" sets textContent; everything else is an attribute.
   * @template {keyof HTMLElementTagNameMap} K
   * @param {K} tag
   * @param {Object<string, any> | null} [attrs]
   * @param {Array<Node | string | null | undefined | false>} [children]
   * @returns {HTMLElementTagNameMap[K]}
   */
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
  /**
   * @param {Node} el
   * @param {Array<Node | string | null | undefined | false>} children
   */
  function appendAll(el, children) {
    for (var i = 0; i < children.length; i++) {
      var c = children[i];
      if (c === null || c === undefined || c === false) continue;
      el.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    }
    return el;
  }

  /**
   * The texts of `doc`: every UI string comes from document.texts; "{name}" placeholders are
   * filled from params. A missing key is listed in metrics.missingTexts.
   * @param {NoticeDocument} doc
   * @param {Object<string, any>} metrics
   * @returns {NoticeTexts}
   */
  function texts(doc, metrics) {
    /** @param {string} key @param {Object<string, any>} [params] @returns {string} */
    function t(key, params) {
      var s = doc.texts[key];
      if (typeof s !== 'string') { (metrics.missingTexts = metrics.missingTexts || []).push(key); return ''; }
      return params ? s.replace(/\{(\w+)\}/g, function (m, name) {
        return params[name] !== undefined ? String(params[name]) : m;
      }) : s;
    }
    // The same, but a placeholder may be a DOM node (a link inside a sentence).
    /** @param {string} key @param {Object<string, any>} params */
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
    /** @param {string} kind @param {Object<string, any>} [options] @returns {any} */
    function intl(kind, options) {
      return intlFormatter(kind, doc.language, options);
    }
    // A count below 1000 needs no ICU: every notice language but Arabic writes it in Latin digits
    // without grouping, as Intl does (Tests/js/notice-numbers.test.js checks each language). A
    // renderer's first Intl.NumberFormat costs 36-118 ms on this project's machine (it lists the
    // locales ICU has), which the first layer, with its vendor count, should not wait for (record
    // 0037). Arabic's digits depend on the engine's ICU (WebKitGTK's writes ١٢٣, V8's 123), so an
    // Arabic notice asks Intl for every number and its digits agree with each other.
    /** @param {number} n */
    function num(n) {
      if (doc.language !== 'ar' && n >= 0 && n < 1000 && n % 1 === 0) return String(n);
      var f = intl('NumberFormat');
      return f ? f.format(n) : String(n);
    }
    // A count in words with the language's plural rules: plural('vendors', 813, 'vendorCount') is
    // "813 vendors" from the keys vendors_one, vendors_few, vendors_other... (other when the
    // language's form is missing).
    /** @param {string} family @param {number} n @param {string} param */
    function plural(family, n, param) {
      var rules = intl('PluralRules');
      var cat = rules ? rules.select(n) : 'other';
      var key = typeof doc.texts[family + '_' + cat] === 'string' ? family + '_' + cat : family + '_other';
      /** @type {Object<string, any>} */
      var params = {};
      params[param] = num(n);
      return t(key, params);
    }
    /** @param {number} n */
    function vendorsLabel(n) {
      return plural('vendors', n, 'vendorCount');
    }
    // How long the CMP keeps the choice (TCF policy D(c)(VII)): for up to the document's
    // choiceStorageDays, in months from two months on ("up to 13 months" for the web CMP's 390
    // days), or on the device until it changes when the document gives no number.
    function choiceStorage() {
      var days = doc.choiceStorageDays;
      if (typeof days !== 'number' || !(days >= 1)) return t('cmpStorage');
      var months = days >= 60, value = months ? Math.round(days / 30.4) : Math.round(days);
      var f = intl('NumberFormat', { style: 'unit', unit: months ? 'month' : 'day', unitDisplay: 'long', maximumFractionDigits: 0 });
      return t('cmpStorageFor', { duration: f ? f.format(value) : value + (months ? ' months' : ' days') });
    }
    // Seconds as a readable duration in the document's language: "1 year, 31 days", "2 hours".
    /** @param {any} seconds */
    function duration(seconds) {
      if (typeof seconds !== 'number' || !isFinite(seconds)) return '';
      if (seconds <= 0) return t('session');
      /** @param {number} value @param {string} name */
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
    /** @param {'purposes' | 'specialPurposes' | 'features' | 'specialFeatures' | 'dataCategories'} kind @param {number} id */
    function nameOf(kind, id) {
      var item = doc[kind][id];
      return item && typeof item.name === 'string' ? item.name.trim() : String(id);
    }
    return { t: t, tNodes: tNodes, num: num, vendorsLabel: vendorsLabel, plural: plural, duration: duration, choiceStorage: choiceStorage, nameOf: nameOf };
  }

  // Intl formatters are costly to create: one of each per language and options, made on first use
  // and kept for the page's life (a cache, not the notice's state).
  /** @type {Object<string, any>} */
  var intlCache = {};
  // The locale Intl formats a language's numbers, dates and durations in, where the bare language
  // would pick another script than its texts: the notice's Serbian is Latin (decision 0021), while
  // Intl's 'sr' is Cyrillic.
  /** @type {Object<string, string>} */
  var INTL_LOCALES = { sr: 'sr-Latn' };
  /** @param {string} kind @param {string} language @param {Object<string, any>} [options] @returns {any} */
  function intlFormatter(kind, language, options) {
    var key = kind + ':' + language + ':' + JSON.stringify(options || {});
    if (!(key in intlCache)) {
      var locale = INTL_LOCALES[language] || language;
      try { intlCache[key] = new (/** @type {any} */ (Intl))[kind](locale, options); } catch (e) { intlCache[key] = null; }
    }
    return intlCache[key];
  }

  /**
   * A switch: a native checkbox with role=switch inside its label, drawn by notice.css.
   * @param {HTMLInputElement} input @param {string} text the visible label
   */
  function switchLabel(input, text) {
    return h('label', { class: 'ck-switch' }, [input, h('span', { text: text })]);
  }

  /** A link that opens outside, or null when the URL is not http(s). @param {any} url @param {string} text */
  function externalLink(url, text) {
    var href = httpUrl(url);
    return href ? h('a', { href: href, target: '_blank', rel: 'noopener noreferrer', text: text }) : null;
  }
  /**
   * A link inside a sentence that shows another layer of the notice ("20 vendors" in "We and our
   * (20 vendors) store..."): an inline <a>, not a button, so that its words wrap with the
   * sentence's and no line breaks between it and the punctuation written against it. A button is
   * a box the line breaks around: a phone's Arabic first layer left "(" at the end of one line
   * and the link on the next. Enter follows it, as any link.
   * @param {Object<string, any>} attrs (data-action and the like) @param {string} text @param {() => void} onActivate
   */
  function layerLink(attrs, text, onActivate) {
    var a = h('a', attrs);
    a.href = '#';
    a.className = 'ck-link';
    a.textContent = text;
    a.addEventListener('click', function (e) { e.preventDefault(); onActivate(); });
    return a;
  }
  /** @type {Object<string, string>} */
  var ICONS = {
    close: '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M6 6l12 12M18 6L6 18" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" fill="none"/></svg>',
    back: '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M15 5l-7 7 7 7" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round" fill="none"/></svg>'
  };
  /**
   * A button showing one of the constant ICONS.
   * @param {'close' | 'back'} icon @param {string} label @param {() => void} onClick @param {string} [extraClass]
   */
  function iconButton(icon, label, onClick, extraClass) {
    var b = h('button', { type: 'button', class: 'ck-icon-btn ' + (extraClass || ''), 'aria-label': label, onclick: onClick });
    b.innerHTML = ICONS[icon];
    return b;
  }

  /**
   * Theme colours from the document, as the custom properties notice.css reads. A scheme whose
   * colours fail the checks NoticeTheme.validate() makes (onPrimary 5:1 on primary; text, mutedText
   * and link 4.5:1 on background and surface; primary 4.5:1 on background when outlined) falls
   * back to the built-in palette for that scheme.
   * @param {any} theme
   */
  function applyTheme(theme) {
    var root = document.documentElement.style;
    theme = asObject(theme);
    if (typeof theme.cornerRadius === 'number' && theme.cornerRadius >= 0 && theme.cornerRadius <= 32) {
      root.setProperty('--ck-radius', theme.cornerRadius + 'px');
    }
    ['light', 'dark'].forEach(function (scheme) {
      var colours = asObject(theme[scheme]);
      var usable = THEME_KEYS.every(function (k) { return /^#[0-9a-f]{6}$/i.test(colours[k] || ''); }) &&
        contrast(colours.primary, colours.onPrimary) >= 5 &&
        ['text', 'mutedText', 'link'].every(function (k) {
          return contrast(colours[k], colours.background) >= 4.5 && contrast(colours[k], colours.surface) >= 4.5;
        }) && (theme.buttonStyle !== 'outlined' || contrast(colours.primary, colours.background) >= 4.5);
      THEME_KEYS.forEach(function (k) {
        if (usable) root.setProperty('--ck-' + scheme + '-' + k, colours[k]);
        else root.removeProperty('--ck-' + scheme + '-' + k);
      });
    });
  }
  /** @param {string} hex */
  function luminance(hex) {
    var rgb = [1, 3, 5].map(function (i) {
      var c = parseInt(hex.substr(i, 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
  }
  /** The WCAG contrast ratio of two #rrggbb colours. @param {string} a @param {string} b */
  function contrast(a, b) {
    var la = luminance(a), lb = luminance(b);
    return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
  }

  return Object.freeze({
    isObject: isObject, now: now, round1: round1, storageUrl: storageUrl, h: h, appendAll: appendAll, texts: texts,
    externalLink: externalLink, layerLink: layerLink, switchLabel: switchLabel, iconButton: iconButton, applyTheme: applyTheme, contrast: contrast
  });
})();
