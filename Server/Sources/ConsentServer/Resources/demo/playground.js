// The demo page: asks consentd for a notice document, shows the notice (ConsentKitUI's page) in
// a frame the size of a phone, sends the notice's result back to consentd, and shows what was
// recorded. The frame is same-origin, so the document is handed over by calling
// ConsentKitNotice.configure, as an app's web view does; results arrive by postMessage.
// In a US region the notice is the US notice at collection, and what is recorded is a GPP string
// (kept in its own key, as the TC string is in the EEA).
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

  const TC = 'consentkit-demo-tc', GPP = 'consentkit-demo-gpp';
  // The TCF's settings (form, vendors, ad-free) mean nothing to the US notice: disabled there.
  function regionChanged() {
    const us = $('region').value !== 'eea';
    for (const id of ['mode', 'vendors', 'adfree']) $(id).disabled = us;
  }

  function currentOptions(reopen) {
    return {
      region: $('region').value, mode: $('mode').value, language: $('language').value, vendors: $('vendors').value,
      adFree: $('adfree').checked, reopen: reopen, tcString: store.getItem(TC) || undefined, gppString: store.getItem(GPP) || undefined
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

  // A US choice: its GPP string, the section in force and its fields as ConsentKit decodes them
  // (`parsedSections`, as __gpp answers them), the ad slot as the opt-outs allow.
  function showUS(answer) {
    store.setItem(GPP, answer.gppString);
    $('tcf-recorded').hidden = true;
    $('gpp-recorded').hidden = false;
    $('gpp-string').textContent = answer.gppString;
    const parsed = answer.gpp.parsedSections || {};
    const names = Object.keys(parsed);
    $('gpp-section').textContent = names.join(', ') + ' [' + answer.gpp.applicableSections.join(', ') + ']';
    const lines = [];
    let optedOut = false;
    for (const name of names) {
      // A state section is its core subsection and its GPC subsection; usnat's core alone or with it.
      const parts = Array.isArray(parsed[name]) ? parsed[name] : [parsed[name]];
      for (const part of parts) {
        for (const field of Object.keys(part)) {
          lines.push(name + '.' + field + ': ' + JSON.stringify(part[field]));
          // 1: opted out (the GPP's US sections' 0/1/2 encoding: not applicable, opted out, did not opt out)
          if (/^(SaleOptOut|SharingOptOut|TargetedAdvertisingOptOut)$/.test(field) && part[field] === 1) optedOut = true;
        }
      }
    }
    $('decoded').textContent = lines.join('\n');
    $('ad-slot').textContent = optedOut ? 'Ad slot: contextual ads only (opted out of sale, sharing or targeted advertising)'
      : 'Ad slot: targeted ads allowed (no opt-out)';
  }

  function show(answer) {
    frame.onload = null;
    frame.hidden = true;
    frame.removeAttribute('src');
    if (!answer.tcString && !answer.gppString) {
      $('status').textContent = 'The notice was closed without a choice; nothing was recorded.';
      return;
    }
    $('status').textContent = 'Recorded: ' + answer.action + (answer.languageFallback ? ' (shown in English: ' + answer.languageFallback.reason + ')' : '');
    $('recorded').hidden = false;
    $('event').textContent = answer.event ? 'event ' + answer.event.eventId + ' of subject ' + answer.event.subjectId : '';
    if (answer.gppString) {
      showUS(answer);
      return;
    }
    store.setItem(TC, answer.tcString);
    $('tcf-recorded').hidden = false;
    $('gpp-recorded').hidden = true;
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
  $('region').addEventListener('change', regionChanged);
  regionChanged();
  $('forget').addEventListener('click', () => {
    store.removeItem(TC);
    store.removeItem(GPP);
    $('recorded').hidden = true;
    $('status').textContent = 'Forgotten: the notice will ask again.';
    $('ad-slot').textContent = 'Ad slot: no consent recorded yet';
  });
  if (!store.getItem(TC)) open(false);
})();
