// @ts-check
/* ConsentKit consent notice: the messages of a host that frames it, the first of the notice's
 * scripts (docs/notice-protocol.md, "Framed by a page").
 *
 * Framed by a page of another origin (a website's CMP, /cmp/cmp.js), the notice page says at once
 * that it has started, {protocol: 1, type: 'started'}, before its other scripts run: the host
 * posts the document ({protocol: 1, type: 'configure', document}: the document, its JSON text, or
 * that text's UTF-8 bytes in an ArrayBuffer) while they do, instead of after
 * the frame's `load` event and a round trip, and this keeps that message until notice.js takes it.
 * In an app's web view (not framed) it does nothing.
 */

/**
 * window.NoticeHost: `onConfigure(take)` hands `take` the document of a `configure` message that
 * came (kept) or comes from the parent frame, with the message's origin.
 * @typedef {{ onConfigure: (take: (document: any, origin: string) => void) => void }} NoticeHostAPI
 */

/** @type {NoticeHostAPI} */
var NoticeHost = (function () {
  'use strict';

  /** A configure message that came before notice.js took them. @type {{ document: any, origin: string } | null} */
  var kept = null;
  /** @type {((document: any, origin: string) => void) | null} */
  var take = null;

  if (window.parent && window.parent !== window) {
    window.addEventListener('message', function (e) {
      var m = e.data;
      // Protocol 1 (NoticeModel.PROTOCOL, not loaded yet), from the parent frame only.
      if (e.source !== window.parent || !m || typeof m !== 'object' || m.protocol !== 1 || m.type !== 'configure') return;
      // The document as an object, its JSON text, or that text's UTF-8 bytes (what /cmp/cmp.js
      // posts: bytes cross into this page at once, where an object is rebuilt property by property).
      var documentValue = m.document instanceof ArrayBuffer ? new TextDecoder().decode(m.document) : m.document;
      if (take) take(documentValue, e.origin); else kept = { document: documentValue, origin: e.origin };
    });
    // Nothing in it but its type: any origin may hear that a notice page started.
    window.parent.postMessage({ protocol: 1, type: 'started' }, '*');
  }

  return {
    onConfigure: function (taker) {
      take = taker;
      if (kept) { var message = kept; kept = null; taker(message.document, message.origin); }
    }
  };
})();
