// @ts-check
/* ConsentKit consent notice, the vendor list (see notice-model.js for the scripts' order): layer 3
 * (every vendor in alphabetical order with its switches, search, Google's ad-tech providers) and each vendor's details
 * (purposes and retention, data categories, storage, its device storage disclosure), which
 * layer 4 shows too. */

/**
 * What the vendor list uses of the dialog.
 * @typedef {{
 *   doc: NoticeDocument, model: NoticeIndex, choice: NoticeChoiceSets, metrics: Object<string, any>, texts: NoticeTexts,
 *   layerSection: (n: number | string, titleText: string) => HTMLElement,
 *   toggle: (kind: string, id: number, visibleLabel: string, accessibleName: string) => HTMLElement,
 *   currentLayer: () => number | string
 * }} NoticeVendorsKit
 */
/**
 * @typedef {{
 *   buildVendorLayer: () => HTMLElement, onDisclosureClick: (e: Event) => void,
 *   disclosureButton: (v: NoticeVendor) => HTMLElement
 * }} NoticeVendorList
 */

const NoticeVendors = (function () {
  'use strict';

  var isObject = NoticeModel.isObject, asArray = NoticeModel.asArray, asObject = NoticeModel.asObject;
  var h = NoticeDom.h, externalLink = NoticeDom.externalLink, storageUrl = NoticeDom.storageUrl;
  var now = NoticeDom.now, round1 = NoticeDom.round1;
  var KIND_SET = NoticeModel.KIND_SET;
  // How long the search waits after a keystroke before it filters the list.
  var SEARCH_DELAY_MS = 150;

  /**
   * The vendor list of one view.
   * @param {NoticeVendorsKit} kit
   * @returns {NoticeVendorList}
   */
  function create(kit) {
    var doc = kit.doc, model = kit.model, choice = kit.choice, metrics = kit.metrics;
    var t = kit.texts.t, num = kit.texts.num, vendorsLabel = kit.texts.vendorsLabel, duration = kit.texts.duration, nameOf = kit.texts.nameOf;
    var layerSection = kit.layerSection, toggle = kit.toggle;
    // Made when a list is first sorted: a renderer's first Intl.Collator costs tens of
    // milliseconds, which the first layer (no list) would pay before it shows.
    /** @type {Intl.Collator | null | undefined} */
    var collator;

    /**
     * A copy of `items` in alphabetical order of their names, in the document's language.
     * @template {{ name: string }} T
     * @param {T[]} items
     * @returns {T[]}
     */
    function byName(items) {
      if (collator === undefined) collator = typeof Intl === 'object' ? new Intl.Collator(doc.language, { sensitivity: 'base' }) : null;
      var order = collator;
      return items.slice().sort(function (a, b) { return order ? order.compare(a.name, b.name) : (a.name < b.name ? -1 : a.name > b.name ? 1 : 0); });
    }

    function buildVendorLayer() {
      var t0 = now();
      NoticeDetails.when(doc, function () {});  // a website's vendor details start loading as the list opens
      var s = layerSection(3, t('vendorsTitle'));
      s.appendChild(h('p', { text: t('vendorsIntro') }));
      s.appendChild(h('p', { class: 'ck-small ck-muted', 'data-text': 'choiceStorage', text: kit.texts.choiceStorage() }));
      var count = h('p', { class: 'ck-small ck-muted', 'aria-live': 'polite', 'data-count': doc.vendors.length, text: vendorsLabel(doc.vendors.length) });
      var search = h('input', { type: 'search', class: 'ck-search', placeholder: t('searchPlaceholder'), 'aria-label': t('searchPlaceholder'), autocomplete: 'off' });
      s.appendChild(bulkSwitches(s));
      s.appendChild(search);
      s.appendChild(count);

      var list = h('ul', { class: 'ck-list ck-vendor-list' });
      list.appendChild(vendorRows(byName(doc.vendors)));
      applyOnMarkers(list);
      list.addEventListener('click', onDisclosureClick);
      s.appendChild(list);

      var atpList = null;
      if (doc.adTechProviders.length) {
        atpList = h('ul', { class: 'ck-list' }, byName(doc.adTechProviders).map(function (a) {
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

      // Search filters vendors (and ad-tech providers) by name, once typing pauses. A vendor row
      // that does not match is taken off the list, not hidden: hiding hundreds of rows cost Chromium
      // seconds of style work at 4x CPU slowdown (scripts/bench-notice), taking them out costs
      // none, and the rows that are put back are the only ones styled again. The names are
      // lowercased once; the rows keep their order and their state while off the list, and take
      // the present choices when they come back. The list's data-query says which text the rows on
      // screen match.
      var rows = Array.prototype.map.call(list.children, function (el) { return { el: el, name: el.getAttribute('data-name') }; });
      /** @type {any} */
      var pending = null;
      search.addEventListener('input', function () {
        if (pending !== null) clearTimeout(pending);
        pending = setTimeout(function () { pending = null; filter(); }, SEARCH_DELAY_MS);
      });
      function filter() {
        var q = search.value.trim().toLowerCase(), shown = 0, next = list.firstElementChild;
        var back = document.createDocumentFragment(); // rows coming back before `next`, inserted at once
        rows.forEach(function (r) {
          var match = !q || r.name.indexOf(q) >= 0, onList = r.el === next;
          if (match) shown++;
          if (onList) {
            if (back.firstChild) list.insertBefore(back, next);
            next = next.nextElementSibling;
            if (!match) list.removeChild(r.el);
          } else if (match) {
            syncRow(r.el);
            back.appendChild(r.el);
          }
        });
        if (back.firstChild) list.appendChild(back);
        if (atpList) {
          for (var el = atpList.firstElementChild; el; el = el.nextElementSibling) {
            var match = !q || el.getAttribute('data-name').indexOf(q) >= 0;
            if (el.hidden === match) el.hidden = !match;
          }
        }
        count.textContent = shown ? vendorsLabel(shown) : t('noVendorsFound');
        list.setAttribute('data-query', q);
      }
      metrics.vendorListBuildMs = round1(now() - t0);
      return s;
    }

    // "Consent to all vendors" and "Object to all" (every vendor with an objectable legitimate
    // interest): one switch each over the whole list, on when every one is on, with how many are.
    // The dialog's own change listener keeps the sets; these follow once it has run.
    function bulkSwitches(section) {
      var groups = [{ kind: 'vendor', ids: doc.vendors.map(function (v) { return v.id; }), label: t('consentAllVendors') }];
      if (model.liVendorIds.length) groups.push({ kind: 'vendorLi', ids: model.liVendorIds, label: t('objectAllVendors') });
      var rows = groups.map(function (g) {
        var input = h('input', { type: 'checkbox', role: 'switch', 'data-bulk': g.kind, 'aria-label': g.label });
        var tally = h('span', { class: 'ck-small ck-muted', 'data-bulk-count': g.kind });
        input.addEventListener('change', function () {
          var set = choice[KIND_SET[g.kind]];
          g.ids.forEach(function (id) { if (input.checked) set.add(id); else set.delete(id); });
          /** @type {NodeListOf<HTMLInputElement>} */
          var inputs = section.querySelectorAll('input[data-kind="' + g.kind + '"]');
          for (var i = 0; i < inputs.length; i++) inputs[i].checked = input.checked;
          refresh();
        });
        return { group: g, input: input, tally: tally,
          el: h('div', { class: 'ck-row ck-bulk' }, [h('label', { class: 'ck-switch ck-grow' }, [input, h('span', { text: g.label })]), tally]) };
      });
      function refresh() {
        rows.forEach(function (r) {
          var set = choice[KIND_SET[r.group.kind]], on = 0;
          r.group.ids.forEach(function (id) { if (set.has(id)) on++; });
          r.input.checked = on === r.group.ids.length;
          r.tally.textContent = t('selectedCount', { selected: num(on), total: num(r.group.ids.length) });
        });
      }
      section.addEventListener('change', function (e) {
        if (!/** @type {HTMLElement} */ (e.target).hasAttribute('data-bulk')) setTimeout(refresh, 0);
      });
      // Choices made on another layer (objections on layer 4) show when the list is shown again.
      new MutationObserver(function () { if (!section.hidden) refresh(); }).observe(section, { attributes: true, attributeFilter: ['hidden'] });
      refresh();
      return h('div', { class: 'ck-bulk-group' }, rows.map(function (r) { return r.el; }));
    }

    // The vendor rows are written as one HTML string and parsed once into a <template>'s
    // DocumentFragment: for 800+ vendors this is several times faster than building them node by
    // node. Each row is one compact line: the vendor's name as the disclosure button of its details
    // (its arrow drawn in a span hidden from screen readers; "Details: vendor" is its aria-label),
    // the consent switch, and the objection switch when the vendor has an objectable legitimate
    // interest; the details panel is built on first open, below the line (a button with
    // aria-expanded rather than <details>: 800 <details> elements each cost a shadow tree, which
    // doubled the time to open the list). Every vendor text is escaped.
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
        html.push('<li class="ck-vendor ck-vendor-row" data-vendor="', v.id, '" data-name="', esc(v.name.toLowerCase()),
          '"><div class="ck-row"><button type="button" class="ck-disclosure ck-grow" aria-expanded="false" data-details="', v.id,
          '" aria-label="', details, ': ', name, '"><span class="ck-chevron" aria-hidden="true"></span><span class="ck-vendor-name" dir="auto">',
          name, '</span></button><div class="ck-vendor-controls">',
          switchHtml('vendor', v.id, consent, t('consentTo', { name: v.name })),
          model.liPurposesOf[v.id].length ? switchHtml('vendorLi', v.id, object, t('objectTo', { name: v.name })) : '',
          '</div></div></li>');
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
    // A row back on the list shows the present choices (made meanwhile on layer 4 or by the
    // "all vendors" switches); only a switch that differs is touched.
    function syncRow(row) {
      /** @type {NodeListOf<HTMLInputElement>} */
      var inputs = row.querySelectorAll('input[data-kind]');
      for (var i = 0; i < inputs.length; i++) {
        var on = choice[KIND_SET[inputs[i].getAttribute('data-kind')]].has(Number(inputs[i].getAttribute('data-id')));
        if (inputs[i].checked !== on) inputs[i].checked = on;
      }
    }
    // A vendor's "Details" button shows or hides its panel; the panel is built on first open.
    function onDisclosureClick(e) {
      var button = e.target.closest ? e.target.closest('button.ck-disclosure') : null;
      if (!button) return;
      var open = button.getAttribute('aria-expanded') !== 'true';
      NoticeDetails.when(doc, function () {  // at once, or when a website's vendor details are in
        var row = button.closest('li');
        var panel = row.querySelector(':scope > .ck-vendor-details');
        if (!panel) {
          panel = vendorDetails(model.vendorById[button.getAttribute('data-details')]);
          panel.id = 'ck-details-' + kit.currentLayer() + '-' + button.getAttribute('data-details');
          button.setAttribute('aria-controls', panel.id);
          row.appendChild(panel);
        }
        panel.hidden = !open;
        button.setAttribute('aria-expanded', String(open));
      });
    }
    function disclosureButton(v) {
      return h('button', { type: 'button', class: 'ck-disclosure', 'aria-expanded': 'false', 'data-details': v.id, 'aria-label': t('details') + ': ' + v.name },
        [h('span', { class: 'ck-chevron', 'aria-hidden': 'true' }), t('details')]);
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

    return { buildVendorLayer: buildVendorLayer, onDisclosureClick: onDisclosureClick, disclosureButton: disclosureButton };
  }

  return Object.freeze({ create: create });
})();
