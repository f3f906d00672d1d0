// The demo page: asks consentd for a notice document, shows the notice (ConsentKitUI's page) in
// a frame the size of a phone, sends the notice's result back to consentd, and shows what was
// recorded. The frame is same-origin, so the document is handed over by calling
// ConsentKitNotice.configure, as an app's web view does; results arrive by postMessage.
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  const frame = $('notice');
  const store = window.localStorage;
  // The page's key (app demo-playground) creates the visitor's subject; the token the first
  // result returns is kept and alone writes that subject from then on, as on a real site.
  const pageKey = document.querySelector('script[data-key]').dataset.key;
  const SUBJECT = 'consentkit-playground-subject';
  store.removeItem('consentkit-demo-subject');
  function subject() {
    try { return JSON.parse(store.getItem(SUBJECT) || 'null'); } catch (e) { return null; }
  }
  let options = null;

  function currentOptions(reopen) {
    return {
      mode: $('mode').value, language: $('language').value, vendors: $('vendors').value,
      adFree: $('adfree').checked, reopen: reopen, tcString: store.getItem('consentkit-demo-tc') || undefined
    };
  }

  async function post(path, body) {
    const response = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const answer = await response.json();
    if (!response.ok) {
      const error = new Error(answer.error ? answer.error.code + ': ' + answer.error.message : response.status);
      error.status = response.status;
      throw error;
    }
    return answer;
  }

  // A result, with the visitor's token once there is one; a token that no longer works (its
  // key revoked: 401; its subject erased: 410) is forgotten and the page key makes a new subject.
  async function record(message) {
    const known = subject();
    const body = { options: options, message: message };
    try {
      const answer = await post('/demo/result', known
        ? Object.assign(body, { credential: known.subjectToken, subjectId: known.subjectId })
        : Object.assign(body, { credential: pageKey }));
      if (answer.subjectToken && answer.event) {
        store.setItem(SUBJECT, JSON.stringify({ subjectId: answer.event.subjectId, subjectToken: answer.subjectToken }));
      }
      return answer;
    } catch (error) {
      if (!known || (error.status !== 401 && error.status !== 410)) throw error;
      store.removeItem(SUBJECT);
      return record(message);
    }
  }

  async function open(reopen) {
    options = currentOptions(reopen);
    $('status').textContent = 'Loading the notice…';
    let documentJSON;
    try {
      documentJSON = JSON.stringify(await post('/demo/document', options));
    } catch (error) {
      $('status').textContent = 'The notice could not be prepared: ' + error.message;
      return;
    }
    frame.onload = () => {
      frame.onload = null;
      frame.hidden = false;
      frame.contentWindow.ConsentKitNotice.configure(documentJSON);
      frame.focus();
    };
    frame.src = '/notice/notice.html';
  }

  function show(answer) {
    frame.onload = null;
    frame.hidden = true;
    frame.removeAttribute('src');
    if (!answer.tcString) {
      $('status').textContent = 'The notice was closed without a choice; nothing was recorded.';
      return;
    }
    store.setItem('consentkit-demo-tc', answer.tcString);
    $('status').textContent = 'Recorded: ' + answer.action + (answer.languageFallback ? ' (shown in English: ' + answer.languageFallback.reason + ')' : '');
    $('recorded').hidden = false;
    $('tc-string').textContent = answer.tcString;
    $('ac-string').textContent = answer.addtlConsent || '(none)';
    $('google').textContent = answer.googleStatus + (answer.npa ? ', npa=1' : '') + (answer.prefersAdFree ? ', prefers the ad-free version' : '');
    const d = answer.decoded;
    const fields = ['purposeConsents', 'purposeLegitimateInterests', 'specialFeatureOptins', 'vendorConsents',
      'vendorLegitimateInterests', 'disclosedVendors', 'consentScreen', 'consentLanguage', 'cmpId', 'vendorListVersion'];
    $('decoded').textContent = fields.map((name) => {
      const value = d[name];
      return name + ': ' + (Array.isArray(value) ? (value.length ? value.join(', ') : '(none)') + ' [' + value.length + ']' : value);
    }).join('\n');
    $('event').textContent = answer.event ? 'event ' + answer.event.eventId + ' of subject ' + answer.event.subjectId : '';
    const google = (d.vendorConsents || []).indexOf(755) >= 0 && (d.purposeConsents || []).indexOf(1) >= 0;
    $('ad-slot').textContent = answer.prefersAdFree ? 'Ad slot: the user prefers the ad-free version'
      : google ? (answer.npa ? 'Ad slot: non-personalized ads (npa=1)' : 'Ad slot: personalized ads allowed') : 'Ad slot: limited ads only (no consent for storage)';
  }

  window.addEventListener('message', async (event) => {
    if (event.source !== frame.contentWindow || !event.data || event.data.protocol !== 1) return;
    const message = event.data;
    if (message.type === 'ready') {
      $('status').textContent = 'The notice is open (first layer ready in ' + Math.round(message.renderMs) + ' ms).';
    } else if (message.type === 'loadError') {
      $('status').textContent = 'The notice refused its document: ' + message.code + ' ' + message.message;
      frame.hidden = true;
    } else if (message.type === 'result') {
      try {
        show(await record(message));
      } catch (error) {
        $('status').textContent = 'consentd refused the result: ' + error.message;
      }
    }
  });

  $('open').addEventListener('click', () => open(false));
  $('settings').addEventListener('click', () => open(true));
  $('forget').addEventListener('click', () => {
    store.removeItem('consentkit-demo-tc');
    $('recorded').hidden = true;
    $('status').textContent = 'Forgotten: the notice will ask again.';
    $('ad-slot').textContent = 'Ad slot: no consent recorded yet';
  });
  if (!store.getItem('consentkit-demo-tc')) open(false);
})();
