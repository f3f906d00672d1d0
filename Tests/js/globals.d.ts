// The globals the web scripts share with their hosts, for tsc (Tests/js/tsconfig.json); the
// protocol's types are JSDoc typedefs in the scripts themselves (notice-model.js, tcfapi.js).

interface Window {
  /** The notice's entry (notice.js). */
  ConsentKitNotice: NoticeAPI;
  /** The CMP API (cmp/tcfapi.js). */
  ConsentKitTCF: any;
  /** The app's consent, read-only (cmp/tcfapi.js in an app's web view). */
  ConsentKitAppConsent: any;
  /** The web CMP's public object (cmp/web/cmp-web.js). */
  ConsentKitWeb: any;
  /** The web CMP's one-time hand-over from cmp-start.js to cmp-web.js. */
  ConsentKitWebStart: { take(): WebStart | null } | undefined;
  /** The IAB TCF v2 API. */
  __tcfapi: any;
}
/** HTMLElement.inert, newer than TypeScript 4.8's DOM library. */
interface HTMLElement {
  inert: boolean;
}
/** Element.checkVisibility, newer than TypeScript 4.8's DOM library (and not in every engine). */
interface Element {
  checkVisibility?: () => boolean;
}

/** The hand-over an app wraps cmp/tcfapi.js in (ConsentKitUI's WebViewConsent). */
declare var consentKitAppHandOver: { payload: any, secret: string, credential?: { consentd: string, subjectId: string, subjectToken: string } } | undefined;
/** A CommonJS module, given only by Node's tests (Tests/js/load.js); undefined in a browser. */
declare var module: { exports: any } | undefined;
/** window.ConsentKitTCF, as the web CMP's scripts name it. */
declare var ConsentKitTCF: any;
