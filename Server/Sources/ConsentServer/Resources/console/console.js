/* ConsentKit console: the shell (docs/console.md, "The pages"). Signs the operator in, shows the
 * pages its role may see in the navigation, routes `#/<page>?a=b` to a page's render function and
 * gives every page the same tools: `ConsoleKit.api`, `el`, `table`, `field`, `announce`.
 * Plain JavaScript, no framework, no build step, nothing from another origin: the page's policy
 * allows scripts and styles of its own origin only, so nothing here writes HTML from text. */
(function () {
  'use strict';

  /** @typedef {{ id: string, title: string, roles: string[], render: (main: HTMLElement, ctx: object) => Promise<void> | void }} ConsolePage */

  /** @type {ConsolePage[]} */
  var pages = [];
  var booted = false;
  var renderCount = 0;

  // ------------------------------------------------------------------------------------ DOM

  /**
   * Builds an element: `attrs` sets properties and attributes (`class`, `for`, `aria-*`,
   * `data-*`, `on<event>` for listeners, `hidden`/`disabled`/`checked` as booleans); children are
   * nodes or text (text nodes, never HTML); arrays are flattened, null and false skipped.
   * @param {string} tag
   * @param {Object<string, any>} [attrs]
   * @returns {any}
   */
  function el(tag, attrs) {
    var svg = tag.indexOf('svg:') === 0;
    var node = svg ? document.createElementNS('http://www.w3.org/2000/svg', tag.slice(4)) : document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (name) {
        var value = attrs[name];
        if (value === null || value === undefined || value === false) return;
        if (name.indexOf('on') === 0 && typeof value === 'function') {
          node.addEventListener(name.slice(2).toLowerCase(), value);
        } else if (name === 'class') {
          node.setAttribute('class', String(value));
        } else if (name === 'text') {
          node.textContent = String(value);
        } else if (!svg && (name === 'value' || name === 'checked' || name === 'selected')) {
          node[name] = value;
        } else {
          node.setAttribute(name, value === true ? '' : String(value));
        }
      });
    }
    append(node, Array.prototype.slice.call(arguments, 2));
    return node;
  }

  function append(node, children) {
    children.forEach(function (child) {
      if (child === null || child === undefined || child === false) return;
      if (Array.isArray(child)) { append(node, child); return; }
      node.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
    });
  }

  var idCount = 0;
  /** A new id for an element, unique in the page. */
  function uid(prefix) {
    idCount += 1;
    return (prefix || 'ck') + '-' + idCount;
  }

  /**
   * An accessible table: a caption, a header row of `th scope="col"`, and the first column's
   * cells as `th scope="row"` when `options.rowHeaders` is true. A column is text (its key and
   * label) or `{ key, label, numeric, format(value, row) }`; numeric columns align to the end
   * and are formatted with the operator's locale unless `format` says otherwise.
   * @param {Array<string | {key: string, label?: string, numeric?: boolean, format?: (value: any, row: any) => any}>} columns
   * @param {Array<Object<string, any>>} rows
   * @param {{caption?: string, rowHeaders?: boolean, empty?: string, className?: string}} [options]
   */
  function table(columns, rows, options) {
    options = options || {};
    var cols = columns.map(function (c) { return typeof c === 'string' ? { key: c, label: c } : c; });
    var head = el('tr', null, cols.map(function (c) {
      return el('th', { scope: 'col', class: c.numeric ? 'num' : null }, c.label || c.key);
    }));
    var body = rows.map(function (row) {
      return el('tr', null, cols.map(function (c, i) {
        var value = row[c.key];
        var shown = c.format ? c.format(value, row) : (c.numeric && typeof value === 'number' ? formatNumber(value) : value);
        var header = options.rowHeaders && i === 0;
        return el(header ? 'th' : 'td', { scope: header ? 'row' : null, class: c.numeric ? 'num' : null },
          shown === undefined || shown === null ? '' : shown);
      }));
    });
    if (!rows.length) {
      body = [el('tr', null, el('td', { colspan: String(cols.length), class: 'empty' }, options.empty || 'Nothing to show.'))];
    }
    var t = el('table', { class: 'data' + (options.className ? ' ' + options.className : '') },
      options.caption ? el('caption', null, options.caption) : null,
      el('thead', null, head), el('tbody', null, body));
    // A region of its own that scrolls sideways on a narrow screen: focusable, so the keyboard scrolls it.
    return el('div', { class: 'table-scroll', role: 'region', tabindex: '0', 'aria-label': options.caption || 'Table' }, t);
  }

  function formatNumber(n) {
    try { return new Intl.NumberFormat(document.documentElement.lang || 'en').format(n); } catch (e) { return String(n); }
  }

  /**
   * A labelled form control: `{ label, hint, control }` where `control` is an input, select or
   * textarea (it gets an id when it has none). Returns the wrapper; `field.setError(text)` shows
   * `text` next to the control (`aria-describedby`, `aria-invalid`), `setError('')` clears it.
   * @param {string} label
   * @param {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement} control
   * @param {{hint?: string}} [options]
   */
  function field(label, control, options) {
    options = options || {};
    if (!control.id) control.id = uid('field');
    var hintId = options.hint ? control.id + '-hint' : null;
    var errorId = control.id + '-error';
    var error = el('p', { class: 'field-error', id: errorId, hidden: true });
    var wrapper = el('div', { class: 'field' },
      el('label', { for: control.id }, label),
      options.hint ? el('p', { class: 'hint', id: hintId }, options.hint) : null,
      control, error);
    function describe(withError) {
      var ids = [hintId, withError ? errorId : null].filter(Boolean).join(' ');
      if (ids) control.setAttribute('aria-describedby', ids); else control.removeAttribute('aria-describedby');
    }
    describe(false);
    wrapper.setError = function (text) {
      error.textContent = text || '';
      error.hidden = !text;
      if (text) control.setAttribute('aria-invalid', 'true'); else control.removeAttribute('aria-invalid');
      describe(!!text);
    };
    wrapper.control = control;
    return wrapper;
  }

  /** An error of `api` shown as a block (role="alert"): its message and its code. */
  function errorBox(error) {
    return el('div', { class: 'alert', role: 'alert' },
      el('p', null, error && error.message ? error.message : String(error)),
      error && error.code ? el('p', { class: 'alert-code' }, 'Code: ' + error.code + (error.status ? ' (HTTP ' + error.status + ')' : '')) : null);
  }

  var live;
  /** Says `text` in the polite live region (results, "saved", "signed out"). */
  function announce(text) {
    if (!live) return;
    live.textContent = '';
    // A change of text a moment later is announced even when the text is the same as before.
    setTimeout(function () { live.textContent = text; }, 30);
  }

  // ------------------------------------------------------------------------------------ API

  /**
   * Calls a consentd route of the console: `method`, `path` (`/v1/console/...`) and an optional
   * JSON body. Resolves to the parsed JSON answer (text for a CSV answer, null for 204); sends the
   * CSRF token on POST, PUT, PATCH and DELETE. A non-2xx answer rejects with an Error whose
   * `status`, `code`, `message`, `field` and `retryAfter` come from consentd's APIError body; a
   * 401 (the session ended) also shows the sign-in form.
   * @param {string} method
   * @param {string} path
   * @param {any} [body]
   * @returns {Promise<any>}
   */
  function api(method, path, body) {
    method = method.toUpperCase();
    var headers = { Accept: /[?&]format=csv(&|$)/.test(path) ? 'text/csv' : 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (['POST', 'PUT', 'PATCH', 'DELETE'].indexOf(method) >= 0 && ConsoleKit.me) headers['X-CSRF-Token'] = ConsoleKit.me.csrfToken;
    return fetch(path, {
      method: method, headers: headers, credentials: 'same-origin', cache: 'no-store',
      body: body === undefined ? undefined : JSON.stringify(body)
    }).then(function (response) {
      var type = response.headers.get('Content-Type') || '';
      var read = response.status === 204 ? Promise.resolve(null)
        : type.indexOf('json') >= 0 ? response.json().catch(function () { return null; }) : response.text();
      return read.then(function (answer) {
        if (response.ok) return answer;
        var detail = answer && answer.error ? answer.error : {};
        /** @type {any} */
        var error = new Error(detail.message || ('consentd answered HTTP ' + response.status));
        error.status = response.status;
        error.code = detail.code || 'http_' + response.status;
        error.field = detail.field || null;
        var retry = parseInt(response.headers.get('Retry-After') || '', 10);
        error.retryAfter = isNaN(retry) ? null : retry;
        if (response.status === 401 && path !== '/v1/console/session' && ConsoleKit.me) {
          ConsoleKit.me = null;
          showSignIn({ notice: 'Your session ended. Sign in again.' });
        }
        throw error;
      });
    });
  }

  // ------------------------------------------------------------------------------------ routing

  /** The page and parameters of the location's hash: `#/analytics?app=x` → ['analytics', {app: 'x'}]. */
  function parseHash() {
    var hash = location.hash.replace(/^#\/?/, '');
    var q = hash.indexOf('?');
    var id = q >= 0 ? hash.slice(0, q) : hash;
    var params = {};
    if (q >= 0) {
      new URLSearchParams(hash.slice(q + 1)).forEach(function (value, key) { params[key] = value; });
    }
    return { id: decodeURIComponent(id), params: params };
  }

  /** The hash of a page with parameters (empty values left out). */
  function href(id, params) {
    var query = new URLSearchParams();
    Object.keys(params || {}).forEach(function (key) {
      if (params[key] !== '' && params[key] !== null && params[key] !== undefined) query.set(key, params[key]);
    });
    var text = query.toString();
    return '#/' + id + (text ? '?' + text : '');
  }

  /** Goes to page `id` with `params` (a history entry; the hash change renders it). */
  function navigate(id, params) {
    var target = href(id, params);
    if (location.hash === target) route(); else location.hash = target;
  }

  /** Changes the current page's parameters in the address without rendering again. */
  function setParams(params) {
    var current = parseHash();
    history.replaceState(null, '', href(current.id, params));
  }

  function mayShow(page, role) {
    return role === 'owner' || page.roles.indexOf(role) >= 0;
  }

  function visiblePages() {
    var role = ConsoleKit.me && ConsoleKit.me.operator.role;
    return pages.filter(function (p) { return mayShow(p, role); });
  }

  function main() { return document.getElementById('main'); }

  function focusHeading(container) {
    var h1 = container.querySelector('h1');
    if (!h1) return;
    h1.setAttribute('tabindex', '-1');
    h1.focus();
  }

  function renderNav(currentId) {
    var list = document.getElementById('nav-list');
    list.textContent = '';
    visiblePages().forEach(function (page) {
      list.appendChild(el('li', null, el('a', {
        href: '#/' + page.id, 'aria-current': page.id === currentId ? 'page' : null
      }, page.title)));
    });
  }

  function route() {
    if (!booted) return;
    var wanted = parseHash();
    if (wanted.id.indexOf('token=') === 0) {
      var token = wanted.id.slice(6);
      // The token leaves the address at once (history, screenshots, a shared screen).
      history.replaceState(null, '', location.pathname);
      if (ConsoleKit.me) { ConsoleKit.me = null; }
      showSignIn({ token: token });
      return;
    }
    if (!ConsoleKit.me) { showSignIn({}); return; }
    var visible = visiblePages();
    var page = null;
    for (var i = 0; i < pages.length; i += 1) if (pages[i].id === wanted.id) page = pages[i];
    var container = main();
    var role = ConsoleKit.me.operator.role;
    document.body.setAttribute('data-state', 'signed-in');
    if (!wanted.id && visible.length) { page = visible[0]; history.replaceState(null, '', '#/' + page.id); }
    renderNav(page ? page.id : null);
    container.textContent = '';
    if (!page || !mayShow(page, role)) {
      var title = !wanted.id ? 'Welcome' : page ? 'Not for your role' : 'No such page';
      document.title = title + ' · ConsentKit console';
      container.appendChild(el('h1', null, title));
      container.appendChild(el('p', null, !wanted.id
        ? 'No page of the console is open to the role ' + role + ' yet.'
        : page ? 'The page ' + page.title + ' is not open to the role ' + role + '.'
          : 'There is no page ' + wanted.id + '.'));
      if (visible.length) container.appendChild(el('p', null, el('a', { href: '#/' + visible[0].id }, 'Go to ' + visible[0].title)));
      container.setAttribute('aria-busy', 'false');
      focusHeading(container);
      return;
    }
    document.title = page.title + ' · ConsentKit console';
    var ticket = ++renderCount;
    container.setAttribute('aria-busy', 'true');
    var ctx = { me: ConsoleKit.me, api: api, el: el, params: wanted.params, page: page };
    var done = function () {
      if (ticket !== renderCount) return;
      if (!container.querySelector('h1')) container.insertBefore(el('h1', null, page.title), container.firstChild);
      container.setAttribute('aria-busy', 'false');
      focusHeading(container);
    };
    Promise.resolve().then(function () { return page.render(container, ctx); }).then(done, function (error) {
      if (ticket !== renderCount) return;
      if (error && error.status === 401) return; // the sign-in form is shown
      container.appendChild(errorBox(error));
      done();
    });
  }

  // ------------------------------------------------------------------------------------ sign-in

  function showSignedOutChrome() {
    document.body.setAttribute('data-state', 'signed-out');
    document.getElementById('nav').hidden = true;
    document.getElementById('who').hidden = true;
    document.title = 'Sign in · ConsentKit console';
  }

  function showSignedInChrome() {
    var me = ConsoleKit.me;
    document.getElementById('who-email').textContent = me.operator.email;
    document.getElementById('who-role').textContent = me.operator.role;
    document.getElementById('nav').hidden = false;
    document.getElementById('who').hidden = false;
  }

  /**
   * The sign-in form in <main>: e-mail and password, or, with a one-time token (a link
   * `#/token=…` or the token consentd logged for the first owner), the token, the e-mail (the
   * first owner's) and a new password.
   */
  function showSignIn(options) {
    renderCount += 1;
    showSignedOutChrome();
    var container = main();
    container.textContent = '';
    container.setAttribute('aria-busy', 'false');
    var withToken = !!(options.token || options.tokenMode);

    var email = field('E-mail', el('input', { type: 'email', name: 'email', autocomplete: 'username', required: !withToken, spellcheck: 'false' }));
    var password = field(withToken ? 'New password' : 'Password',
      el('input', { type: 'password', name: 'password', required: true, minlength: withToken ? '12' : null,
        autocomplete: withToken ? 'new-password' : 'current-password' }),
      { hint: withToken ? 'At least 12 characters. You sign in with it from now on.' : null });
    var token = field('One-time token', el('input', { type: 'text', name: 'token', autocomplete: 'off', spellcheck: 'false',
      value: options.token || '' }), { hint: 'From a one-time link, or the token consentd logged at start for the first owner.' });
    if (withToken) email.control.removeAttribute('required');
    var emailHint = withToken ? el('p', { class: 'hint' }, 'The first owner enters an e-mail here; an operator whose link an owner made may leave it empty.') : null;
    var formError = el('div', { class: 'form-error', role: 'alert' });
    var submit = el('button', { type: 'submit', class: 'button primary' }, withToken ? 'Set password and sign in' : 'Sign in');
    var toggle = el('button', { type: 'button', class: 'button link' },
      withToken ? 'Sign in with e-mail and password instead' : 'I have a one-time token');
    toggle.addEventListener('click', function () { showSignIn({ tokenMode: !withToken }); });

    var form = el('form', { class: 'sign-in', novalidate: true },
      withToken ? token : null, email, emailHint, password, formError,
      el('div', { class: 'actions' }, submit), el('p', null, toggle));
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      [email, password, token].forEach(function (f) { f.setError(''); });
      formError.textContent = '';
      var body = { password: password.control.value };
      if (email.control.value.trim()) body.email = email.control.value.trim();
      if (withToken) body.token = token.control.value.trim();
      var missing = null;
      if (withToken && !body.token) { token.setError('Enter the one-time token.'); missing = missing || token; }
      if (!withToken && !body.email) { email.setError('Enter your e-mail.'); missing = missing || email; }
      if (!body.password) { password.setError('Enter your password.'); missing = missing || password; }
      if (missing) { missing.control.focus(); return; }
      submit.disabled = true;
      api('POST', '/v1/console/session', body).then(function (answer) {
        ConsoleKit.me = answer;
        announce('Signed in as ' + answer.operator.email + ', ' + answer.operator.role + '.');
        signedIn();
      }, function (error) {
        submit.disabled = false;
        var target = { email: email, password: password, token: token }[error.field || ''];
        var text = signInMessage(error);
        if (target) { target.setError(text); target.control.focus(); return; }
        formError.textContent = '';
        formError.appendChild(el('p', null, text));
        (withToken ? token : password).control.focus();
      });
    });

    container.appendChild(el('div', { class: 'sign-in-panel' },
      el('h1', null, withToken ? 'Sign in with a one-time token' : 'Sign in'),
      el('p', { class: 'lead' }, withToken
        ? 'Choose your password. The token works once.'
        : 'Sign in with the e-mail and password of your console operator.'),
      form));
    var first = withToken ? (token.control.value ? email.control : token.control) : email.control;
    first.focus();
  }

  /** The message for a failed sign-in, in the operator's words. */
  function signInMessage(error) {
    switch (error.code) {
      case 'sign_in_failed': return 'The e-mail or the password is wrong.';
      case 'locked_out': {
        var minutes = error.retryAfter ? Math.max(1, Math.ceil(error.retryAfter / 60)) : 15;
        return 'Too many failed sign-ins for this e-mail. Try again in ' + minutes + (minutes === 1 ? ' minute.' : ' minutes.');
      }
      case 'link_invalid': return 'This one-time token is unknown, used or expired. Ask an owner for a new one.';
      case 'rate_limited': return 'Too many requests from this address. Wait a moment and try again.';
      default: return error.message || 'Signing in failed.';
    }
  }

  function signedIn() {
    showSignedInChrome();
    var wanted = parseHash();
    if (wanted.id && wanted.id.indexOf('token=') !== 0) route(); else navigate(visiblePages().length ? visiblePages()[0].id : '', {});
  }

  function signOut() {
    var button = /** @type {HTMLButtonElement} */ (document.getElementById('sign-out'));
    button.disabled = true;
    api('DELETE', '/v1/console/session').then(function () {
      ConsoleKit.me = null;
      button.disabled = false;
      history.replaceState(null, '', location.pathname);
      showSignIn({});
      announce('Signed out.');
    }, function (error) {
      button.disabled = false;
      if (error.status === 401) return;
      announce('Signing out failed: ' + error.message);
    });
  }

  function boot() {
    live = document.getElementById('live');
    document.getElementById('sign-out').addEventListener('click', signOut);
    document.getElementById('skip').addEventListener('click', function (event) {
      event.preventDefault();
      var h1 = main().querySelector('h1');
      if (h1) focusHeading(main()); else main().focus();
    });
    window.addEventListener('hashchange', route);
    booted = true;
    if (parseHash().id.indexOf('token=') === 0) { route(); return; }
    api('GET', '/v1/console/me').then(function (me) {
      ConsoleKit.me = me;
      signedIn();
    }, function (error) {
      if (error.status === 401) { showSignIn({}); return; }
      showSignedOutChrome();
      main().textContent = '';
      main().appendChild(el('h1', null, 'The console cannot reach consentd'));
      main().appendChild(errorBox(error));
      main().setAttribute('aria-busy', 'false');
    });
  }

  // ------------------------------------------------------------------------------------ public

  var ConsoleKit = {
    /** `GET /v1/console/me`'s answer: `{ operator: {id, email, role}, csrfToken, expiresAt }`; null when signed out. */
    me: null,
    /**
     * Adds a page: `id` (the URL `#/<id>`), `title` (the navigation's label and the page's h1),
     * `roles` (besides owner, who sees every page) and `render(main, ctx)`.
     * @param {ConsolePage} page
     */
    registerPage: function (page) {
      if (!page || !/^[a-z][a-z0-9-]*$/.test(page.id) || typeof page.render !== 'function') {
        throw new Error('ConsoleKit.registerPage needs an id (lower case letters, digits, -) and a render function');
      }
      pages.push({ id: page.id, title: page.title || page.id, roles: page.roles || [], render: page.render });
      if (booted && ConsoleKit.me) route();
    },
    api: api,
    el: el,
    table: table,
    field: field,
    errorBox: errorBox,
    announce: announce,
    navigate: navigate,
    setParams: setParams,
    href: href,
    uid: uid,
    formatNumber: formatNumber
  };
  window.ConsoleKit = ConsoleKit;

  // Page scripts are deferred after this one: they register before the DOM is ready, and the
  // shell starts when it is.
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', boot); else boot();
})();
