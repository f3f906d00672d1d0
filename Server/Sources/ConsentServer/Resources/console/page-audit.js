/* ConsentKit console: the audit log (owner), over GET /v1/console/audit: newest first, 50 at a
 * time, "Show older entries" appends the next page. */
(function () {
  'use strict';

  var K = window.ConsoleKit;
  var el = K.el;
  var PAGE = 50;

  /** The actions' names as the log shows them; an action not listed here shows its code. */
  var ACTIONS = {
    sign_in: 'Signed in',
    sign_out: 'Signed out',
    sign_in_failed: 'Sign-in failed',
    locked_out: 'Locked out',
    operator_created: 'Operator created',
    operator_disabled: 'Operator disabled',
    one_time_link_used: 'One-time link used'
  };

  /** `2026-11-27T12:51:14.123Z` as `2026-11-27 12:51:14 UTC`. */
  function when(iso) {
    var m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(iso || '');
    return m ? m[1] + ' ' + m[2] + ' UTC' : iso;
  }

  function columns() {
    return [
      { key: 'at', label: 'When', format: function (value) { return el('time', { datetime: value }, when(value)); } },
      { key: 'action', label: 'Action', format: function (value) { return ACTIONS[value] || value; } },
      { key: 'target', label: 'Target', format: function (value) { return value || '—'; } },
      { key: 'operatorId', label: 'By operator', format: function (value) { return value ? el('code', null, value) : '—'; } },
      { key: 'address', label: 'From address', format: function (value) { return value || '—'; } }
    ];
  }

  function render(main, ctx) {
    main.appendChild(el('h1', null, 'Audit log'));
    main.appendChild(el('p', { class: 'lead' },
      'Every sign-in, sign-out, failed sign-in, lockout and change to operators, with who, when and from where. Newest first.'));
    var holder = el('div', { class: 'audit-table' });
    var more = el('button', { type: 'button', class: 'button', hidden: true }, 'Show older entries');
    var status = el('p', { class: 'muted', id: K.uid('audit-count') });
    main.appendChild(holder);
    main.appendChild(el('div', { class: 'actions' }, more, status));
    var entries = [];
    var next = null;

    function load() {
      var path = '/v1/console/audit?limit=' + PAGE + (next ? '&before=' + encodeURIComponent(next) : '');
      return ctx.api('GET', path).then(function (page) {
        var first = entries.length;
        entries = entries.concat(page.entries);
        next = page.next;
        holder.textContent = '';
        holder.appendChild(K.table(columns(), entries, { caption: 'Audit log entries, newest first', empty: 'The log is empty.' }));
        more.hidden = !next;
        status.textContent = entries.length + (entries.length === 1 ? ' entry shown' : ' entries shown') + (next ? '; older ones remain.' : '.');
        if (first > 0) {
          K.announce(page.entries.length + ' older entries shown.');
          // Focus goes to the first new row's first cell, where reading continues.
          var cell = holder.querySelectorAll('tbody tr')[first];
          if (cell) { cell.firstChild.setAttribute('tabindex', '-1'); cell.firstChild.focus(); }
        }
      });
    }

    more.addEventListener('click', function () {
      more.disabled = true;
      load().then(function () { more.disabled = false; }, function (error) {
        more.disabled = false;
        main.appendChild(K.errorBox(error));
      });
    });
    return load();
  }

  K.registerPage({ id: 'audit', title: 'Audit log', roles: [], render: render });
})();
