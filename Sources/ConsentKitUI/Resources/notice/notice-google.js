// @ts-check
/* ConsentKit consent notice, Google mode (see notice-model.js for the scripts' order): Google's
 * legacy consent form made honest under the TCF (decision record 0017): one card (g1) that says
 * what each answer records before any button, every answer one tap away, "Manage options" into the
 * TCF layers 2-4, and the partners list (g3) with Google's ad-tech providers set apart from the
 * IAB TCF vendors, on the dialog of notice-layers.js. */

/**
 * What the Google screens use of the dialog.
 * @typedef {{
 *   doc: NoticeDocument, texts: NoticeTexts,
 *   layerSection: (n: number | string, titleText: string) => HTMLElement,
 *   showLayer: (n: number | string, fromHistory?: boolean) => void, goBack: () => void,
 *   finish: (action: string, layer?: number) => void,
 *   actionButton: (action: string, label: string, primary: boolean, onClick: () => void) => HTMLElement,
 *   footerButtons: (buttons: HTMLElement[]) => HTMLElement
 * }} NoticeGoogleKit
 */

const NoticeGoogle = (function () {
  'use strict';

  var h = NoticeDom.h, externalLink = NoticeDom.externalLink;
  // The purposes "No, see ads that are less relevant" leaves out: profiles and personalisation.
  var PERSONALISATION = { 3: true, 4: true, 5: true, 6: true };
  var ICON = /^data:image\/(png|jpeg|gif|webp);base64,|^https:\/\/|^\/(?!\/)/;

  /** @param {Object<string, any>} items @returns {number[]} */
  function ids(items) { return Object.keys(items).map(Number).sort(function (a, b) { return a - b; }); }

  /**
   * The screens' builders and footers, by screen name.
   * @param {NoticeGoogleKit} kit
   * @returns {{ builders: Object<string, () => HTMLElement>, footers: Object<string, () => HTMLElement> }}
   */
  function screens(kit) {
    var doc = kit.doc, t = kit.texts.t, vendorsLabel = kit.texts.vendorsLabel, nameOf = kit.texts.nameOf;
    var layerSection = kit.layerSection, showLayer = kit.showLayer, finish = kit.finish;
    var actionButton = kit.actionButton;

    function appName() { return doc.publisher.appName || doc.publisher.name || ''; }

    // What the form offers (at least one kind of ads and one refusal: the host and validate() see to it).
    function offersPersonalized() { return doc.google.personalizedOffered !== false; }
    function offersNonPersonalized() { return doc.google.nonPersonalizedOffered !== false; }
    function offersRefusal() { return doc.google.refusalOffered !== false; }
    // "No" in the full form, "Agree" in the non-personalized-only one: the same answer.
    function npaLabel() { return offersPersonalized() ? t('googleNo') : t('googleAgree'); }

    function icon() {
      var url = doc.google.appIcon;
      return typeof url === 'string' && ICON.test(url) ? h('img', { class: 'ck-app-icon', src: url, alt: '' }) : null;
    }

    // What each offered answer records, then the purposes, special features, legitimate interest
    // and partners it records it for.
    function coverage() {
      var answers = [];
      if (offersPersonalized()) answers.push(h('li', { 'data-answer': 'acceptAll', text: t('googleAnswerYes', { answer: t('googleYes') }) }));
      if (offersNonPersonalized() || !offersPersonalized()) {
        answers.push(h('li', { 'data-answer': 'nonPersonalized',
          text: t('googleAnswerNo', { answer: npaLabel(), mark: t('googlePersonalisation') }) }));
      }
      if (offersRefusal()) answers.push(h('li', { 'data-answer': 'rejectAll', text: t('googleAnswerRefuse', { answer: t('googleRefuse') }) }));
      var nodes = [h('h2', { text: t('googleWhatTitle') }), h('ul', { class: 'ck-google-answers' }, answers)];

      nodes.push(h('h3', { text: t('purposesHeading') }));
      nodes.push(h('ul', { class: 'ck-list ck-google-purposes' }, ids(doc.purposes).map(function (p) {
        return h('li', { 'data-purpose': p }, [h('span', { dir: 'auto', text: nameOf('purposes', p) }),
          PERSONALISATION[p] ? h('span', { class: 'ck-google-mark', text: t('googlePersonalisation') }) : null]);
      })));
      var features = ids(doc.specialFeatures);
      if (features.length) {
        nodes.push(h('h3', { text: t('specialFeaturesHeading') }));
        nodes.push(h('p', { 'data-text': 'googleSpecialFeatures', text: t('googleSpecialFeatures', { manageOptions: t('manageOptions') }) }));
        nodes.push(h('ul', { class: 'ck-list ck-google-purposes' }, features.map(function (f) {
          return h('li', { 'data-special-feature': f }, [h('span', { dir: 'auto', text: nameOf('specialFeatures', f) })]);
        })));
      }
      if (doc.vendors.some(function (v) { return (v.legIntPurposes || []).length > 0; })) {
        nodes.push(h('p', { 'data-text': 'googleLegitimateInterest', text: t('googleLegitimateInterest', { manageOptions: t('manageOptions') }) }));
      }
      var partners = doc.adTechProviders.length
        ? t('googlePartnersCount', { vendors: vendorsLabel(doc.vendors.length), providerCount: kit.texts.num(doc.adTechProviders.length) })
        : vendorsLabel(doc.vendors.length);
      nodes.push(h('p', { 'data-text': 'googlePartnersCount', 'data-count': doc.vendors.length + doc.adTechProviders.length }, [
        h('span', { text: partners + ' ' }),
        h('button', { type: 'button', class: 'ck-link', 'data-action': 'open-partners',
          text: t('googleLearnMore', { appName: appName() }), onclick: function () { showLayer('g3'); } })
      ]));
      return nodes;
    }

    function buildGoogleMain() {
      var npaOnly = !offersPersonalized();
      var s = layerSection('g1', npaOnly ? t('googleNpaTitle') : t('googleQuestion'));
      var title = s.firstChild;
      s.insertBefore(h('div', { class: 'ck-google-head' }, [icon(), h('strong', { class: 'ck-app-name', text: appName() })]), title);
      s.insertBefore(h('p', { text: t('googleIntro', { appName: appName() }) }), title);
      if (npaOnly) s.appendChild(h('p', { text: t('googleNpaOnly') }));
      coverage().forEach(function (node) { s.appendChild(node); });
      if (offersNonPersonalized() || npaOnly) s.appendChild(h('p', { class: 'ck-small ck-muted', text: t('googleExplainer') }));
      s.appendChild(h('p', { class: 'ck-small ck-muted', text: t('googleChangeAnytime', { appName: appName() }) }));
      s.appendChild(h('p', { class: 'ck-small' }, [externalLink(doc.publisher.privacyPolicyUrl, t('privacyPolicy'))]));
      return s;
    }
    // Every answer one tap away, the kinds of ads and the refusal alike (decision record 0017).
    function googleMainFooter() {
      var buttons = [];
      if (offersPersonalized()) buttons.push(actionButton('acceptAll', t('googleYes'), true, function () { finish('acceptAll', 1); }));
      if (offersNonPersonalized() || !offersPersonalized()) {
        buttons.push(actionButton('nonPersonalized', npaLabel(), true, function () { finish('nonPersonalized', 1); }));
      }
      if (offersRefusal()) buttons.push(actionButton('rejectAll', t('googleRefuse'), true, function () { finish('rejectAll', 1); }));
      if (doc.adFree.offered === true) buttons.push(actionButton('adFree', t('googleAdFree'), false, function () { finish('adFree', 1); }));
      buttons.push(actionButton('manage', t('manageOptions'), false, function () { showLayer(2); }));
      return h('div', { class: 'ck-column' }, [h('div', { class: 'ck-stack-buttons' }, buttons)]);
    }

    // The partners: the IAB TCF vendors, then Google's ad-tech providers (outside the TCF), each
    // alphabetical, each name linking its privacy policy.
    function partnerList(kind, items) {
      var sorted = items.slice().sort(function (a, b) { return a.name.localeCompare(b.name, doc.language); });
      return h('ul', { class: 'ck-first-list ck-list', 'data-partners': kind }, sorted.map(function (p) {
        return h('li', { 'data-partner': kind + ':' + p.id }, [h('span', { dir: 'auto' }, [externalLink(p.privacyPolicyUrl, p.name) || p.name])]);
      }));
    }
    function buildGooglePartners() {
      var s = layerSection('g3', t('googlePartnersTitle'));
      if (doc.vendors.length) {
        s.appendChild(h('h2', { text: t('googleTcfVendorsHeading') }));
        s.appendChild(h('p', { 'data-count': doc.vendors.length, text: vendorsLabel(doc.vendors.length) }));
        s.appendChild(partnerList('vendor', doc.vendors));
      }
      if (doc.adTechProviders.length) {
        var atps = h('div', { class: 'ck-atp' }, [h('h2', { text: t('googleAtpHeading') }),
          h('p', { class: 'ck-small ck-muted', 'data-count': doc.adTechProviders.length, text: t('googleAtpIntro') }),
          partnerList('atp', doc.adTechProviders)]);
        s.appendChild(atps);
      }
      s.appendChild(h('p', null, [externalLink(doc.publisher.privacyPolicyUrl, t('googleHowAppUses', { appName: appName() }))]));
      return s;
    }

    return {
      builders: { g1: buildGoogleMain, g3: buildGooglePartners },
      footers: { g1: googleMainFooter }
    };
  }

  return Object.freeze({ screens: screens });
})();
