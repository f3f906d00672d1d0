/* ConsentKit console: data-subject requests (support and owner; docs/console.md, "Data-subject
 * requests", decision 0042). Looks a subject up by its id or its stored hash, shows its state and
 * its history with each event's proof (the stored record, its hash, its link in the app's hash
 * chain), exports it (a download of the export `GET /v1/subjects/{id}/export` answers), erases it
 * after a confirmation and shows the receipt, starts an erased subject anew, and verifies an
 * app's hash chain. Every one of these is written to the audit log by consentd. */
(function () {
  'use strict';

  var K = window.ConsoleKit;
  var el = K.el;
  var HISTORY_PAGE = 50;

  /** `2026-11-27T12:51:14.123Z` as `2026-11-27 12:51:14 UTC`. */
  function when(iso) {
    var m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(iso || '');
    return m ? el('time', { datetime: iso }, m[1] + ' ' + m[2] + ' UTC') : (iso || '—');
  }

  /** The query that names the subject: `appId` and `subjectId` or `subjectHash`. */
  function subjectQuery(subject) {
    return 'appId=' + encodeURIComponent(subject.appId) + '&' +
      (subject.by === 'hash' ? 'subjectHash=' : 'subjectId=') + encodeURIComponent(subject.value);
  }

  /** A short text for a subject's current state: its purposes and the method of its proof. */
  function stateText(current) {
    if (!current) return 'No current choice.';
    var parts = [];
    var consent = current.consent || {};
    if (consent.proof && consent.proof.method) parts.push('method ' + consent.proof.method);
    if (Array.isArray(consent.purposeConsents)) {
      parts.push(consent.purposeConsents.length ? 'purposes ' + consent.purposeConsents.join(', ') : 'no purpose consented');
    }
    if (current.collectedAt) parts.push('collected ' + current.collectedAt);
    return parts.length ? parts.join('; ') : 'A current choice is held.';
  }

  function render(main, ctx) {
    main.appendChild(el('h1', null, 'Data subjects'));
    main.appendChild(el('p', { class: 'lead' },
      'Answer a data-subject request: look the subject up by its id or by the hash your systems hold, ' +
      'read its history with the proof of each event, export it, erase it, or start an erased subject anew. ' +
      'Every action is written to the audit log, naming the subject by its hash only.'));

    // ---------------------------------------------------------------- lookup form
    var appInput = el('input', { type: 'text', name: 'appId', autocomplete: 'off', spellcheck: 'false', required: true,
      value: ctx.params.app || '' });
    var bySelect = el('select', { name: 'by' },
      el('option', { value: 'id' }, 'Subject id'),
      el('option', { value: 'hash' }, 'Subject hash (64 hex digits)'));
    var subjectInput = el('input', { type: 'text', name: 'subject', autocomplete: 'off', spellcheck: 'false', required: true });
    var appField = K.field('App id', appInput, { hint: 'The app the subject belongs to, such as com.example.news.' });
    var byField = K.field('Find by', bySelect);
    var subjectField = K.field('Subject', subjectInput, { hint: 'The id as the app knows it, or its stored hash.' });
    var lookUpButton = el('button', { type: 'submit', class: 'button primary' }, 'Look up');
    var form = el('form', { class: 'subject-lookup', novalidate: true, 'aria-labelledby': 'subjects-find' },
      el('h2', { id: 'subjects-find' }, 'Find a subject'),
      el('div', { class: 'toolbar' }, appField, byField, subjectField),
      el('div', { class: 'actions' }, lookUpButton));
    main.appendChild(el('section', { class: 'card' }, form));

    var result = el('div', { class: 'subject-result' });
    main.appendChild(result);

    // ---------------------------------------------------------------- chain verification
    var verifyButton = el('button', { type: 'button', class: 'button' }, 'Verify the hash chain');
    var verifyResult = el('div', { class: 'chain-result' });
    main.appendChild(el('section', { class: 'card', 'aria-labelledby': 'subjects-chain' },
      el('h2', { id: 'subjects-chain' }, 'Hash chain'),
      el('p', null, 'Recompute every link of the app\u2019s chain of events, as consent chain verify does, and report the first that does not hold. ' +
        'The app is the one in the form above.'),
      el('div', { class: 'actions' }, verifyButton), verifyResult));

    var confirm = erasureDialog();
    main.appendChild(confirm.dialog);

    function fieldFor(name) {
      if (name === 'appId') return appField;
      if (name === 'subjectId' || name === 'subjectHash') return subjectField;
      return null;
    }

    function clearErrors() {
      [appField, byField, subjectField].forEach(function (f) { f.setError(''); });
    }

    /** Shows an API error next to the field it names, else as a block in `where`. */
    function showError(error, where) {
      var f = fieldFor(error.field);
      if (f) {
        f.setError(error.message);
        f.control.focus();
      } else {
        where.textContent = '';
        where.appendChild(K.errorBox(error));
      }
      K.announce(error.message);
    }

    form.addEventListener('submit', function (event) {
      event.preventDefault();
      clearErrors();
      var subject = { appId: appInput.value.trim(), by: bySelect.value, value: subjectInput.value.trim() };
      var missing = false;
      if (!subject.appId) { appField.setError('Enter the app id.'); missing = true; }
      if (!subject.value) { subjectField.setError('Enter the subject\u2019s id or hash.'); missing = true; }
      if (missing) {
        (subject.appId ? subjectInput : appInput).focus();
        K.announce('The form has errors.');
        return;
      }
      lookUp(subject, true);
    });

    function lookUp(subject, announceIt) {
      lookUpButton.disabled = true;
      return ctx.api('GET', '/v1/console/subjects?' + subjectQuery(subject)).then(function (summary) {
        lookUpButton.disabled = false;
        showSubject(subject, summary);
        if (announceIt) {
          K.announce('Subject found: ' + summary.events + (summary.events === 1 ? ' event' : ' events') +
            (summary.erasure && !summary.erasure.restartedAt ? ', erased.' : '.'));
        }
        return loadHistory(subject, null);
      }, function (error) {
        lookUpButton.disabled = false;
        result.textContent = '';
        showError(error, result);
      });
    }

    // ---------------------------------------------------------------- the subject
    var historyHolder, moreButton, historyRows, receiptHolder;

    function showSubject(subject, summary) {
      result.textContent = '';
      var erased = summary.erasure && !summary.erasure.restartedAt;
      var facts = el('dl', { class: 'facts' },
        el('dt', null, 'App'), el('dd', null, summary.appId),
        el('dt', null, 'Subject id'), el('dd', null, summary.subjectId || 'not given (looked up by hash)'),
        el('dt', null, 'Subject hash'), el('dd', null, el('code', { class: 'hash' }, summary.subjectHash)),
        el('dt', null, 'Current choice'), el('dd', null, stateText(summary.current)),
        el('dt', null, 'Events holding its data'), el('dd', null, K.formatNumber(summary.events)),
        el('dt', null, 'First received'), el('dd', null, summary.firstReceivedAt ? when(summary.firstReceivedAt) : '—'),
        el('dt', null, 'Last received'), el('dd', null, summary.lastReceivedAt ? when(summary.lastReceivedAt) : '—'),
        el('dt', null, 'Erasure'), el('dd', null, summary.erasure
          ? ['Erased ', when(summary.erasure.erasedAt), summary.erasure.restartedAt ? ['; started anew ', when(summary.erasure.restartedAt)] : '; not started anew']
          : 'Never erased'));

      var exportLink = el('a', { class: 'button', href: '/v1/console/subjects/export?' + subjectQuery(subject), download: '' },
        'Export (JSON download)');
      var eraseButton = el('button', { type: 'button', class: 'button danger' }, 'Erase\u2026');
      var restartButton = el('button', { type: 'button', class: 'button' }, 'Start anew');
      receiptHolder = el('div', { class: 'receipt', 'aria-live': 'off' });
      var actions = el('div', { class: 'actions' },
        summary.events > 0 || summary.current ? exportLink : null,
        summary.events > 0 || summary.current ? eraseButton : null,
        erased ? restartButton : null);

      eraseButton.addEventListener('click', function () {
        confirm.open(summary, eraseButton, function () { return erase(subject); });
      });
      restartButton.addEventListener('click', function () {
        restartButton.disabled = true;
        ctx.api('POST', '/v1/console/subjects/restart?' + subjectQuery(subject)).then(function (answer) {
          return lookUp(subject, false).then(function () {
            K.announce('The subject was started anew at ' + answer.restartedAt + '. The backend may write it again.');
          });
        }, function (error) {
          restartButton.disabled = false;
          showError(error, receiptHolder);
        });
      });

      historyHolder = el('div', { class: 'history-table' });
      moreButton = el('button', { type: 'button', class: 'button', hidden: true }, 'Show later events');
      historyRows = [];
      moreButton.addEventListener('click', function () {
        moreButton.disabled = true;
        loadHistory(subject, moreButton.dataset.cursor).then(function () { moreButton.disabled = false; });
      });

      result.appendChild(el('section', { class: 'card', 'aria-labelledby': 'subject-title' },
        el('h2', { id: 'subject-title' }, 'Subject'), facts, actions, receiptHolder));
      result.appendChild(el('section', { class: 'card', 'aria-labelledby': 'history-title' },
        el('h2', { id: 'history-title' }, 'History with proofs'),
        el('p', { class: 'muted' }, 'Oldest first. Each event\u2019s record is stored exactly as hashed; its chain hash is SHA-256 of ' +
          'the previous chain hash, its sequence and its record hash, checked here by consentd.'),
        historyHolder, el('div', { class: 'actions' }, moreButton)));
    }

    function historyColumns() {
      return [
        { key: 'sequence', label: 'Sequence', numeric: true },
        { key: 'receivedAt', label: 'Received', format: function (value) { return when(value); } },
        { key: 'method', label: 'Choice' },
        { key: 'notice', label: 'Notice' },
        { key: 'language', label: 'Language' },
        { key: 'platform', label: 'Platform' },
        { key: 'outcome', label: 'Outcome' },
        { key: 'link', label: 'Proof', format: function (value) {
          return el('span', { class: value.ok ? 'proof-ok' : 'proof-broken' }, value.ok ? 'Holds' : 'Does not hold');
        } },
        { key: 'record', label: 'Record and hashes', format: function (value) {
          return el('details', { class: 'record' },
            el('summary', null, 'Record ', el('code', null, value.recordHash.slice(0, 12) + '\u2026')),
            el('dl', { class: 'facts' },
              el('dt', null, 'Record hash'), el('dd', null, el('code', { class: 'hash' }, value.recordHash)),
              el('dt', null, 'Previous chain hash'), el('dd', null, el('code', { class: 'hash' }, value.previousChainHash)),
              el('dt', null, 'Chain hash'), el('dd', null, el('code', { class: 'hash' }, value.chainHash)),
              el('dt', null, 'Record matches its hash'), el('dd', null, value.recordHolds ? 'yes' : 'no'),
              el('dt', null, 'Link follows the previous'), el('dd', null, value.linkHolds ? 'yes' : 'no')),
            el('pre', { class: 'record-text' }, value.record));
        } }
      ];
    }

    function loadHistory(subject, cursor) {
      var path = '/v1/console/subjects/events?' + subjectQuery(subject) + '&limit=' + HISTORY_PAGE + (cursor ? '&cursor=' + encodeURIComponent(cursor) : '');
      return ctx.api('GET', path).then(function (page) {
        historyRows = historyRows.concat(page.events.map(function (proven) {
          var event = proven.event, proof = (event.consent && event.consent.proof) || {};
          return {
            sequence: event.sequence, receivedAt: event.receivedAt, method: proof.method || '—',
            notice: (proof.noticeId || '—') + (proof.noticeVersion ? ' v' + proof.noticeVersion : ''),
            language: proof.language || '—', platform: proof.platform || '—', outcome: event.outcome,
            link: { ok: proven.chain.recordHolds && proven.chain.linkHolds }, record: proven.chain
          };
        }));
        historyHolder.textContent = '';
        historyHolder.appendChild(K.table(historyColumns(), historyRows, {
          caption: 'Events of the subject, oldest first, with their proofs',
          empty: 'No event holds this subject\u2019s data (never any, or erased).'
        }));
        moreButton.hidden = !page.nextCursor;
        if (page.nextCursor) moreButton.dataset.cursor = page.nextCursor;
      }, function (error) {
        historyHolder.textContent = '';
        historyHolder.appendChild(K.errorBox(error));
      });
    }

    // ---------------------------------------------------------------- erasure
    function erase(subject) {
      return ctx.api('DELETE', '/v1/console/subjects?' + subjectQuery(subject)).then(function (receipt) {
        return lookUp(subject, false).then(function () {
          receiptHolder.textContent = '';
          receiptHolder.appendChild(el('div', { class: 'receipt-box', role: 'status' },
            el('h3', { tabindex: '-1' }, 'Erasure receipt'),
            el('dl', { class: 'facts' },
              el('dt', null, 'Receipt'), el('dd', null, el('code', null, receipt.receiptId)),
              el('dt', null, 'App'), el('dd', null, receipt.appId),
              el('dt', null, 'Erased at'), el('dd', null, when(receipt.erasedAt)),
              el('dt', null, 'Events erased'), el('dd', null, K.formatNumber(receipt.eventsErased)))));
          receiptHolder.querySelector('h3').focus();
          K.announce('Erased: ' + receipt.eventsErased + (receipt.eventsErased === 1 ? ' event' : ' events') + '. Receipt ' + receipt.receiptId + '.');
        });
      });
    }

    /** The confirmation before an erasure: a modal dialog; `open(summary, opener, act)`. */
    function erasureDialog() {
      var title = el('h2', { id: 'erase-title' }, 'Erase this subject?');
      var text = el('p', { id: 'erase-text' });
      var error = el('div', { class: 'dialog-error' });
      var eraseIt = el('button', { type: 'button', class: 'button danger' }, 'Erase');
      var cancel = el('button', { type: 'button', class: 'button quiet' }, 'Cancel');
      var dialog = el('dialog', { class: 'confirm', 'aria-labelledby': 'erase-title', 'aria-describedby': 'erase-text' },
        title, text, error, el('div', { class: 'actions' }, eraseIt, cancel));
      var opener = null, act = null;
      function close() {
        dialog.close();
        if (opener && document.contains(opener)) opener.focus();
      }
      cancel.addEventListener('click', function () { close(); K.announce('Erasure cancelled.'); });
      eraseIt.addEventListener('click', function () {
        eraseIt.disabled = true;
        error.textContent = '';
        act().then(function () {
          eraseIt.disabled = false;
          dialog.close();
        }, function (failure) {
          eraseIt.disabled = false;
          error.appendChild(K.errorBox(failure));
        });
      });
      return {
        dialog: dialog,
        open: function (summary, from, action) {
          opener = from;
          act = action;
          error.textContent = '';
          text.textContent = 'The personal data of ' + (summary.subjectId ? 'subject ' + summary.subjectId : 'the subject with hash ' + summary.subjectHash) +
            ' of ' + summary.appId + ' (' + summary.events + (summary.events === 1 ? ' event' : ' events') +
            ' and its current choice) is erased for good. Only non-personal hashes stay, so the chain still verifies. ' +
            'Until the subject is started anew, every write of it is refused.';
          dialog.showModal();
          cancel.focus();
        }
      };
    }

    // ---------------------------------------------------------------- chain verification
    verifyButton.addEventListener('click', function () {
      clearErrors();
      var appId = appInput.value.trim();
      if (!appId) {
        appField.setError('Enter the app whose chain to verify.');
        appInput.focus();
        return;
      }
      verifyButton.disabled = true;
      verifyResult.textContent = '';
      ctx.api('POST', '/v1/console/chain/verify?appId=' + encodeURIComponent(appId)).then(function (answer) {
        verifyButton.disabled = false;
        var events = K.formatNumber(answer.eventsChecked) + (answer.eventsChecked === 1 ? ' event' : ' events');
        var sentence = answer.valid
          ? 'The chain of ' + answer.appId + ' holds: ' + events + ' checked.'
          : 'The chain of ' + answer.appId + ' is broken at event ' + answer.firstBrokenLink.sequence +
            (answer.firstBrokenLink.eventId ? ' (' + answer.firstBrokenLink.eventId + ')' : '') + ': ' +
            answer.firstBrokenLink.reason + '. ' + events + ' before it hold.';
        verifyResult.appendChild(el('p', { class: answer.valid ? 'chain-ok' : 'chain-broken alert', role: answer.valid ? null : 'alert' }, sentence));
        K.announce(sentence);
      }, function (error) {
        verifyButton.disabled = false;
        showError(error, verifyResult);
      });
    });
  }

  K.registerPage({ id: 'subjects', title: 'Data subjects', roles: ['support'], render: render });
})();
