// An ad in a cross-origin frame: it cannot call the page's __tcfapi, so it finds the ancestor
// holding the __tcfapiLocator frame and talks to the CMP by postMessage (CMP API v2).
'use strict';
(function () {
  const status = document.getElementById('status');
  let cmpFrame = null;
  for (let w = window; w; w = w === window.top ? null : w.parent) {
    try { if (w.frames.__tcfapiLocator) { cmpFrame = w; break; } } catch (e) { /* another origin: frames is still readable */ }
  }
  if (!cmpFrame) { status.textContent = 'no CMP found: no consent, no legitimate interest'; return; }
  window.addEventListener('message', (event) => {
    let data = event.data;
    if (typeof data === 'string') { try { data = JSON.parse(data); } catch (e) { return; } }
    const answer = data && data.__tcfapiReturn;
    if (!answer || answer.callId !== 'ad-frame') return;
    const tcData = answer.returnValue;
    if (!answer.success || !tcData) { status.textContent = 'the CMP refused the call'; return; }
    window.lastTCData = tcData;
    if (tcData.gdprApplies === false) status.textContent = 'GDPR does not apply: personalized ads';
    else if (tcData.eventStatus === 'cmpuishown') status.textContent = 'waiting for the visitor\'s choice';
    else status.textContent = (tcData.purpose.consents['1'] && tcData.vendor.consents['755'] ? 'consent for storage: ads may load' : 'no consent for storage: limited ads')
      + ' (' + tcData.eventStatus + ', TC string of ' + tcData.tcString.length + ' characters)';
  });
  cmpFrame.postMessage({ __tcfapiCall: { command: 'addEventListener', version: 2, callId: 'ad-frame' } }, '*');
})();
