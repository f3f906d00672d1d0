/* ConsentKit console: API keys (editor, owner), over /v1/console/keys (decision record 0041).
 * Create a key (its full text shown once, with a copy button), list them (never a secret: kind,
 * app, label, created, last used), revoke one after a confirmation. */
(function () {
  'use strict';

  var K = window.ConsoleKit;
  var el = K.el;

  /** `2026-11-27T12:51:14.123Z` as `2026-11-27 12:51 UTC`. */
  function when(iso) {
    var m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso || '');
    return m ? el('time', { datetime: iso }, m[1] + ' ' + m[2] + ' UTC') : '—';
  }

  function labelled(id, label, control, hint) {
    control.id = id;
    var error = el('p', { class: 'field-error', id: id + '-error', hidden: true });
    var wrapper = el('div', { class: 'field' }, el('label', { for: id }, label),
      hint ? el('p', { class: 'hint', id: id + '-hint' }, hint) : null, control, error);
    if (hint) control.setAttribute('aria-describedby', id + '-hint');
    wrapper.setError = function (text) {
      error.textContent = text || '';
      error.hidden = !text;
      var ids = [hint ? id + '-hint' : null, text ? id + '-error' : null].filter(Boolean).join(' ');
      if (ids) control.setAttribute('aria-describedby', ids); else control.removeAttribute('aria-describedby');
      if (text) control.setAttribute('aria-invalid', 'true'); else control.removeAttribute('aria-invalid');
    };
    return wrapper;
  }

  function render(main, ctx) {
    main.appendChild(el('h1', null, 'API keys'));
    main.appendChild(el('p', { class: 'lead' },
      'Publishable keys ship inside apps and websites; secret keys stay on your backend. ' +
      'A key\u2019s secret is shown once, when it is created.'));

    // The form ------------------------------------------------------------------------------
    var appList = el('datalist', { id: 'keys-apps' });
    var app = el('input', { type: 'text', name: 'appId', list: 'keys-apps', autocomplete: 'off', spellcheck: 'false' });
    var kind = el('select', { name: 'kind' },
      el('option', { value: 'publishable' }, 'Publishable (in apps and web pages)'),
      el('option', { value: 'secret' }, 'Secret (backends only)'));
    var label = el('input', { type: 'text', name: 'label', maxlength: '200', autocomplete: 'off' });
    var fields = {
      appId: labelled('keys-app', 'App id', app, 'The app or website the key belongs to, e.g. com.example.news.'),
      kind: labelled('keys-kind', 'Kind', kind),
      label: labelled('keys-label', 'Label', label, 'A note for people, e.g. \u201ciOS app\u201d or \u201cCRM backend\u201d.')
    };
    var formStatus = el('div');
    var create = el('button', { type: 'submit', class: 'button primary' }, 'Create key');
    var form = el('form', { class: 'card', novalidate: true, 'aria-labelledby': 'keys-new-h' },
      el('h2', { id: 'keys-new-h' }, 'New key'), fields.appId, appList, fields.kind, fields.label, formStatus,
      el('div', { class: 'actions' }, create));
    var shown = el('div', { id: 'keys-created' });
    var listSection = el('section', { 'aria-labelledby': 'keys-list-h' });
    main.appendChild(form);
    main.appendChild(shown);
    main.appendChild(listSection);

    function showSecret(created) {
      shown.textContent = '';
      var secret = el('input', { type: 'text', id: 'keys-secret', readonly: true, value: created.secret, spellcheck: 'false',
        'aria-describedby': 'keys-secret-hint' });
      var copy = el('button', { type: 'button', class: 'button primary', id: 'keys-copy' }, 'Copy key');
      var copied = el('p', { class: 'muted', id: 'keys-copied' });
      copy.addEventListener('click', function () {
        secret.select();
        var done = function () { copied.textContent = 'Copied.'; K.announce('Key copied to the clipboard.'); };
        if (navigator.clipboard && navigator.clipboard.writeText) {
          navigator.clipboard.writeText(created.secret).then(done, function () {
            copied.textContent = 'Copying was refused: the key is selected, copy it with the keyboard.';
          });
        } else {
          copied.textContent = 'The key is selected: copy it with the keyboard.';
        }
      });
      var hide = el('button', { type: 'button', class: 'button quiet' }, 'I have stored it');
      hide.addEventListener('click', function () { shown.textContent = ''; app.focus(); });
      shown.appendChild(el('div', { class: 'card', role: 'region', 'aria-labelledby': 'keys-secret-h' },
        el('h2', { id: 'keys-secret-h', tabindex: '-1' }, 'Key ' + created.key.keyId + ' created'),
        el('div', { class: 'field' }, el('label', { for: 'keys-secret' }, 'The key (shown only now)'),
          el('p', { class: 'hint', id: 'keys-secret-hint' }, 'Store it now: consentd keeps only a hash of its secret and cannot show it again.'),
          secret),
        el('div', { class: 'actions' }, copy, hide), copied));
      shown.querySelector('h2').focus();
    }

    form.addEventListener('submit', function (event) {
      event.preventDefault();
      Object.keys(fields).forEach(function (k) { fields[k].setError(''); });
      formStatus.textContent = '';
      var body = { appId: app.value.trim(), kind: kind.value, label: label.value };
      create.disabled = true;
      ctx.api('POST', '/v1/console/keys', body).then(function (created) {
        create.disabled = false;
        label.value = '';
        K.announce('Key ' + created.key.keyId + ' created. Copy it now: it is shown only once.');
        showSecret(created);
        return loadList();
      }, function (error) {
        create.disabled = false;
        var target = fields[error.field];
        if (target) {
          target.setError(error.message);
          target.querySelector('input, select').focus();
        } else {
          formStatus.appendChild(el('div', { class: 'alert', role: 'alert' }, el('p', null, error.message)));
        }
        K.announce('Not created: ' + error.message);
      });
    });

    // The list ------------------------------------------------------------------------------
    function revokeControl(key) {
      var holder = el('span', { class: 'actions' });
      var ask = el('button', { type: 'button', class: 'button quiet', 'aria-label': 'Revoke key ' + key.keyId }, 'Revoke');
      holder.appendChild(ask);
      ask.addEventListener('click', function () {
        var yes = el('button', { type: 'button', class: 'button' }, 'Revoke ' + key.keyId + ' now');
        var no = el('button', { type: 'button', class: 'button quiet' }, 'Keep it');
        holder.textContent = '';
        holder.appendChild(el('span', { class: 'muted' }, 'Apps using it stop working. '));
        holder.appendChild(yes);
        holder.appendChild(no);
        no.addEventListener('click', function () { holder.textContent = ''; holder.appendChild(ask); ask.focus(); });
        yes.addEventListener('click', function () {
          yes.disabled = true;
          ctx.api('DELETE', '/v1/console/keys/' + encodeURIComponent(key.keyId)).then(function () {
            K.announce('Key ' + key.keyId + ' revoked.');
            return loadList().then(function () { var h = document.getElementById('keys-list-h'); h.setAttribute('tabindex', '-1'); h.focus(); });
          }, function (error) {
            yes.disabled = false;
            holder.appendChild(el('span', { class: 'field-error', role: 'alert' }, error.message));
          });
        });
        yes.focus();
      });
      return holder;
    }

    function loadList() {
      return Promise.all([ctx.api('GET', '/v1/console/keys'), ctx.api('GET', '/v1/console/config')]).then(function (answers) {
        var keys = answers[0].keys;
        var config = answers[1];
        appList.textContent = '';
        var ids = {};
        config.apps.forEach(function (a) { ids[a.appId] = true; });
        config.websites.forEach(function (w) { ids[w.appId] = true; });
        Object.keys(ids).sort().forEach(function (id) { appList.appendChild(el('option', { value: id })); });
        listSection.textContent = '';
        listSection.appendChild(el('h2', { id: 'keys-list-h' }, 'Keys'));
        listSection.appendChild(K.table([
          { key: 'keyId', label: 'Key id', format: function (v) { return el('code', null, v); } },
          { key: 'appId', label: 'App id' },
          { key: 'kind', label: 'Kind' },
          { key: 'label', label: 'Label', format: function (v) { return v || '—'; } },
          { key: 'createdAt', label: 'Created', format: when },
          { key: 'lastUsedAt', label: 'Last used', format: when },
          { key: 'revokedAt', label: 'State', format: function (v) { return v ? el('span', null, 'Revoked ', when(v)) : 'Active'; } },
          { key: 'keyId', label: 'Actions', format: function (v, row) { return row.revokedAt ? '—' : revokeControl(row); } }
        ], keys, { caption: 'API keys, oldest first (secrets are never shown here)', empty: 'No key yet.' }));
      });
    }

    return loadList();
  }

  K.registerPage({ id: 'keys', title: 'API keys', roles: ['editor'], render: render });
})();
