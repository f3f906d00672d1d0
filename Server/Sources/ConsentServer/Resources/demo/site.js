// The demo site's own script: plays the part of an ad tag (the ad slot) and of the page's privacy
// panel, both through __tcfapi and __gpp only, and reloads the page with other web CMP settings (region,
// language, storage), which consentd writes on the stub's tag.
'use strict';
(function () {
  const params = new URLSearchParams(location.search);
  const $ = (id) => document.getElementById(id);
  const whenReady = (run) => {
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', run, { once: true }); else run();
  };

  // What an ad tag does: wait for a decision, then serve what it allows. Google's ads need
  // purpose 1 (storage) and vendor 755's consent; personalized ads also purposes 3 and 4.
  function adFor(tcData) {
    if (tcData.gdprApplies === false) return 'Ad slot: personalized ads (GDPR does not apply here)';
    if (tcData.eventStatus === 'cmpuishown') return 'Ad slot: waiting for the visitor\'s choice';
    const purpose = tcData.purpose.consents, google = tcData.vendor.consents['755'];
    if (!google || !purpose['1']) return 'Ad slot: limited ads only (no consent for storage)';
    return purpose['3'] && purpose['4'] ? 'Ad slot: personalized ads' : 'Ad slot: non-personalized ads';
  }
  function ids(map) {
    const on = Object.keys(map || {}).filter((k) => map[k]);
    return on.length ? on.join(', ') + ' (' + on.length + ')' : '(none)';
  }
  // When the first decision (tcloaded or cmpuishown) reached the ad tag: performance.now(), read
  // against the page's DOMContentLoaded (scripts/bench-notice prints it).
  window.demoTimings = { firstEvent: null, firstStatus: null };
  window.__tcfapi('addEventListener', 2, (tcData, success) => {
    if (!success) return;
    if (window.demoTimings.firstEvent === null) {
      window.demoTimings.firstEvent = performance.now();
      window.demoTimings.firstStatus = tcData.eventStatus;
    }
    const show = () => {
      $('ad-slot').textContent = adFor(tcData);
      $('api-status').textContent = tcData.eventStatus + ', cmpStatus ' + tcData.cmpStatus + (tcData.gdprApplies === false ? ', GDPR does not apply' : '');
      $('tc-string').textContent = tcData.tcString || '(none)';
      $('purposes').textContent = tcData.purpose ? ids(tcData.purpose.consents) : '(none)';
      $('vendors').textContent = tcData.vendor ? ids(tcData.vendor.consents) : '(none)';
    };
    whenReady(show);
  });
  window.__tcfapi('ping', 2, (ping) => {
    whenReady(() => {
      if ($('api-status').textContent === 'not loaded') $('api-status').textContent = 'cmpStatus ' + ping.cmpStatus;
    });
  });
  // What a GPP-aware ad tag reads: __gpp's ping, after every event.
  window.__gpp('addEventListener', (event, success) => {
    if (!success) return;
    const ping = event.pingData;
    whenReady(() => {
      $('gpp-status').textContent = 'cmpStatus ' + ping.cmpStatus + ', signalStatus ' + ping.signalStatus;
      $('gpp-applicable').textContent = ping.applicableSections.join(', ');
      $('gpp-string').textContent = ping.gppString || '(none)';
    });
  });
  window.addEventListener('consentkit:choice', (e) => {
    const event = e.detail.event;
    $('event').textContent = event ? 'event ' + event.eventId + ' of subject ' + event.subjectId + ' (' + e.detail.action + ')' : e.detail.action;
  });

  whenReady(() => {
    const form = $('options');
    for (const name of ['region', 'lang', 'storage']) form.elements[name].value = params.get(name) || form.elements[name].value;
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const next = new URLSearchParams();
      for (const name of ['region', 'lang', 'storage']) if (form.elements[name].value) next.set(name, form.elements[name].value);
      location.search = next.toString();
    });
    $('forget').addEventListener('click', () => { if (window.ConsentKitWeb) window.ConsentKitWeb.forget(); location.reload(); });
    $('privacy-settings').addEventListener('click', () => { if (window.ConsentKitWeb) window.ConsentKitWeb.showPreferences(); });
  });
})();
