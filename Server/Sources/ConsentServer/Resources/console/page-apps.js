/* ConsentKit console: apps and websites (editor, owner), over /v1/console/apps, /websites and
 * /publishers (decision record 0041). An app is an app id and the publishers its keys read; a
 * website is a site whose notice consentd serves. A change applies at once: /v1/config answers it
 * with a new ETag, no restart. Errors come from the same reader as publishers.yaml and name the
 * field, which is shown next to its control. A website's notice settings are kept as they are
 * (the notice editor changes them). */
(function () {
  'use strict';

  var K = window.ConsoleKit;
  var el = K.el;
  var count = 0;

  /** A labelled control with a hint and an error slot tied to it by aria-describedby. */
  function field(label, control, hint) {
    count += 1;
    if (!control.id) control.id = 'cfg-field-' + count;
    var hintId = hint ? control.id + '-hint' : null;
    var errorId = control.id + '-error';
    var error = el('p', { class: 'field-error', id: errorId, hidden: true });
    var wrapper = el('div', { class: 'field' }, el('label', { for: control.id }, label),
      hint ? el('p', { class: 'hint', id: hintId }, hint) : null, control, error);
    if (hintId) control.setAttribute('aria-describedby', hintId);
    wrapper.setError = function (text) {
      error.textContent = text || '';
      error.hidden = !text;
      var ids = [hintId, text ? errorId : null].filter(Boolean).join(' ');
      if (ids) control.setAttribute('aria-describedby', ids); else control.removeAttribute('aria-describedby');
      if (text) control.setAttribute('aria-invalid', 'true'); else control.removeAttribute('aria-invalid');
    };
    return wrapper;
  }

  /** A group of checkboxes, one per publisher, in a fieldset whose legend names it. */
  function publisherChoice(legend, publishers, chosen) {
    count += 1;
    var errorId = 'cfg-publishers-' + count + '-error';
    var error = el('p', { class: 'field-error', id: errorId, hidden: true });
    var boxes = publishers.map(function (p) {
      count += 1;
      var id = 'cfg-pub-' + count;
      var box = el('input', { type: 'checkbox', id: id, value: p.id, checked: chosen.indexOf(p.id) >= 0 });
      return { box: box, row: el('div', { class: 'check' }, box, ' ', el('label', { for: id }, p.name + ' (' + p.id + ')')) };
    });
    var set = el('fieldset', { class: 'field' }, el('legend', null, legend), boxes.map(function (b) { return b.row; }), error);
    set.values = function () { return boxes.filter(function (b) { return b.box.checked; }).map(function (b) { return b.box.value; }); };
    set.setError = function (text) {
      error.textContent = text || '';
      error.hidden = !text;
      boxes.forEach(function (b) {
        if (text) { b.box.setAttribute('aria-describedby', errorId); b.box.setAttribute('aria-invalid', 'true'); }
        else { b.box.removeAttribute('aria-describedby'); b.box.removeAttribute('aria-invalid'); }
      });
    };
    set.focusFirst = function () { if (boxes[0]) boxes[0].box.focus(); };
    return set;
  }

  /** Shows an API error next to the field it names (`publisherIds[0]` → the publishers), else in `box`. */
  function showError(error, fields, box) {
    var name = (error.field || '').replace(/\[.*$/, '').split('.')[0];
    var target = fields[name];
    box.textContent = '';
    if (target) {
      target.setError(error.message);
      if (target.focusFirst) target.focusFirst(); else target.querySelector('input, select, textarea').focus();
    } else {
      box.appendChild(el('div', { class: 'alert', role: 'alert' }, el('p', null, error.message),
        error.code ? el('p', { class: 'alert-code' }, 'Code: ' + error.code) : null));
    }
    K.announce('Not saved: ' + error.message);
  }

  /** An inline confirmation: the button asks again before `action` runs. */
  function confirmButton(label, question, action) {
    var holder = el('span', { class: 'actions' });
    var first = el('button', { type: 'button', class: 'button quiet' }, label);
    holder.appendChild(first);
    first.addEventListener('click', function () {
      var yes = el('button', { type: 'button', class: 'button' }, question);
      var no = el('button', { type: 'button', class: 'button quiet' }, 'Cancel');
      holder.textContent = '';
      holder.appendChild(yes);
      holder.appendChild(no);
      no.addEventListener('click', function () { holder.textContent = ''; holder.appendChild(first); first.focus(); });
      yes.addEventListener('click', function () { yes.disabled = true; action(); });
      yes.focus();
    });
    return holder;
  }

  function render(main, ctx) {
    main.appendChild(el('h1', null, 'Apps and websites'));
    main.appendChild(el('p', { class: 'lead' },
      'The apps whose keys read your publishers, and the websites whose consent notice consentd serves. ' +
      'A change applies at once: apps get it from /v1/config, no restart.'));
    var appsSection = el('section', { 'aria-labelledby': 'cfg-apps-h' });
    var sitesSection = el('section', { 'aria-labelledby': 'cfg-sites-h' });
    main.appendChild(appsSection);
    main.appendChild(sitesSection);
    var state = { publishers: [], apps: [], websites: [], tags: {} };

    function load() {
      return ctx.api('GET', '/v1/console/config').then(function (config) {
        state.publishers = config.publishers;
        state.apps = config.apps;
        state.websites = config.websites;
        drawApps();
        drawSites();
      });
    }

    function publisherNames(ids) {
      return ids.map(function (id) {
        var p = state.publishers.filter(function (x) { return x.id === id; })[0];
        return p ? p.name : id;
      }).join(', ');
    }

    // Apps ---------------------------------------------------------------------------------
    function drawApps(focusId) {
      appsSection.textContent = '';
      appsSection.appendChild(el('h2', { id: 'cfg-apps-h' }, 'Apps'));
      appsSection.appendChild(K.table([
        { key: 'appId', label: 'App id', format: function (v) { return el('code', null, v); } },
        { key: 'publisherIds', label: 'Publishers it reads', format: function (v) { return publisherNames(v); } },
        { key: 'appId', label: 'Actions', format: function (v, row) {
          var edit = el('button', { type: 'button', class: 'button quiet', 'aria-label': 'Edit app ' + v }, 'Edit');
          edit.addEventListener('click', function () { appForm(row); });
          return el('span', { class: 'actions' }, edit, confirmButton('Delete', 'Delete app ' + v, function () {
            ctx.api('DELETE', '/v1/console/apps/' + encodeURIComponent(v)).then(function () {
              K.announce('App ' + v + ' deleted.');
              return load();
            }, function (error) { showError(error, {}, appsStatus); });
          }));
        } }
      ], state.apps, { caption: 'Apps and the publishers they read', empty: 'No app yet.' }));
      var add = el('button', { type: 'button', class: 'button primary', id: 'cfg-add-app' }, 'Add an app');
      add.addEventListener('click', function () { appForm(null); });
      var appsStatus = el('div', { id: 'cfg-apps-status' });
      appsSection.appendChild(el('div', { class: 'actions' }, add));
      appsSection.appendChild(appsStatus);
      if (focusId) { var f = document.getElementById(focusId); if (f) f.focus(); }
    }

    function appForm(app) {
      var old = document.getElementById('cfg-app-form');
      if (old) old.remove();
      var appId = el('input', { type: 'text', name: 'appId', autocomplete: 'off', spellcheck: 'false', value: app ? app.appId : '', readonly: !!app });
      var fields = {
        appId: field('App id', appId, 'The bundle id or package name its keys are created for, e.g. com.example.news.'),
        publisherIds: publisherChoice('Publishers it reads', state.publishers, app ? app.publisherIds : [])
      };
      var status = el('div');
      var save = el('button', { type: 'submit', class: 'button primary' }, app ? 'Save app' : 'Create app');
      var cancel = el('button', { type: 'button', class: 'button quiet' }, 'Cancel');
      var form = el('form', { id: 'cfg-app-form', class: 'card', novalidate: true, 'aria-labelledby': 'cfg-app-form-h' },
        el('h3', { id: 'cfg-app-form-h' }, app ? 'Edit app ' + app.appId : 'New app'),
        fields.appId, fields.publisherIds, status, el('div', { class: 'actions' }, save, cancel));
      cancel.addEventListener('click', function () { form.remove(); document.getElementById('cfg-add-app').focus(); });
      form.addEventListener('submit', function (event) {
        event.preventDefault();
        Object.keys(fields).forEach(function (k) { fields[k].setError(''); });
        var body = { appId: appId.value.trim(), publisherIds: fields.publisherIds.values() };
        save.disabled = true;
        var call = app
          ? ctx.api('PUT', '/v1/console/apps/' + encodeURIComponent(app.appId), body)
          : ctx.api('POST', '/v1/console/apps', body);
        call.then(function (saved) {
          K.announce('App ' + saved.appId + (app ? ' saved.' : ' created.'));
          return load().then(function () { document.getElementById('cfg-add-app').focus(); });
        }, function (error) {
          save.disabled = false;
          showError(error, fields, status);
        });
      });
      appsSection.appendChild(form);
      (app ? fields.publisherIds.focusFirst() : appId.focus());
    }

    // Websites -----------------------------------------------------------------------------
    function drawSites() {
      sitesSection.textContent = '';
      sitesSection.appendChild(el('h2', { id: 'cfg-sites-h' }, 'Websites'));
      sitesSection.appendChild(K.table([
        { key: 'appId', label: 'App id', format: function (v) { return el('code', null, v); } },
        { key: 'name', label: 'Name' },
        { key: 'privacyPolicyUrl', label: 'Privacy policy' },
        { key: 'publisherIds', label: 'Publishers', format: function (v) { return publisherNames(v); } },
        { key: 'appId', label: 'Actions', format: function (v, row) {
          var edit = el('button', { type: 'button', class: 'button quiet', 'aria-label': 'Edit website ' + v }, 'Edit');
          edit.addEventListener('click', function () { siteForm(row); });
          return el('span', { class: 'actions' }, edit, confirmButton('Delete', 'Delete website ' + v, function () {
            ctx.api('DELETE', '/v1/console/websites/' + encodeURIComponent(v)).then(function () {
              K.announce('Website ' + v + ' deleted.');
              return load();
            }, function (error) { showError(error, {}, sitesStatus); });
          }));
        } }
      ], state.websites, { caption: 'Websites whose notice consentd serves', empty: 'No website yet.' }));
      var add = el('button', { type: 'button', class: 'button primary', id: 'cfg-add-site' }, 'Add a website');
      add.addEventListener('click', function () { siteForm(null); });
      var sitesStatus = el('div');
      sitesSection.appendChild(el('div', { class: 'actions' }, add));
      sitesSection.appendChild(sitesStatus);
    }

    function siteForm(site) {
      var old = document.getElementById('cfg-site-form');
      if (old) old.remove();
      var appId = el('input', { type: 'text', name: 'appId', autocomplete: 'off', spellcheck: 'false', value: site ? site.appId : '', readonly: !!site });
      var name = el('input', { type: 'text', name: 'name', autocomplete: 'off', value: site ? site.name : '' });
      var policy = el('input', { type: 'url', name: 'privacyPolicyUrl', autocomplete: 'off', value: site ? site.privacyPolicyUrl : '' });
      var fields = {
        appId: field('App id', appId, 'The app id of the publishable key the site\u2019s pages send, e.g. example.com.'),
        name: field('Site name', name, 'Shown on the notice.'),
        privacyPolicyUrl: field('Privacy policy address', policy, 'An http(s) address, linked from the notice.'),
        publisherIds: publisherChoice('Publishers whose vendors the notice shows', state.publishers, site ? site.publisherIds : [])
      };
      var status = el('div');
      var save = el('button', { type: 'submit', class: 'button primary' }, site ? 'Save website' : 'Create website');
      var cancel = el('button', { type: 'button', class: 'button quiet' }, 'Cancel');
      var form = el('form', { id: 'cfg-site-form', class: 'card', novalidate: true, 'aria-labelledby': 'cfg-site-form-h' },
        el('h3', { id: 'cfg-site-form-h' }, site ? 'Edit website ' + site.appId : 'New website'),
        fields.appId, fields.name, fields.privacyPolicyUrl, fields.publisherIds, status, el('div', { class: 'actions' }, save, cancel));
      cancel.addEventListener('click', function () { form.remove(); document.getElementById('cfg-add-site').focus(); });
      form.addEventListener('submit', function (event) {
        event.preventDefault();
        Object.keys(fields).forEach(function (k) { fields[k].setError(''); });
        var body = { appId: appId.value.trim(), name: name.value.trim(), privacyPolicyUrl: policy.value.trim(),
          publisherIds: fields.publisherIds.values() };
        // The notice's settings and the US block are kept as they are.
        if (site && site.notice) body.notice = site.notice;
        if (site && site.us) body.us = site.us;
        if (!body.name) delete body.name;
        if (!body.privacyPolicyUrl) delete body.privacyPolicyUrl;
        save.disabled = true;
        var call = site
          ? ctx.api('PUT', '/v1/console/websites/' + encodeURIComponent(site.appId), body)
          : ctx.api('POST', '/v1/console/websites', body);
        call.then(function (saved) {
          K.announce('Website ' + saved.appId + (site ? ' saved.' : ' created.'));
          return load().then(function () { document.getElementById('cfg-add-site').focus(); });
        }, function (error) {
          save.disabled = false;
          showError(error, fields, status);
        });
      });
      sitesSection.appendChild(form);
      (site ? name : appId).focus();
    }

    return load();
  }

  K.registerPage({ id: 'apps', title: 'Apps and websites', roles: ['editor'], render: render });
})();
