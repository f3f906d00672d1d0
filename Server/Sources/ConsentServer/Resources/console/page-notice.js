/* ConsentKit console: the notice editor (editor, owner; docs/console.md, "The notice").
 * Picks a website or app, lists its notice versions, edits a draft's texts, layout, brand and
 * languages with a live preview of the real notice page (/notice/notice.html in a same-origin
 * frame, given the document POST /v1/console/notices/preview builds for the unsaved form), and
 * publishes a draft after a confirmation. Decision record 0043. */
(function () {
  'use strict';

  var K = window.ConsoleKit;
  var el = K.el;

  /** The UI texts the form offers, with their labels (texts/en.json has every key). */
  var TEXTS = [
    ['noticeTitle', 'Title'],
    ['firstTitle', 'First layer heading ({publisherName} is the publisher\'s name)'],
    ['firstRefuse', 'What rejecting means'],
    ['acceptAll', '“Accept all” button'],
    ['rejectAll', '“Reject all” button'],
    ['manageOptions', '“Manage options” button'],
    ['privacyPolicy', 'Privacy policy link']
  ];
  var COLOURS = [
    ['background', 'Background'], ['surface', 'Cards'], ['text', 'Text'], ['mutedText', 'Secondary text'],
    ['primary', 'Buttons'], ['onPrimary', 'Button text'], ['border', 'Borders'], ['link', 'Links']
  ];
  var LAYOUTS = [['auto', 'Automatic (sheet on phones, modal on wider screens)'], ['modal', 'Centred modal'], ['banner', 'Bottom banner'],
    ['sheet', 'Bottom sheet'], ['fullscreen', 'Full screen']];
  var MODES = [['tcf', 'TCF notice'], ['google', 'Google consent form'], ['us', 'US notice at collection (California)']];
  var DEBOUNCE_MS = 400;

  function select(options, value) {
    return el('select', null, options.map(function (o) { return el('option', { value: o[0], selected: o[0] === value }, o[1]); }));
  }

  function when(iso) {
    var m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso || '');
    return m ? m[1] + ' ' + m[2] + ' UTC' : '';
  }

  /** A deep copy of JSON data. */
  function copy(value) { return JSON.parse(JSON.stringify(value)); }

  function render(main, ctx) {
    var api = ctx.api;
    main.appendChild(el('h1', null, 'Notice'));
    main.appendChild(el('p', { class: 'lead' },
      'Texts, layout, brand and languages of a website\'s or app\'s consent notice, with a preview of the real notice. ' +
      'Every version is kept; publishing a draft shows it to users at once.'));
    var appSelect = el('select', null);
    var appField = K.field('Website or app', appSelect);
    main.appendChild(appField);
    var body = el('div', { class: 'notice-editor' });
    main.appendChild(body);

    return api('GET', '/v1/console/notices/apps').then(function (answer) {
      if (!answer.apps.length) {
        body.appendChild(el('p', null, 'No website or app is configured yet.'));
        return null;
      }
      answer.apps.forEach(function (app) {
        appSelect.appendChild(el('option', { value: app.appId },
          app.name + ' — ' + app.appId + ' (' + app.kind + (app.noticeVersion ? ', notice version ' + app.noticeVersion : '') + ')'));
      });
      var wanted = ctx.params.app;
      if (wanted && answer.apps.some(function (a) { return a.appId === wanted; })) appSelect.value = wanted;
      appSelect.addEventListener('change', function () { K.setParams({ app: appSelect.value }); open(appSelect.value, null); });
      return open(appSelect.value, ctx.params.version ? parseInt(ctx.params.version, 10) : null);
    });

    /** Shows `appId`'s versions and the editor of version `number` (the newest draft, else the published one). */
    function open(appId, number) {
      return api('GET', '/v1/console/notices?appId=' + encodeURIComponent(appId)).then(function (list) {
        body.textContent = '';
        var chosen = list.versions.filter(function (v) { return v.version === number; })[0]
          || list.versions.filter(function (v) { return v.state === 'draft'; })[0]
          || list.versions[0] || null;
        body.appendChild(versionsSection(list, chosen));
        body.appendChild(editor(list, chosen));
      }, function (error) {
        body.textContent = '';
        body.appendChild(K.errorBox(error));
      });
    }

    function versionsSection(list, chosen) {
      var section = el('section', { 'aria-labelledby': 'notice-versions-title' },
        el('h2', { id: 'notice-versions-title' }, 'Versions'),
        el('p', null, list.noticeVersion
          ? 'Users are shown version ' + list.publishedVersion + ' (notice version ' + list.noticeVersion +
            '); decisions made under a notice version below ' + list.materialNoticeVersion + ' are asked again.'
          : 'Nothing is published yet: users are shown the notice as configured (notice version 0).'));
      var columns = [
        { key: 'version', label: 'Version' },
        { key: 'state', label: 'State', format: function (state) { return state === 'draft' ? 'Draft' : 'Published'; } },
        { key: 'noticeVersion', label: 'Notice version', format: function (v) { return v === null || v === undefined ? '—' : String(v); } },
        { key: 'reask', label: 'Asked users again', format: function (v) { return v === true ? 'Yes' : v === false ? 'No' : '—'; } },
        { key: 'updatedAt', label: 'Changed', format: function (v, row) { return when(row.publishedAt || v); } },
        { key: 'version', label: 'Open', format: function (v, row) {
          var current = chosen && chosen.version === v;
          return el('button', { type: 'button', class: 'button quiet', 'aria-current': current ? 'true' : null,
            onclick: function () { K.setParams({ app: list.appId, version: v }); open(list.appId, v); } },
          (row.state === 'draft' ? 'Edit' : 'View') + ' version ' + v);
        } }
      ];
      section.appendChild(K.table(columns, list.versions, { caption: 'Notice versions of ' + list.appId + ', newest first',
        empty: 'No version yet: create the first draft below.' }));
      return section;
    }

    function editor(list, version) {
      var options = copy(version ? version.options : list.baseline);
      var isDraft = !version || version.state === 'draft';
      var fields = {};
      var textLanguage = options.languages[0];
      var section = el('section', { 'aria-labelledby': 'notice-editor-title', class: 'notice-edit' });
      section.appendChild(el('h2', { id: 'notice-editor-title' }, version
        ? (isDraft ? 'Draft version ' + version.version : 'Version ' + version.version + ' (published, read-only)')
        : 'First draft (from the configured notice)'));
      var formStatus = el('div', { class: 'form-status' });
      var form = el('form', { class: 'notice-form', novalidate: true, onsubmit: function (e) { e.preventDefault(); } });

      function add(key, label, control, hint) {
        if (!isDraft) control.disabled = true;
        fields[key] = K.field(label, control, hint ? { hint: hint } : undefined);
        return fields[key];
      }

      // Texts.
      var texts = el('fieldset', null, el('legend', null, 'Texts'));
      texts.appendChild(add('publisherName', 'Publisher name', el('input', { type: 'text', value: options.publisherName, autocomplete: 'organization' })));
      texts.appendChild(add('privacyPolicyUrl', 'Privacy policy (https URL)', el('input', { type: 'url', value: options.privacyPolicyUrl })));
      var textLanguageSelect = el('select', null);
      texts.appendChild(K.field('Language of the texts below', textLanguageSelect));
      var textInputs = el('div', { class: 'text-inputs' });
      texts.appendChild(textInputs);
      function drawTexts() {
        textLanguageSelect.textContent = '';
        options.languages.forEach(function (l) { textLanguageSelect.appendChild(el('option', { value: l, selected: l === textLanguage }, l)); });
        textInputs.textContent = '';
        TEXTS.forEach(function (t) {
          var own = (options.texts[textLanguage] || {})[t[0]] || '';
          var input = el('input', { type: 'text', value: own, 'data-text': t[0] });
          textInputs.appendChild(add('texts.' + t[0], t[1], input, 'Empty: the notice\'s standard text in this language.'));
        });
      }
      textLanguageSelect.addEventListener('change', function () { read(); textLanguage = textLanguageSelect.value; drawTexts(); });
      form.appendChild(texts);

      // Layout.
      var layout = el('fieldset', null, el('legend', null, 'Layout'));
      layout.appendChild(add('layout', 'Where the notice sits', select(LAYOUTS, options.layout)));
      layout.appendChild(add('firstLayer', 'First layer names', select([['stacks', 'Stacks of purposes'], ['purposes', 'Every purpose']], options.firstLayer)));
      var adFree = el('input', { type: 'checkbox', checked: options.offersAdFree });
      if (!isDraft) adFree.disabled = true;
      fields.offersAdFree = K.field('Offer the ad-free version on the first layer', adFree);
      layout.appendChild(fields.offersAdFree);
      form.appendChild(layout);

      // Brand.
      var brand = el('fieldset', null, el('legend', null, 'Brand'));
      brand.appendChild(add('logo', 'Logo (https URL or data: image)', el('input', { type: 'text', value: options.logo || '' }), 'Empty: no logo.'));
      brand.appendChild(add('theme.fontFamily', 'Font stack', el('input', { type: 'text', value: options.theme.fontFamily || '' }),
        'Family names separated by commas, ending in a generic family such as sans-serif; empty: the system font.'));
      brand.appendChild(add('theme.cornerRadius', 'Corner radius (0–32 px)',
        el('input', { type: 'number', min: '0', max: '32', step: '1', value: String(options.theme.cornerRadius) })));
      brand.appendChild(add('theme.buttonStyle', 'Button style', select([['filled', 'Filled'], ['outlined', 'Outlined']], options.theme.buttonStyle)));
      ['light', 'dark'].forEach(function (appearance) {
        var set = el('fieldset', { class: 'colours' }, el('legend', null, appearance === 'light' ? 'Colours in light mode' : 'Colours in dark mode'));
        COLOURS.forEach(function (c) {
          set.appendChild(add('theme.' + appearance + '.' + c[0], c[1], el('input', { type: 'color', value: options.theme[appearance][c[0]] })));
        });
        brand.appendChild(set);
      });
      form.appendChild(brand);

      // Languages.
      var languages = el('fieldset', null, el('legend', null, 'Languages'));
      languages.appendChild(add('languages', 'Languages offered (the first is the default)',
        el('input', { type: 'text', value: options.languages.join(', '), spellcheck: 'false' }),
        'ISO 639-1 codes separated by commas, such as en, de, fr. The notice has texts for: ' + list.languages.join(', ') + '.'));
      form.appendChild(languages);
      drawTexts();

      // Actions.
      var actions = el('div', { class: 'actions' });
      var confirmBox = el('div', { class: 'confirm', hidden: true });
      if (isDraft) {
        actions.appendChild(el('button', { type: 'button', class: 'button primary', onclick: save }, version ? 'Save draft' : 'Create draft'));
        if (version) actions.appendChild(el('button', { type: 'button', class: 'button', onclick: askPublish }, 'Publish version ' + version.version + '…'));
      } else {
        actions.appendChild(el('button', { type: 'button', class: 'button primary', onclick: newDraft }, 'New draft from version ' + version.version));
      }
      form.appendChild(actions);
      form.appendChild(confirmBox);
      section.appendChild(formStatus);
      section.appendChild(form);

      // Preview.
      var previewLanguage = el('select', null);
      var previewMode = select(MODES, 'tcf');
      var frame = el('iframe', { title: 'Preview of the notice', class: 'notice-preview', src: 'about:blank' });
      var previewStatus = el('p', { class: 'muted preview-status', id: K.uid('preview-status') });
      var preview = el('section', { 'aria-labelledby': 'notice-preview-title', class: 'notice-preview-section' },
        el('h2', { id: 'notice-preview-title' }, 'Preview'),
        el('div', { class: 'preview-controls' }, K.field('Preview language', previewLanguage), K.field('Mode', previewMode)),
        previewStatus, frame);
      function drawPreviewLanguages() {
        var kept = previewLanguage.value;
        previewLanguage.textContent = '';
        options.languages.forEach(function (l) { previewLanguage.appendChild(el('option', { value: l, selected: l === kept }, l)); });
      }
      drawPreviewLanguages();
      previewLanguage.addEventListener('change', schedule);
      previewMode.addEventListener('change', schedule);

      var wrapper = el('div', { class: 'notice-workspace' }, section, preview);

      /** The form's values into `options`. */
      function read() {
        options.publisherName = fields.publisherName.control.value;
        options.privacyPolicyUrl = fields.privacyPolicyUrl.control.value.trim();
        var own = {};
        TEXTS.forEach(function (t) {
          var value = fields['texts.' + t[0]].control.value;
          if (value !== '') own[t[0]] = value;
        });
        if (Object.keys(own).length) options.texts[textLanguage] = own; else delete options.texts[textLanguage];
        options.layout = fields.layout.control.value;
        options.firstLayer = fields.firstLayer.control.value;
        options.offersAdFree = adFree.checked;
        options.logo = fields.logo.control.value.trim() || null;
        options.theme.fontFamily = fields['theme.fontFamily'].control.value.trim() || null;
        var radius = Number(fields['theme.cornerRadius'].control.value);
        options.theme.cornerRadius = isFinite(radius) ? Math.round(radius) : 0;
        options.theme.buttonStyle = fields['theme.buttonStyle'].control.value;
        ['light', 'dark'].forEach(function (appearance) {
          COLOURS.forEach(function (c) { options.theme[appearance][c[0]] = fields['theme.' + appearance + '.' + c[0]].control.value; });
        });
        var named = fields.languages.control.value.split(',').map(function (l) { return l.trim().toLowerCase(); }).filter(Boolean);
        options.languages = named.length ? named : options.languages;
        Object.keys(options.texts).forEach(function (l) { if (options.languages.indexOf(l) < 0) delete options.texts[l]; });
        if (options.languages.indexOf(textLanguage) < 0) { textLanguage = options.languages[0]; drawTexts(); }
        drawPreviewLanguages();
        return options;
      }

      /** Clears every field's error, then shows `error` next to its field, or above the form. */
      function showError(error) {
        Object.keys(fields).forEach(function (key) { fields[key].setError(''); });
        formStatus.textContent = '';
        if (!error) return null;
        var key = (error.field || '').replace(/^options\./, '');
        var text = key.indexOf('texts.') === 0 ? key.replace(/^texts\.[a-z]+\./, 'texts.') : key.replace(/\[\d+\]$/, '');
        var target = fields[text];
        if (key.indexOf('texts.') === 0 && key.split('.')[1] !== textLanguage) target = null;
        if (target) {
          target.setError(error.message);
          return target;
        }
        formStatus.appendChild(K.errorBox(error));
        return null;
      }

      var timer = null;
      var previewCount = 0;
      function schedule() {
        if (timer) clearTimeout(timer);
        timer = setTimeout(showPreview, DEBOUNCE_MS);
      }
      /** Asks consentd for the document of the form as it is and shows it in the real notice page. */
      function showPreview() {
        timer = null;
        read();
        var count = ++previewCount;
        previewStatus.textContent = 'Updating the preview…';
        return api('POST', '/v1/console/notices/preview', {
          appId: list.appId, options: options, language: previewLanguage.value || options.languages[0], mode: previewMode.value
        }).then(function (documentJSON) {
          if (count !== previewCount) return;
          if (isDraft) showError(null);
          function configure() {
            try {
              var shown = frame.contentWindow.ConsentKitNotice.configure(JSON.stringify(documentJSON));
              previewStatus.textContent = shown === false ? 'The notice page refused the document.'
                : 'The preview shows the form as it is (' + previewLanguage.value + ', ' + previewMode.options[previewMode.selectedIndex].text + ').';
              frame.setAttribute('data-preview', String(count));
            } catch (e) {
              previewStatus.textContent = 'The notice page could not be shown: ' + e.message;
            }
          }
          // The real notice page, loaded once; each new document replaces the one it shows.
          var loaded = frame.contentWindow && frame.contentWindow.ConsentKitNotice && /\/notice\/notice\.html$/.test(frame.contentWindow.location.pathname);
          if (loaded) { configure(); return; }
          frame.onload = function () { frame.onload = null; configure(); };
          frame.src = '/notice/notice.html';
        }, function (error) {
          if (count !== previewCount) return;
          var target = showError(error);
          previewStatus.textContent = 'The preview keeps the last notice that could be built: ' + error.message;
          if (!target) K.announce('The preview could not be built: ' + error.message);
        });
      }
      if (isDraft) {
        form.addEventListener('input', schedule);
        form.addEventListener('change', schedule);
      }

      function save() {
        read();
        var request = version
          ? api('PUT', '/v1/console/notices/' + encodeURIComponent(list.appId) + '/' + version.version, { options: options })
          : api('POST', '/v1/console/notices', { appId: list.appId, options: options });
        return request.then(function (saved) {
          showError(null);
          K.announce('Draft version ' + saved.version + ' saved.');
          K.setParams({ app: list.appId, version: saved.version });
          return open(list.appId, saved.version).then(function () { focusStatus('Draft version ' + saved.version + ' saved.'); });
        }, function (error) {
          var target = showError(error);
          if (target) target.control.focus(); else K.announce(error.message);
        });
      }

      function newDraft() {
        return api('POST', '/v1/console/notices', { appId: list.appId, from: version.version }).then(function (draft) {
          K.setParams({ app: list.appId, version: draft.version });
          return open(list.appId, draft.version).then(function () { focusStatus('Draft version ' + draft.version + ' created from version ' + version.version + '.'); });
        }, function (error) { showError(error); K.announce(error.message); });
      }

      function askPublish() {
        confirmBox.textContent = '';
        var reask = el('input', { type: 'checkbox' });
        var heading = el('h3', { tabindex: '-1' }, 'Publish version ' + version.version + '?');
        confirmBox.appendChild(heading);
        confirmBox.appendChild(el('p', null, 'Unsaved changes are saved first. Users are shown this version at once. A changed publisher name, ' +
          'privacy policy, text or ad-free offer asks every user again; colours, logo, layout and languages do not.'));
        confirmBox.appendChild(K.field('Ask every user again even if nothing material changed', reask));
        confirmBox.appendChild(el('div', { class: 'actions' },
          el('button', { type: 'button', class: 'button primary', onclick: function () { publish(reask.checked); } }, 'Publish version ' + version.version),
          el('button', { type: 'button', class: 'button quiet', onclick: function () { confirmBox.hidden = true; confirmBox.textContent = ''; } }, 'Cancel')));
        confirmBox.hidden = false;
        heading.focus();
      }

      function publish(reask) {
        read();
        var path = '/v1/console/notices/' + encodeURIComponent(list.appId) + '/' + version.version;
        return api('PUT', path, { options: options }).then(function () {
          return api('POST', path + '/publish', { reask: reask });
        }).then(function (published) {
          var said = 'Version ' + published.version + ' is published as notice version ' + published.noticeVersion +
            (published.reask ? '; users who decided before are asked again.' : '; decisions made before still hold.');
          return open(list.appId, published.version).then(function () { focusStatus(said); });
        }, function (error) {
          confirmBox.hidden = true;
          var target = showError(error);
          if (target) target.control.focus(); else K.announce(error.message);
        });
      }

      /** After the editor is drawn again: `text` in the live region and in the form's status. */
      function focusStatus(text) {
        K.announce(text);
        var status = body.querySelector('.form-status');
        if (status) {
          status.appendChild(el('p', { class: 'success', tabindex: '-1' }, text));
          status.lastChild.focus();
        }
      }

      showPreview();
      return wrapper;
    }
  }

  K.registerPage({ id: 'notice', title: 'Notice', roles: ['editor'], render: render });
})();
