// @ts-check
/* ConsentKit consent notice, its dialog (see notice-model.js for the scripts' order): the shell
 * (top bar, scrolling layers, footer, focus trap), the switches, the TCF layers 1 (first layer),
 * 2 (purposes and features) and 4 (legitimate interest), with layer 3 from notice-vendors.js,
 * Google mode's screens from notice-google.js, US mode's layers 1 and 2 from notice-us.js, and
 * the one result.
 *
 * NoticeLayers.create(session) makes the view of one configured document; everything it changes
 * (the dialog, the choices, whether the result went out) lives in that view. */

/**
 * What the view of one document is given by notice.js: the document and its indexes, the choices
 * it edits, the metrics it fills, when it was configured and shown, and where its result goes.
 * @typedef {{
 *   doc: NoticeDocument, model: NoticeIndex, choice: NoticeChoiceSets, metrics: Object<string, any>,
 *   startedAt: number, shownAt: number, onResult: (message: NoticeResult) => void
 * }} NoticeSession
 */
/**
 * The rendered dialog.
 * @typedef {{
 *   root: HTMLElement, layers: Object<string, HTMLElement>, history: Array<number | string>, current: number | string,
 *   scrollTops: Object<string, number>, opener: HTMLElement | null, back: HTMLElement, close: HTMLElement | null,
 *   topbar: HTMLElement, topbarWrap: HTMLElement, column: HTMLElement, scroll: HTMLElement, footer: HTMLElement,
 *   dialog: HTMLElement, live: HTMLElement, hasLogo: boolean, inerted: HTMLElement[]
 * }} NoticeUI
 */
/**
 * The view of one document.
 * @typedef {{
 *   open: (first: number | string) => void, close: () => void, isOpen: () => boolean,
 *   onKeyDown: (e: KeyboardEvent) => void, onFocusIn: (e: FocusEvent) => void,
 *   finish: (action: string, layer?: number, choices?: { us: NoticeUSChoice }) => void
 * }} NoticeView
 */

const NoticeLayers = (function () {
  'use strict';

  var NO_LI_PURPOSES = NoticeModel.NO_LI_PURPOSES, PROTOCOL = NoticeModel.PROTOCOL;
  var asArray = NoticeModel.asArray, sortedIds = NoticeModel.sortedIds;
  var h = NoticeDom.h, externalLink = NoticeDom.externalLink, layerLink = NoticeDom.layerLink, iconButton = NoticeDom.iconButton;
  var now = NoticeDom.now, round1 = NoticeDom.round1;
  var httpUrl = NoticeModel.httpUrl;
  var FOCUSABLE = 'a[href],button:not([disabled]),input:not([disabled]),summary,[tabindex]:not([tabindex="-1"])';
  var KIND_SET = NoticeModel.KIND_SET;

  /**
   * The view of one document.
   * @param {NoticeSession} session
   * @returns {NoticeView}
   */
  function create(session) {
    var doc = session.doc, model = session.model, choice = session.choice, metrics = session.metrics;
    var tx = NoticeDom.texts(doc, metrics);
    var t = tx.t, tNodes = tx.tNodes, vendorsLabel = tx.vendorsLabel, nameOf = tx.nameOf;
    /** @type {NoticeUI | null} */
    var ui = null;
    var decided = false;

    // Builds the empty dialog: a top bar (back, logo, close), a scrolling area holding one section
    // per layer, and a footer holding the current layer's buttons.
    function openShell() {
      var root = document.getElementById('ck-root') || document.body.appendChild(h('div', { id: 'ck-root' }));
      var html = document.documentElement;
      html.lang = doc.language;
      html.dir = doc.direction === 'rtl' ? 'rtl' : 'ltr';

      ui = /** @type {NoticeUI} */ ({ root: root, layers: {}, history: [], current: 0, scrollTops: {},
        opener: /** @type {HTMLElement | null} */ (document.activeElement) });
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
      // Says the new layer's title when the layer changes (the focus on the title may not be read).
      ui.live = h('div', { class: 'ck-sr', 'aria-live': 'polite', 'aria-atomic': 'true' });
      ui.dialog = h('div', { class: 'ck-dialog' + (doc.mode === 'google' ? ' ck-google' : doc.mode === 'us' ? ' ck-us' : ''), role: 'dialog', 'aria-modal': 'true' },
        [ui.live, ui.scroll, ui.footer]);
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
      window.addEventListener('resize', fitFooter);
    }

    // The footer turns compact (notice.css) when it would take more than 30 % of the viewport.
    function fitFooter() {
      if (!ui) return;
      ui.footer.classList.remove('ck-compact');
      if (ui.footer.offsetHeight > 0.3 * window.innerHeight) ui.footer.classList.add('ck-compact');
    }

    function closeShell() {
      if (!ui) return;
      window.removeEventListener('resize', fitFooter);
      ui.inerted.forEach(function (el) { el.inert = false; el.removeAttribute('aria-hidden'); });
      ui.root.textContent = '';
      var opener = ui.opener;
      ui = null;
      if (opener && opener !== document.body && document.contains(opener) && opener.focus) opener.focus();
      else if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
    }

    // Shows layer n (1-4; Google mode uses its own screen names), building it on first use.
    function showLayer(n, fromHistory) {
      var changed = !!ui.current;
      if (ui.current && !fromHistory) ui.history.push(ui.current);
      if (ui.current) {
        ui.scrollTops[ui.current] = ui.scroll.scrollTop;
        ui.layers[ui.current].hidden = true;
      }
      var built = !ui.layers[n], t0 = now();
      if (built) {
        ui.layers[n] = BUILDERS[n]();
        ui.column.appendChild(ui.layers[n]);
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
      if (changed) ui.live.textContent = title.textContent;
      // Every change to the dialog is made before the one style and layout fitFooter reads (and
      // that the scroll position and the focus need): a layout forced between them was done
      // again for the next (the first layer's style and layout, twice, on a visitor's first view).
      fitFooter();
      if (built) metrics['layer' + n + 'Ms'] = round1(now() - t0); // its style and layout included
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
      // a is b or comes before it in document order (the title, which is not a tab stop, comes
      // before the first control).
      var atOrBefore = function (a, b) { return a === b || !!(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING); };
      if (e.shiftKey && atOrBefore(active, first)) { e.preventDefault(); last.focus(); }
      else if (!e.shiftKey && atOrBefore(last, active)) { e.preventDefault(); first.focus(); }
    }
    function edgeFocusable(fromStart) {
      /** @type {NodeListOf<HTMLElement>} */
      var all = ui.dialog.querySelectorAll(FOCUSABLE);
      for (var i = 0; i < all.length; i++) {
        var el = all[fromStart ? i : all.length - 1 - i];
        var visible = el.checkVisibility ? el.checkVisibility() : el.getClientRects().length > 0;
        if (visible) return el;
      }
      return null;
    }
    // Focus that leaves the dialog (a click on the page behind, a screen reader) comes back to it.
    function onFocusIn(e) {
      if (ui && !ui.dialog.contains(/** @type {Node} */ (e.target))) { var f = edgeFocusable(true); if (f) f.focus(); }
    }

    /* ---------------------------------------------------------------- 6. toggles (all layers) */


    function toggle(kind, id, visibleLabel, accessibleName) {
      var input = h('input', { type: 'checkbox', role: 'switch' });
      registerToggle(input, kind, id, accessibleName);
      return NoticeDom.switchLabel(input, visibleLabel);
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
      /** @type {NodeListOf<HTMLInputElement>} */
      var same = ui.dialog.querySelectorAll('input[data-kind="' + kind + '"][data-id="' + id + '"]');
      for (var i = 0; i < same.length; i++) same[i].checked = input.checked;
      var ms = now() - t0;
      metrics.toggleMs = round1(ms);
      metrics.toggleMaxMs = Math.max(metrics.toggleMaxMs || 0, round1(ms));
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
      // Google's ad-tech providers are counted with the vendors (they are consented to as well):
      // "20 IAB TCF vendors and 3 other ad-tech providers" (review notice-ux §3.1).
      var providers = doc.adTechProviders.length;
      var vendorsText = providers
        ? t('vendorsAndProviders', { vendors: tx.plural('tcfVendors', doc.vendors.length, 'vendorCount'),
          providers: tx.plural('otherProviders', providers, 'providerCount') })
        : vendorsLabel(doc.vendors.length);
      var vendorsLink = layerLink({ 'data-action': 'open-vendors', 'data-count': doc.vendors.length, 'data-providers': providers },
        vendorsText, function () { showLayer(3); });
      s.appendChild(h('p', null, [tNodes('firstStorage', { vendorsLink: vendorsLink })]));
      s.appendChild(h('p', { text: t('firstPersonalData') }));
      // The privacy policy near the top, where it is seen before the lists (review notice-ux §3.1).
      var policy = externalLink(doc.publisher.privacyPolicyUrl, t('privacyPolicy'));
      if (policy) s.appendChild(h('p', { class: 'ck-policy' }, [policy]));

      // Purposes: the stacks with purposes and the purposes no stack covers, by their lowest
      // purpose (purpose 1 first); special features: the stacks of special features only and the
      // special features no stack covers, under their own heading.
      var inStack = { purposes: {}, specialFeatures: {} };
      /** @type {Array<{ order: number, el: HTMLElement }>} */
      var purposeItems = [], featureItems = [];
      doc.stacks.forEach(function (stack) {
        var ps = asArray(stack.purposes), sfs = asArray(stack.specialFeatures);
        ps.forEach(function (p) { inStack.purposes[p] = true; });
        sfs.forEach(function (p) { inStack.specialFeatures[p] = true; });
        var el = h('li', { 'data-stack': stack.id }, [h('strong', { dir: 'auto', text: String(stack.name || '').trim() }),
          stack.description ? h('span', { class: 'ck-desc', dir: 'auto', text: stack.description }) : null]);
        if (ps.length) purposeItems.push({ order: Math.min.apply(null, ps), el: el });
        else featureItems.push({ order: Math.min.apply(null, sfs), el: el });
      });
      sortedIds(doc.purposes).forEach(function (p) {
        if (!inStack.purposes[p]) purposeItems.push({ order: p, el: h('li', { 'data-purpose': p }, [h('strong', { dir: 'auto', text: nameOf('purposes', p) })]) });
      });
      sortedIds(doc.specialFeatures).forEach(function (p) {
        if (!inStack.specialFeatures[p]) featureItems.push({ order: p, el: h('li', { 'data-special-feature': p }, [h('strong', { dir: 'auto', text: nameOf('specialFeatures', p) })]) });
      });
      /** @param {string} heading @param {Array<{ order: number, el: HTMLElement }>} items */
      function group(heading, items) {
        if (!items.length) return;
        items.sort(function (a, b) { return a.order - b.order; });
        s.appendChild(h('h2', { text: t(heading) }));
        s.appendChild(h('ul', { class: 'ck-list ck-first-list' }, items.map(function (i) { return i.el; })));
      }
      group('purposesHeading', purposeItems);
      group('specialFeaturesHeading', featureItems);
      s.appendChild(h('p', { class: 'ck-small ck-muted', text: t('specialPurposesNotice') }));
      s.appendChild(h('p', { 'data-text': 'firstRefuse', text: t('firstRefuse') }));
      if (model.liVendorIds.length) {
        var liLink = layerLink({ 'data-action': 'open-li' }, t('liLink'), function () { showLayer(4); });
        s.appendChild(h('p', { 'data-text': 'firstLegitimateInterest' }, [tNodes('firstLegitimateInterest', { liLink: liLink })]));
      }
      s.appendChild(h('p', { 'data-text': 'firstScope', text: t('firstScope', { publisherName: doc.publisher.name || '' }) }));
      s.appendChild(h('p', { 'data-text': 'firstWithdraw', text: t('firstWithdraw') }));
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
      var buttons = [
        actionButton('acceptAll', t('acceptAll'), true, function () { finish('acceptAll'); }),
        actionButton('rejectAll', t('rejectAll'), true, function () { finish('rejectAll'); }),
        actionButton('manage', t('manageOptions'), false, function () { showLayer(2); })
      ];
      // The publisher sells an ad-free version: a third answer beside accepting and rejecting.
      if (doc.adFree.offered === true) buttons.push(actionButton('adFree', t('adFree'), false, function () { finish('adFree'); }));
      return footerButtons(buttons);
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
      // A reopened notice shows the present choices: its switches are not all off.
      s.appendChild(h('p', { 'data-text': 'purposesIntro', text: t(NoticeModel.isObject(doc.current) ? 'purposesIntroCurrent' : 'purposesIntro') }));
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

    // Layer 3 and the vendors' details (notice-vendors.js).
    var vendorList = NoticeVendors.create({
      doc: doc, model: model, choice: choice, metrics: metrics, texts: tx, layerSection: layerSection, toggle: toggle,
      currentLayer: function () { return ui ? ui.current : 0; }
    });
    var buildVendorLayer = vendorList.buildVendorLayer, onDisclosureClick = vendorList.onDisclosureClick;
    var disclosureButton = vendorList.disclosureButton;

    /* ---------------------------------------------------------------- 9. layer 4: legitimate interest */

    // A vendor's policy and claim links, once a website's vendor details are in (notice-details.js).
    function liLinks(v) {
      var meta = h('div', { class: 'ck-meta' });
      NoticeDetails.when(doc, function () {
        [externalLink(v.privacyPolicyUrl, t('privacyPolicy')), externalLink(v.legIntClaimUrl, t('legIntClaim'))]
          .forEach(function (a) { if (a) meta.appendChild(a); });
      });
      return meta;
    }
    function buildLiLayer() {
      var s = layerSection(4, t('liTitle'));
      s.appendChild(h('p', { text: t('liIntro') }));
      s.appendChild(h('p', { 'data-text': 'liObjectHint', text: t('liObjectHint') }));
      s.appendChild(h('p', { class: 'ck-small ck-muted', 'data-text': 'choiceStorage', text: tx.choiceStorage() }));

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
              liLinks(v)
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

    /** @type {Object<string, () => HTMLElement>} */
    var BUILDERS = { 1: buildFirstLayer, 2: buildPurposesLayer, 3: buildVendorLayer, 4: buildLiLayer };
    /** @type {Object<string, () => HTMLElement>} */
    var FOOTERS = { 1: firstFooter, 2: choicesFooter, 3: choicesFooter, 4: choicesFooter };
    // Google mode's screens (notice-google.js), on the same shell.
    var google = NoticeGoogle.screens({
      doc: doc, texts: tx, layerSection: layerSection, showLayer: showLayer, goBack: goBack, finish: finish,
      actionButton: actionButton, footerButtons: footerButtons
    });
    Object.keys(google.builders).forEach(function (k) { BUILDERS[k] = google.builders[k]; });
    Object.keys(google.footers).forEach(function (k) { FOOTERS[k] = google.footers[k]; });
    // US mode (notice-us.js): its layers 1 and 2 in place of the TCF's, and no others.
    if (doc.mode === 'us') {
      var us = NoticeUS.screens({
        doc: doc, texts: tx, layerSection: layerSection, showLayer: showLayer, finish: finish,
        actionButton: actionButton, footerButtons: footerButtons
      });
      BUILDERS = us.builders; FOOTERS = us.footers;
    }

    /* ---------------------------------------------------------------- 10. results */

    // Posts the one result and closes the notice. `layer` defaults to the layer on screen; a save's
    // `choices` default to the TCF choices (US mode gives its own).
    function finish(action, layer, choices) {
      if (decided || !ui) return;
      decided = true;
      /** @type {NoticeResult} */
      var message = {
        protocol: PROTOCOL, type: 'result', action: action,
        layer: layer || (typeof ui.current === 'number' ? ui.current : 1), // Google's screens are layer 1
        language: doc.language, noticeVersion: doc.noticeVersion === undefined ? null : doc.noticeVersion
      };
      if (action === 'save') message.choices = choices || NoticeModel.collectChoices(model, choice);
      message.timings = { shownMs: round1(session.shownAt - session.startedAt), decidedMs: round1(now() - session.shownAt) };
      ['layer3Ms', 'toggleMaxMs'].forEach(function (k) { if (metrics[k] !== undefined) message.timings[k] = metrics[k]; });
      closeShell();
      session.onResult(message);
    }
    return {
      open: function (first) { openShell(); showLayer(first); },
      close: closeShell,
      isOpen: function () { return ui !== null; },
      onKeyDown: function (e) { if (ui) onKeyDown(e); },
      onFocusIn: onFocusIn,
      finish: finish
    };
  }

  return Object.freeze({ create: create });
})();
