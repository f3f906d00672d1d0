// @ts-check
/* ConsentKit consent notice, US mode (see notice-model.js for the scripts' order; decision record
 * 0034): the notice at collection of the US state privacy laws on the dialog of notice-layers.js,
 * whose layers 1 and 2 it replaces.
 *
 *   layer 1  what is collected and why, whose law gives the choices (the state of a state
 *            section, by its name in the notice's language; "US state privacy laws" for usnat),
 *            "Do Not Sell or Share My Personal Information" (one tap:
 *            action optOut), "Continue" (acknowledged) and "Your Privacy Choices" (with the
 *            standard icon) to layer 2;
 *   layer 2  a switch per opt-out: sale, sharing, targeted advertising, and with
 *            us.limitSensitive "Limit the Use of My Sensitive Personal Information"; "Save
 *            choices" (save, with choices.us).
 * A switch that is on is an opt-out. With us.gpc or us.knownChild the three opt-outs are on and
 * disabled, the reason said beside them; with us.serviceProvider nothing is sold, shared or
 * targeted: layer 1 only, with "Continue".
 *
 * The pure parts (validate, forced, firstLayer, initialChoice, stateName, law) need no DOM: `node --test` runs them
 * (Tests/js/notice-us.test.js). */

/**
 * A US document's `us` object (docs/notice-protocol.md, "US mode").
 * @typedef {{
 *   section: string, state?: string | null, limitSensitive?: boolean, knownChild?: boolean,
 *   gpc?: boolean, serviceProvider?: boolean
 * }} NoticeUSContext
 */
/**
 * The US choice, as `current.us` and a save's `choices.us` carry it: true is an opt-out.
 * @typedef {{
 *   saleOptOut: boolean, sharingOptOut: boolean, targetedAdvertisingOptOut: boolean, sensitiveDataLimited: boolean
 * }} NoticeUSChoice
 */
/**
 * What the US layers use of the dialog.
 * @typedef {{
 *   doc: NoticeDocument, texts: NoticeTexts,
 *   layerSection: (n: number | string, titleText: string) => HTMLElement,
 *   showLayer: (n: number | string, fromHistory?: boolean) => void,
 *   finish: (action: string, layer?: number, choices?: { us: NoticeUSChoice }) => void,
 *   actionButton: (action: string, label: string, primary: boolean, onClick: () => void) => HTMLElement,
 *   footerButtons: (buttons: HTMLElement[]) => HTMLElement
 * }} NoticeUSKit
 */

const NoticeUS = (function () {
  'use strict';

  var isObject = NoticeModel.isObject;
  // The GPP's US sections by API prefix: the national one and every state's (GPP section ids 7-27).
  var SECTIONS = ['usnat', 'usca', 'usva', 'usco', 'usut', 'usct', 'usfl', 'usmt', 'usor', 'ustx', 'usde', 'usia',
    'usne', 'usnh', 'usnj', 'ustn', 'usmn', 'usmd', 'usin', 'usky', 'usri'];
  var FLAGS = ['limitSensitive', 'knownChild', 'gpc', 'serviceProvider'];
  // The opt-outs a Global Privacy Control signal or a known child turns on, and the choice's last field.
  var OPT_OUTS = ['saleOptOut', 'sharingOptOut', 'targetedAdvertisingOptOut'];
  var SENSITIVE = 'sensitiveDataLimited';
  // Each switch's text key.
  /** @type {Object<string, string>} */
  var LABELS = { saleOptOut: 'usSale', sharingOptOut: 'usSharing', targetedAdvertisingOptOut: 'usTargeted', sensitiveDataLimited: 'usSensitive' };

  // The states of the state sections, in SECTIONS' order, and their names: English's, and each
  // language's where the name differs (a whole list for another script, else the names that
  // differ). The notice names the state whose law gives the choices (usLawState); the national
  // section names none (usLawNational).
  var STATES = ['CA', 'VA', 'CO', 'UT', 'CT', 'FL', 'MT', 'OR', 'TX', 'DE', 'IA', 'NE', 'NH', 'NJ', 'TN', 'MN', 'MD', 'IN', 'KY', 'RI'];
  /** @type {Object<string, string[] | Object<string, string>>} */
  var STATE_NAMES = {
    en: ['California', 'Virginia', 'Colorado', 'Utah', 'Connecticut', 'Florida', 'Montana', 'Oregon', 'Texas', 'Delaware', 'Iowa',
      'Nebraska', 'New Hampshire', 'New Jersey', 'Tennessee', 'Minnesota', 'Maryland', 'Indiana', 'Kentucky', 'Rhode Island'],
    ar: ['كاليفورنيا', 'فيرجينيا', 'كولورادو', 'يوتا', 'كونيتيكت', 'فلوريدا', 'مونتانا', 'أوريغون', 'تكساس', 'ديلاوير', 'آيوا',
      'نبراسكا', 'نيوهامشير', 'نيوجيرسي', 'تينيسي', 'مينيسوتا', 'ماريلاند', 'إنديانا', 'كنتاكي', 'رود آيلاند'],
    bg: ['Калифорния', 'Вирджиния', 'Колорадо', 'Юта', 'Кънектикът', 'Флорида', 'Монтана', 'Орегон', 'Тексас', 'Делауеър', 'Айова',
      'Небраска', 'Ню Хампшър', 'Ню Джърси', 'Тенеси', 'Минесота', 'Мериленд', 'Индиана', 'Кентъки', 'Роуд Айлънд'],
    el: ['Καλιφόρνια', 'Βιρτζίνια', 'Κολοράντο', 'Γιούτα', 'Κονέκτικατ', 'Φλόριντα', 'Μοντάνα', 'Όρεγκον', 'Τέξας', 'Ντέλαγουερ', 'Άιοβα',
      'Νεμπράσκα', 'Νιου Χάμσαϊρ', 'Νιου Τζέρσεϊ', 'Τενεσί', 'Μινεσότα', 'Μέριλαντ', 'Ιντιάνα', 'Κεντάκι', 'Ρόουντ Άιλαντ'],
    he: ['קליפורניה', 'וירג׳יניה', 'קולורדו', 'יוטה', 'קונטיקט', 'פלורידה', 'מונטנה', 'אורגון', 'טקסס', 'דלאוור', 'איווה',
      'נברסקה', 'ניו המפשייר', 'ניו ג׳רזי', 'טנסי', 'מינסוטה', 'מרילנד', 'אינדיאנה', 'קנטקי', 'רוד איילנד'],
    hi: ['कैलिफ़ोर्निया', 'वर्जीनिया', 'कोलोराडो', 'यूटा', 'कनेक्टिकट', 'फ़्लोरिडा', 'मोंटाना', 'ओरेगन', 'टेक्सास', 'डेलावेयर', 'आयोवा',
      'नेब्रास्का', 'न्यू हैम्पशायर', 'न्यू जर्सी', 'टेनेसी', 'मिनेसोटा', 'मैरीलैंड', 'इंडियाना', 'केंटकी', 'रोड आइलैंड'],
    ja: ['カリフォルニア', 'バージニア', 'コロラド', 'ユタ', 'コネチカット', 'フロリダ', 'モンタナ', 'オレゴン', 'テキサス', 'デラウェア', 'アイオワ',
      'ネブラスカ', 'ニューハンプシャー', 'ニュージャージー', 'テネシー', 'ミネソタ', 'メリーランド', 'インディアナ', 'ケンタッキー', 'ロードアイランド'],
    ka: ['კალიფორნია', 'ვირჯინია', 'კოლორადო', 'იუტა', 'კონექტიკუტი', 'ფლორიდა', 'მონტანა', 'ორეგონი', 'ტეხასი', 'დელავერი', 'აიოვა',
      'ნებრასკა', 'ნიუ-ჰემპშირი', 'ნიუ-ჯერსი', 'ტენესი', 'მინესოტა', 'მერილენდი', 'ინდიანა', 'კენტუკი', 'როდ-აილენდი'],
    ko: ['캘리포니아', '버지니아', '콜로라도', '유타', '코네티컷', '플로리다', '몬태나', '오리건', '텍사스', '델라웨어', '아이오와',
      '네브래스카', '뉴햄프셔', '뉴저지', '테네시', '미네소타', '메릴랜드', '인디애나', '켄터키', '로드아일랜드'],
    lt: ['Kalifornija', 'Virdžinija', 'Koloradas', 'Juta', 'Konektikutas', 'Florida', 'Montana', 'Oregonas', 'Teksasas', 'Delavėras', 'Ajova',
      'Nebraska', 'Naujasis Hampšyras', 'Naujasis Džersis', 'Tenesis', 'Minesota', 'Merilandas', 'Indiana', 'Kentukis', 'Rod Ailandas'],
    lv: ['Kalifornija', 'Virdžīnija', 'Kolorādo', 'Jūta', 'Konektikuta', 'Florida', 'Montāna', 'Oregona', 'Teksasa', 'Delavēra', 'Aiova',
      'Nebraska', 'Ņūhempšīra', 'Ņūdžersija', 'Tenesī', 'Minesota', 'Mērilenda', 'Indiāna', 'Kentuki', 'Rodailenda'],
    mk: ['Калифорнија', 'Вирџинија', 'Колорадо', 'Јута', 'Конектикат', 'Флорида', 'Монтана', 'Орегон', 'Тексас', 'Делавер', 'Ајова',
      'Небраска', 'Њу Хемпшир', 'Њу Џерси', 'Тенеси', 'Минесота', 'Мериленд', 'Индијана', 'Кентаки', 'Род Ајленд'],
    ru: ['Калифорния', 'Виргиния', 'Колорадо', 'Юта', 'Коннектикут', 'Флорида', 'Монтана', 'Орегон', 'Техас', 'Делавэр', 'Айова',
      'Небраска', 'Нью-Гэмпшир', 'Нью-Джерси', 'Теннесси', 'Миннесота', 'Мэриленд', 'Индиана', 'Кентукки', 'Род-Айленд'],
    sr: ['Kalifornija', 'Virdžinija', 'Kolorado', 'Juta', 'Konektikat', 'Florida', 'Montana', 'Oregon', 'Teksas', 'Delaver', 'Ajova',
      'Nebraska', 'Nju Hempšir', 'Nju Džersi', 'Tenesi', 'Minesota', 'Merilend', 'Indijana', 'Kentaki', 'Rod Ajlend'],
    th: ['แคลิฟอร์เนีย', 'เวอร์จิเนีย', 'โคโลราโด', 'ยูทาห์', 'คอนเนตทิคัต', 'ฟลอริดา', 'มอนแทนา', 'ออริกอน', 'เท็กซัส', 'เดลาแวร์', 'ไอโอวา',
      'เนแบรสกา', 'นิวแฮมป์เชียร์', 'นิวเจอร์ซีย์', 'เทนเนสซี', 'มินนิโซตา', 'แมริแลนด์', 'อินดีแอนา', 'เคนทักกี', 'โรดไอแลนด์'],
    uk: ['Каліфорнія', 'Вірджинія', 'Колорадо', 'Юта', 'Коннектикут', 'Флорида', 'Монтана', 'Орегон', 'Техас', 'Делавер', 'Айова',
      'Небраска', 'Нью-Гемпшир', 'Нью-Джерсі', 'Теннессі', 'Міннесота', 'Меріленд', 'Індіана', 'Кентуккі', 'Род-Айленд'],
    zh: ['加利福尼亚', '弗吉尼亚', '科罗拉多', '犹他', '康涅狄格', '佛罗里达', '蒙大拿', '俄勒冈', '得克萨斯', '特拉华', '艾奥瓦',
      '内布拉斯加', '新罕布什尔', '新泽西', '田纳西', '明尼苏达', '马里兰', '印第安纳', '肯塔基', '罗得岛'],
    bs: { CA: 'Kalifornija', VA: 'Virdžinija', CO: 'Kolorado', TX: 'Teksas' },
    ca: { CA: 'Califòrnia', VA: 'Virgínia', NH: 'Nou Hampshire', NJ: 'Nova Jersey' },
    cs: { CA: 'Kalifornie', VA: 'Virginie' },
    cy: { CA: 'Califfornia' },
    da: { CA: 'Californien' },
    de: { CA: 'Kalifornien' },
    es: { OR: 'Oregón', NH: 'Nuevo Hampshire', NJ: 'Nueva Jersey' },
    eu: { CA: 'Kalifornia' },
    fi: { CA: 'Kalifornia' },
    fr: { CA: 'Californie', VA: 'Virginie', FL: 'Floride' },
    gl: { VA: 'Virxinia', NH: 'Novo Hampshire', NJ: 'Nova Jersey' },
    hr: { CA: 'Kalifornija', VA: 'Virginija', TX: 'Teksas' },
    hu: { CA: 'Kalifornia' },
    nl: { CA: 'Californië' },
    pl: { CA: 'Kalifornia', VA: 'Wirginia', CO: 'Kolorado', FL: 'Floryda', TX: 'Teksas' },
    pt: { CA: 'Califórnia', VA: 'Virgínia', FL: 'Flórida', NH: 'Nova Hampshire', NJ: 'Nova Jérsia' },
    sk: { CA: 'Kalifornia', VA: 'Virgínia' },
    sl: { CA: 'Kalifornija', VA: 'Virginija', CO: 'Kolorado', TX: 'Teksas' },
    sq: { CA: 'Kalifornia', VA: 'Virxhinia', CO: 'Kolorado', TX: 'Teksas' },
    sv: { CA: 'Kalifornien' },
    tr: { CA: 'Kaliforniya', VA: 'Virjinya', CO: 'Kolorado', TX: 'Teksas' }
  };

  /**
   * The name, in `language`, of the state whose section `section` is; null for the national
   * section (usnat), whose choices no one state's law gives.
   * @param {string} section a US section's API prefix
   * @param {string} language
   * @returns {string | null}
   */
  function stateName(section, language) {
    var i = STATES.indexOf(section.slice(2).toUpperCase());
    if (section === 'usnat' || i < 0) return null;
    var own = STATE_NAMES[language];
    var name = Array.isArray(own) ? own[i] : own ? own[STATES[i]] : undefined;
    return name || STATE_NAMES.en[i];
  }

  /**
   * The sentence saying whose law gives the choices: its text key and placeholders.
   * @param {NoticeUSContext} us
   * @param {string} language
   * @returns {[string, Object<string, string> | undefined]}
   */
  function law(us, language) {
    var name = stateName(us.section, language);
    return name === null ? ['usLawNational', undefined] : ['usLawState', { state: name }];
  }

  /**
   * Null when a US document's `us` (and `current.us`) can be shown, else [code, message].
   * @param {any} d
   * @returns {[string, string] | null}
   */
  function validate(d) {
    var us = d.us;
    if (!isObject(us)) return ['malformed_document', 'A US document needs a "us" object.'];
    if (SECTIONS.indexOf(us.section) < 0) {
      return ['malformed_document', 'us.section must be the API prefix of a US section (' + SECTIONS.join(', ') + '), not ' + JSON.stringify(us.section) + '.'];
    }
    if (us.state !== undefined && us.state !== null && !(typeof us.state === 'string' && /^[A-Z]{2}$/.test(us.state))) {
      return ['malformed_document', 'us.state must be a two-letter state code in capitals, or null.'];
    }
    for (var i = 0; i < FLAGS.length; i++) {
      var value = us[FLAGS[i]];
      if (value !== undefined && typeof value !== 'boolean') return ['malformed_document', 'us.' + FLAGS[i] + ' must be true or false.'];
    }
    var current = isObject(d.current) ? d.current.us : undefined;
    if (current !== undefined && current !== null) {
      if (!isObject(current)) return ['malformed_document', 'current.us must be an object or null.'];
      var fields = OPT_OUTS.concat([SENSITIVE]);
      for (var j = 0; j < fields.length; j++) {
        if (current[fields[j]] !== undefined && typeof current[fields[j]] !== 'boolean') return ['malformed_document', 'current.us.' + fields[j] + ' must be true or false.'];
      }
    }
    return null;
  }

  /**
   * Whether the three opt-outs are on whatever the user does, and why: 'gpc', 'knownChild' or null.
   * @param {NoticeUSContext} us
   * @returns {'gpc' | 'knownChild' | null}
   */
  function forced(us) {
    return us.knownChild === true ? 'knownChild' : us.gpc === true ? 'gpc' : null;
  }

  /**
   * The switches a US document opens on: `current.us` (the limit only where it is offered), with
   * what `forced` turns on.
   * @param {any} d a validated US document
   * @returns {NoticeUSChoice}
   */
  function initialChoice(d) {
    var us = d.us, current = isObject(d.current) && isObject(d.current.us) ? d.current.us : {};
    var on = forced(us) !== null;
    return {
      saleOptOut: on || current.saleOptOut === true,
      sharingOptOut: on || current.sharingOptOut === true,
      targetedAdvertisingOptOut: on || current.targetedAdvertisingOptOut === true,
      sensitiveDataLimited: us.limitSensitive === true && current.sensitiveDataLimited === true
    };
  }

  /**
   * The layer a validated US document opens on: 2 (the choices) for startLayer "purposes" (the
   * user opened "Your Privacy Choices"), except on a service provider's notice, which has none.
   * @param {any} d
   * @returns {number}
   */
  function firstLayer(d) {
    return d.startLayer === 'purposes' && d.us.serviceProvider !== true ? 2 : 1;
  }

  /**
   * The US layers' builders and footers (1 and 2, in place of the TCF's).
   * @param {NoticeUSKit} kit
   * @returns {{ builders: Object<string, () => HTMLElement>, footers: Object<string, () => HTMLElement> }}
   */
  function screens(kit) {
    var doc = kit.doc, t = kit.texts.t, h = NoticeDom.h, externalLink = NoticeDom.externalLink;
    var us = doc.us;
    var why = forced(us), notice = us.serviceProvider === true;
    var choice = initialChoice(doc);
    var fields = OPT_OUTS.concat(us.limitSensitive === true ? [SENSITIVE] : []);
    var publisherName = doc.publisher.name || '';

    // The standard "Your Privacy Choices" icon beside its text (decorative: the text names it); a
    // host that does not serve the file leaves the text alone, without a broken image.
    function choicesLabel() {
      var icon = h('img', { class: 'ck-us-icon', src: 'privacy-choices.svg', alt: '', width: '30', height: '14' });
      icon.addEventListener('error', function () { icon.hidden = true; });
      return [icon, h('span', { text: t('usChoices') })];
    }
    // Why the opt-outs are on and cannot be turned off, when they are.
    function reason(id) {
      return why ? h('p', { id: id, class: 'ck-us-reason', 'data-text': why === 'gpc' ? 'usGpcOn' : 'usChildOn',
        text: t(why === 'gpc' ? 'usGpcOn' : 'usChildOn') }) : null;
    }

    function buildFirst() {
      var s = kit.layerSection(1, t('usFirstTitle', { publisherName: publisherName }));
      s.appendChild(h('p', { 'data-text': 'usCollected', text: t('usCollected') }));
      s.appendChild(h('p', { 'data-text': 'usPurposes', text: t('usPurposes') }));
      var said = law(us, doc.language);
      s.appendChild(h('p', { class: 'ck-us-law', 'data-text': said[0], text: t(said[0], said[1]) }));
      if (notice) s.appendChild(h('p', { class: 'ck-us-reason', 'data-text': 'usServiceProvider', text: t('usServiceProvider') }));
      else {
        var r = reason('ck-us-reason-1');
        if (r) s.appendChild(r);
      }
      var policy = externalLink(doc.publisher.privacyPolicyUrl, t('privacyPolicy'));
      if (policy) s.appendChild(h('p', { class: 'ck-policy' }, [policy]));
      return s;
    }
    function firstFooter() {
      var buttons = [];
      // Nothing to opt out of when the opt-outs are already on, or when nothing is sold or shared.
      if (!notice && !why) buttons.push(kit.actionButton('optOut', t('usDoNotSell'), true, function () { kit.finish('optOut', 1); }));
      buttons.push(kit.actionButton('acknowledged', t('usContinue'), true, function () { kit.finish('acknowledged', 1); }));
      if (!notice) {
        var open = kit.actionButton('choices', '', false, function () { kit.showLayer(2); });
        open.classList.add('ck-us-choices');
        NoticeDom.appendAll(open, choicesLabel());
        buttons.push(open);
      }
      return kit.footerButtons(buttons);
    }

    function buildChoices() {
      var s = kit.layerSection(2, t('usChoices'));
      s.appendChild(h('p', { 'data-text': 'usChoicesIntro', text: t('usChoicesIntro') }));
      var r = reason('ck-us-reason-2');
      if (r) s.appendChild(r);
      s.appendChild(h('ul', { class: 'ck-list' }, fields.map(function (field) {
        var locked = why !== null && field !== SENSITIVE;
        var input = h('input', { type: 'checkbox', role: 'switch', 'data-us': field, disabled: locked,
          'aria-describedby': locked ? 'ck-us-reason-2' : (field === SENSITIVE ? 'ck-us-sensitive-desc' : null) });
        input.checked = choice[field]; // a property: the initial DOM never has "checked"
        input.addEventListener('change', function () { choice[field] = input.checked; });
        return h('li', { class: 'ck-card', 'data-us-choice': field }, [
          NoticeDom.switchLabel(input, t(LABELS[field])),
          field === SENSITIVE ? h('p', { id: 'ck-us-sensitive-desc', class: 'ck-small ck-muted ck-desc-full', text: t('usSensitiveDesc') }) : null
        ]);
      })));
      return s;
    }
    function choicesFooter() {
      return kit.footerButtons([kit.actionButton('save', t('saveChoices'), true, function () {
        /** @type {NoticeUSChoice} */
        var saved = { saleOptOut: choice.saleOptOut, sharingOptOut: choice.sharingOptOut,
          targetedAdvertisingOptOut: choice.targetedAdvertisingOptOut, sensitiveDataLimited: us.limitSensitive === true && choice.sensitiveDataLimited };
        kit.finish('save', 2, { us: saved });
      })]);
    }

    // A service provider's notice has no choices: no layer 2 (firstLayer() never opens it).
    return notice ? { builders: { 1: buildFirst }, footers: { 1: firstFooter } }
      : { builders: { 1: buildFirst, 2: buildChoices }, footers: { 1: firstFooter, 2: choicesFooter } };
  }

  return Object.freeze({ SECTIONS: Object.freeze(SECTIONS), STATES: Object.freeze(STATES), validate: validate, stateName: stateName, law: law, forced: forced, firstLayer: firstLayer, initialChoice: initialChoice, screens: screens });
})();
