// @ts-check
/* ConsentKit consent notice, Google mode (see notice-model.js for the scripts' order): three
 * screens modelled on Google's legacy consent form: the question (g1), the explainer for "less
 * relevant ads" (g2), and the list of partners (g3), on the dialog of notice-layers.js. */

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

  /**
   * The screens' builders and footers, by screen name.
   * @param {NoticeGoogleKit} kit
   * @returns {{ builders: Object<string, () => HTMLElement>, footers: Object<string, () => HTMLElement> }}
   */
  function screens(kit) {
    var doc = kit.doc, t = kit.texts.t, vendorsLabel = kit.texts.vendorsLabel;
    var layerSection = kit.layerSection, showLayer = kit.showLayer, goBack = kit.goBack, finish = kit.finish;
    var actionButton = kit.actionButton, footerButtons = kit.footerButtons;

    // Three screens modelled on Google's legacy consent form: the question, the explainer for
    // "less relevant ads", and the list of partners.
    function appName() { return doc.publisher.appName || doc.publisher.name || ''; }

    // Which kinds of ads the form offers (at least one: the host and validate() see to it).
    function offersPersonalized() { return doc.google.personalizedOffered !== false; }
    function offersNonPersonalized() { return doc.google.nonPersonalizedOffered !== false; }

    function buildGoogleMain() {
      var npaOnly = !offersPersonalized();
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
      if (!offersPersonalized()) {
        buttons.push(actionButton('nonPersonalized', t('googleAgree'), true, function () { finish('nonPersonalized', 1); }));
      } else {
        buttons.push(actionButton('acceptAll', t('googleYes'), true, function () { finish('acceptAll', 1); }));
        if (offersNonPersonalized()) {
          buttons.push(actionButton('nonPersonalizedInfo', t('googleNo'), true, function () { showLayer('g2'); }));
        }
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

    return {
      builders: { g1: buildGoogleMain, g2: buildGoogleExplainer, g3: buildGooglePartners },
      footers: { g1: googleMainFooter, g2: googleExplainerFooter }
    };
  }

  return Object.freeze({ screens: screens });
})();
