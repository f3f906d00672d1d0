// The globals the web scripts share with their hosts, for tsc (Tests/js/tsconfig.json); the
// protocol's types are JSDoc typedefs in the scripts themselves (notice-model.js, tcfapi.js).

interface Window {
  /** The console's shell (Server/Sources/ConsentServer/Resources/console/console.js), which every page script uses. */
  ConsoleKit: any;
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
  /** The IAB GPP CMP API v1.1 (cmp/gppapi-stub.js, cmp/gppapi.js). */
  __gpp: any;
  /** The GPP API on the CMP's state (cmp/gppapi.js). */
  ConsentKitGPP: { install(): boolean, update(state: GPPState): void, disable(message?: string): void };
  /** The mechanism the CMP APIs share with other frames (cmp/cmp-frames.js). */
  ConsentKitCMPFrames: {
    locatorAbove(name: string): boolean,
    addLocator(name: string, owner: () => boolean): void,
    listen(api: string, target: () => ((call: any, answer: (returnValue: any, success: boolean) => void) => void) | null): void,
    claim(api: string): void,
    replay(calls: any[], run: (call: any) => void): void,
    report(error: any): void
  } | undefined;
}
/** The browser's Global Privacy Control signal (https://w3c.github.io/gpc/), newer than TypeScript 4.8's DOM library. */
interface Navigator {
  readonly globalPrivacyControl?: boolean;
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

/** The GPP CMP API v1.1's PingReturn (cmp/gppapi-stub.js, cmp/gppapi.js). */
type GPPPing = {
  gppVersion: string, cmpStatus: string, cmpDisplayStatus: string | null, signalStatus: string,
  supportedAPIs: string[], cmpId: number, sectionList: number[], applicableSections: number[],
  gppString: string, parsedSections: { [prefix: string]: { [field: string]: any }[] }
};
/** What the page's CMP hands to ConsentKitGPP.update (cmp/gppapi.js): every field optional. */
type GPPState = {
  gppString?: string, sectionList?: number[], applicableSections?: number[],
  parsedSections?: { [prefix: string]: { [field: string]: any }[] }, supportedAPIs?: string[], cmpId?: number,
  cmpDisplayStatus?: 'hidden' | 'visible' | 'disabled' | null, signalStatus?: 'ready' | 'not ready'
};
