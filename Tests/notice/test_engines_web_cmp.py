"""The web CMP on a publisher's own site, in both engines (engines.py: Chromium through Playwright,
WebKitGTK, the engine of WKWebView, through Selenium): a page served from another loopback origin
than consentd (a real HTTP server of this file on a second port, not a route: WebDriver has none)
loads consentd's /cmp/stub.js first in <head> and /cmp/cmp.js async with the demo site's
publishable key, and holds an ad frame from a third origin (a third port), which reads consent
through the __tcfapiLocator frame and postMessage, as an ad would.

Every __tcfapi command from the page and from the frame, the notice answered by a click in its
frame (the TC string decoded by ConsentKit's decoder, `consent decode --json`), the returning
visit, the IAB's own stub in place of consentd's (each frame call answered once), axe-core with
the notice open, and screenshots of the publisher page with the notice (the web's layout, `auto`:
a sheet on a phone, a card on a desktop) to NOTICE_ARTIFACTS as webcmp-*-<engine>.png.

Marked consentd: one consentd (notice_support.consentd) and one browser per engine for the file."""
from __future__ import annotations

import functools
import json
import re
import subprocess
import urllib.request

import pytest

import notice_support as ns
from test_engines_notice import axe_violations

pytestmark = pytest.mark.consentd

NOTICE_FRAME = 'iframe[title="Privacy settings"]'
AD_FRAME = "#ad-frame"
PHONE, DESKTOP = (447, 844), (1280, 800)  # 447: WebKitGTK's MiniBrowser is no narrower


# ------------------------------------------------------------------------------------ the publisher's site

# A publisher's tag that listens from the start, as an ad slot's would.
LISTEN = """<script>
window.__events = [];
window.__tcfapi('addEventListener', 2, function (d, ok) {
  window.__events.push({ status: d && d.eventStatus, listenerId: d && d.listenerId, tcString: d && d.tcString, ok: ok });
});
</script>"""

# The ad frame's page (third origin): it finds the CMP's __tcfapiLocator frame among its ancestors
# and posts __tcfapiCall messages to that window, keeping every __tcfapiReturn it receives.
FRAME_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>An ad</title>
<script>
window.replies = [];
window.addEventListener('message', function (e) {
  var data = e.data;
  if (typeof data === 'string') { try { data = JSON.parse(data); } catch (x) { return; } }
  if (data && data.__tcfapiReturn) window.replies.push({ form: typeof e.data, ret: data.__tcfapiReturn });
});
function cmpWindow() {
  for (var w = window; ; w = w.parent) {
    try { if (w.frames['__tcfapiLocator']) return w; } catch (e) { }
    if (w === window.top) return null;
  }
}
window.tcfCall = function (call, asString) {
  var target = cmpWindow(), message = { __tcfapiCall: call };
  if (!target) return false;
  target.postMessage(asString ? JSON.stringify(message) : message, '*');
  return true;
};
</script></head><body><p>An ad from a third origin.</p></body></html>"""


def publisher_page(consentd: str, key: str, frame_url: str, stub: str = "consentd") -> str:
    """The publisher's page: consentd's stub with the key first in <head> and cmp.js async, or
    (`stub` "iab") the IAB stub's contract inline and the key on cmp.js's tag."""
    if stub == "consentd":
        head = (f'<script src="{consentd}/cmp/stub.js" data-key="{key}" data-debug-region="eea"></script>\n'
                f'{LISTEN}\n<script src="{consentd}/cmp/cmp.js" async></script>')
    else:
        head = (f'{ns.IAB_STUB_CONTRACT}\n{LISTEN}\n'
                f'<script src="{consentd}/cmp/cmp.js" data-key="{key}" data-debug-region="eea" async></script>')
    return f"""<!doctype html><html lang="en"><head><meta charset="utf-8">
{head}
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Example Daily: a publisher on its own origin</title>
<style>body {{ font: 1rem/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 48rem; padding: 1rem; }}
iframe#ad-frame {{ width: 100%; height: 6rem; border: 1px solid #888; }}</style>
</head><body>
<header><strong>Example Daily</strong></header>
<main><h1>A publisher's article</h1>
<p>This page comes from a loopback origin of its own; the consent notice and the CMP's API come from consentd.</p>
<iframe id="ad-frame" title="An ad from a third origin" src="{frame_url}"></iframe>
<p>More of the article follows the ad.</p></main>
</body></html>"""


class PublisherSite(ns.TwoOrigins):
    """The publisher's pages (`publisher`, a second origin beside consentd's) and the ad frame's
    page (`ads`, a third origin). `pages` maps a path of the publisher to its HTML."""

    def __init__(self):
        self.pages = {}
        html = "text/html; charset=utf-8"
        super().__init__(lambda path: (FRAME_PAGE, html) if path == "/frame.html"
                         else (self.pages[path], html) if path in self.pages else None)


@functools.lru_cache(maxsize=1)
def demo_key() -> str:
    """The demo site's publishable key, as consentd's /demo shows it."""
    html = urllib.request.urlopen(ns.consentd().url + "/demo").read().decode()
    return re.search(r'data-key="(ck_pub_[^"]+)"', html).group(1)


@pytest.fixture(scope="module")
def publisher_site():
    site = PublisherSite()
    consentd = ns.consentd().url
    site.pages["/"] = publisher_page(consentd, demo_key(), site.ads + "/frame.html")
    site.pages["/iab-stub.html"] = publisher_page(consentd, demo_key(), site.ads + "/frame.html", stub="iab")
    assert len({consentd, site.publisher, site.ads}) == 3, "three origins"
    yield site
    site.stop()


@pytest.fixture
def publisher(engine_page, publisher_site):
    """publisher(path="/", size=PHONE, wait_for="cmpuishown") -> the engine's page on the publisher's
    site, once the page's listener saw `wait_for`."""

    def open_site(path="/", size=PHONE, wait_for="cmpuishown"):
        page = engine_page(*size)
        page.goto(publisher_site.publisher + path)
        if wait_for:
            wait_status(page, wait_for)
        return page

    return open_site


# ------------------------------------------------------------------------------------ helpers

# A shared 2-core machine starts a browser slowly: the first page view of an engine may take long.
PATIENCE = 30.0


def wait_status(page, status):
    page.wait_for("(s) => (window.__events || []).some((e) => e.status === s)", status, timeout=PATIENCE)


def statuses(page):
    return [e["status"] for e in page.evaluate("() => window.__events")]


# Calls __tcfapi on the page: {sync: answered before returning, answers: [[value, success], ...]}.
CALL = """(command, version, parameter, hasParameter) => new Promise((resolve) => {
  const answers = [];
  const callback = (value, success) => { answers.push([value, success]); };
  if (hasParameter) window.__tcfapi(command, version, callback, parameter);
  else window.__tcfapi(command, version, callback);
  const sync = answers.length > 0;
  setTimeout(() => resolve({ sync, answers }), 100);
})"""


def call(page, command, version=2, parameter=None, has_parameter=None):
    return page.evaluate(CALL, command, version, parameter, parameter is not None if has_parameter is None else has_parameter)


def answer(page, command, version=2, parameter=None, **kw):
    """The one answer to a call: (value, success)."""
    answers = call(page, command, version, parameter, **kw)["answers"]
    assert len(answers) == 1, f"{page.engine}: {command} answered {len(answers)} times"
    return tuple(answers[0])


def notice(page):
    """The notice's frame, once its first layer shows."""
    frame = page.frame(NOTICE_FRAME)
    frame.wait_for("() => { const b = document.querySelector('[data-action=acceptAll]'); return !!b && b.getClientRects().length > 0; }", timeout=PATIENCE)
    return frame


def ad_frame(page):
    frame = page.frame(AD_FRAME)
    frame.wait_for("() => typeof window.tcfCall === 'function' && document.readyState === 'complete'", timeout=PATIENCE)
    return frame


def frame_calls(frame, *calls, settle=0.6):
    """Posts each (call, asString) from the ad frame; returns every reply received once the
    replies stopped coming for `settle` seconds, as (callId, form, success, returnValue)."""
    frame.evaluate("() => { window.replies = []; }")
    for message, as_string in calls:
        assert frame.evaluate("(c, s) => window.tcfCall(c, s)", message, as_string), "the frame found the CMP's locator"
    return settle_replies(frame, settle)


def settle_replies(frame, settle=0.6):
    import time

    count, since = -1, time.monotonic()
    while time.monotonic() - since < settle:
        now = frame.evaluate("() => window.replies.length")
        if now != count:
            count, since = now, time.monotonic()
        time.sleep(0.05)
    return [(r["ret"]["callId"], r["form"], r["ret"]["success"], r["ret"]["returnValue"]) for r in frame.evaluate("() => window.replies")]


def decode(tc_string):
    binary = ns.consentd_binary().rsplit("/", 1)[0] + "/consent"
    return json.loads(subprocess.run([binary, "decode", "--json", tc_string], capture_output=True, text=True, check=True).stdout)


def true_ids(mapping):
    return sorted(int(k) for k, v in (mapping or {}).items() if v)


def bits(ids):
    return "".join("1" if i in set(ids) else "0" for i in range(1, max(ids) + 1)) if ids else ""


def save_purposes(page, purposes):
    """In the notice's frame: Manage options, turn on `purposes`, Save."""
    frame = notice(page)
    frame.click('.ck-footer [data-action="manage"]')
    frame.wait_for("() => { const s = document.querySelector('section[data-layer=\"2\"]'); return !!s && s.getClientRects().length > 0; }")
    for purpose in purposes:
        frame.click(f'input[data-kind="purpose"][data-id="{purpose}"]')
    frame.click('.ck-footer [data-action="save"]')


# ------------------------------------------------------------------------------------ from the page

def test_ping_is_synchronous_and_names_the_loaded_cmp_for_version_2_and_2_0(publisher):
    page = publisher()
    for version in (2, "2.0"):
        ping = call(page, "ping", version)
        assert ping["sync"] and len(ping["answers"]) == 1, (version, ping)
        value = ping["answers"][0][0]
        assert (value["cmpLoaded"], value["cmpStatus"], value["gdprApplies"], value["displayStatus"]) == (True, "loaded", True, "visible")
        assert (value["cmpId"], value["apiVersion"], value["gvlVersion"]) == (4095, "2", ns.gvl()["vendorListVersion"])


def test_the_notice_shows_and_a_click_in_its_frame_completes_with_the_string_of_the_choice(publisher):
    page = publisher()
    assert statuses(page) == ["cmpuishown"]
    shown, ok = answer(page, "getTCData")
    assert ok and shown["eventStatus"] == "cmpuishown" and true_ids(shown["purpose"]["consents"]) == []
    save_purposes(page, [1, 4])
    wait_status(page, "useractioncomplete")
    events = page.evaluate("() => window.__events")
    assert [e["status"] for e in events] == ["cmpuishown", "useractioncomplete"]
    assert events[0]["listenerId"] == events[1]["listenerId"] and events[1]["ok"] is True
    decoded = decode(events[1]["tcString"])
    assert decoded["purposeConsents"] == [1, 4]
    assert decoded["vendorConsents"] == [] and decoded["specialFeatureOptins"] == []
    data, ok = answer(page, "getTCData")
    assert ok and data["eventStatus"] == "useractioncomplete" and data["tcString"] == events[1]["tcString"]
    assert true_ids(data["purpose"]["consents"]) == [1, 4]
    # The in-app form: the API answers it on the web too (tcfapi.js: the IABTCF_* values).
    in_app, ok = answer(page, "getInAppTCData")
    assert ok and in_app["purpose"]["consents"] == bits([1, 4]) and in_app["tcString"] == events[1]["tcString"]


def test_get_vendor_list_reads_consentds_list_from_another_origin(publisher):
    """The call that failed on a publisher's origin before /v1/vendor-list.json allowed any origin."""
    page = publisher()
    version = ns.gvl()["vendorListVersion"]
    for parameter, has in [(None, False), ("LATEST", True), (version, True), (str(version), True)]:
        gvl, ok = page.evaluate("""(p, has) => new Promise((resolve) => {
            const cb = (gvl, ok) => resolve([gvl && gvl.vendorListVersion, ok]);
            if (has) window.__tcfapi('getVendorList', 2, cb, p); else window.__tcfapi('getVendorList', 2, cb); })""", parameter, has)
        assert (gvl, ok) == (version, True), (page.engine, parameter)
    for parameter in [version - 1, 1, "abc"]:
        refused = page.evaluate("(p) => new Promise((resolve) => window.__tcfapi('getVendorList', 2, (g, ok) => resolve([g, ok]), p))", parameter)
        assert refused == [None, False], (page.engine, parameter)


def test_remove_event_listener_stops_the_callbacks(publisher):
    page = publisher()
    listener = page.evaluate("() => window.__events[0].listenerId")
    assert answer(page, "removeEventListener", parameter=listener) == (True, True)
    assert answer(page, "removeEventListener", parameter=listener) == (False, False), "removed already"
    notice(page).click('.ck-footer [data-action="acceptAll"]')
    page.wait_for("() => { let s; window.__tcfapi('ping', 2, (p) => { s = p.displayStatus; }); return s === 'hidden'; }")
    assert statuses(page) == ["cmpuishown"], "a removed listener is never called again"


def test_unknown_commands_and_other_versions_are_refused_and_2_0_is_version_2(publisher):
    page = publisher()
    assert call(page, "noSuchCommand")["answers"] == [[None, False]]
    for command, version in [("getTCData", 1), ("getTCData", 3), ("ping", 3), ("getTCData", "2.1")]:
        assert call(page, command, version)["answers"] == [[None, False]], (command, version)
    data, ok = answer(page, "getTCData", "2.0")
    assert ok and data["eventStatus"] == "cmpuishown"


def test_a_returning_visit_is_tcloaded_without_the_notice(publisher, publisher_site):
    page = publisher()
    notice(page).click('.ck-footer [data-action="rejectAll"]')
    wait_status(page, "useractioncomplete")
    stored = page.evaluate("() => window.__events[1].tcString")
    page.goto(publisher_site.publisher + "/")
    wait_status(page, "tcloaded")
    events = page.evaluate("() => window.__events")
    assert [e["status"] for e in events] == ["tcloaded"] and events[0]["tcString"] == stored
    assert answer(page, "ping")[0]["displayStatus"] == "disabled"
    assert page.evaluate("(s) => Array.from(document.querySelectorAll(s)).filter((f) => f.getClientRects().length > 0).length", NOTICE_FRAME) == 0


# ------------------------------------------------------------------------------------ from a frame of a third origin

def test_a_cross_origin_frame_pings_and_reads_the_data_by_post_message_once_each(publisher):
    page = publisher()
    frame = ad_frame(page)
    replies = frame_calls(frame, ({"command": "ping", "version": 2, "callId": "p-object"}, False),
                          ({"command": "ping", "version": "2.0", "callId": "p-string"}, True),
                          ({"command": "getTCData", "version": 2, "callId": "tc"}, False))
    assert sorted((r[0], r[1], r[2]) for r in replies) == [("p-object", "object", True), ("p-string", "string", True), ("tc", "object", True)]
    by_id = {r[0]: r[3] for r in replies}
    assert by_id["p-object"]["cmpLoaded"] is True and by_id["p-string"]["cmpStatus"] == "loaded"
    assert by_id["tc"]["eventStatus"] == "cmpuishown" and by_id["tc"]["gdprApplies"] is True


def test_a_cross_origin_frame_listens_by_post_message_until_it_removes_its_listener(publisher):
    page = publisher()
    frame = ad_frame(page)
    first = frame_calls(frame, ({"command": "addEventListener", "version": 2, "callId": "L"}, False))
    assert [(r[0], r[3]["eventStatus"]) for r in first] == [("L", "cmpuishown")]
    listener = first[0][3]["listenerId"]
    notice(page).click('.ck-footer [data-action="acceptAll"]')
    wait_status(page, "useractioncomplete")
    completed = settle_replies(frame)
    assert [(r[0], r[3]["eventStatus"]) for r in completed] == [("L", "cmpuishown"), ("L", "useractioncomplete")]
    assert completed[1][3]["tcString"] == page.evaluate("() => window.__events[1].tcString")
    removed = frame_calls(frame, ({"command": "removeEventListener", "version": 2, "parameter": listener, "callId": "R"}, False))
    assert [(r[0], r[3]) for r in removed] == [("R", True)]
    frame.evaluate("() => { window.replies = []; }")
    page.evaluate("() => window.ConsentKitWeb.showPreferences()")
    page.wait_for("() => window.__events.length === 3")  # the page's own listener: the notice shows again
    assert statuses(page)[2] == "cmpuishown"
    assert settle_replies(frame) == [], "no message after removeEventListener"


# ------------------------------------------------------------------------------------ the IAB's stub

def test_with_the_iab_stub_on_the_page_every_frame_call_after_cmp_js_is_answered_once(publisher):
    """Issue 27 §6: with @iabtcf/stub both message listeners answered every frame call; the IAB
    stub's contract (notice_support.IAB_STUB_CONTRACT) stands in for it, the key on cmp.js's tag."""
    page = publisher("/iab-stub.html")
    assert answer(page, "ping")[0]["cmpStatus"] == "loaded"
    frame = ad_frame(page)
    replies = frame_calls(frame, ({"command": "ping", "version": 2, "callId": "p-object"}, False),
                          ({"command": "ping", "version": 2, "callId": "p-string"}, True),
                          ({"command": "getTCData", "version": 2, "callId": "tc"}, True),
                          ({"command": "addEventListener", "version": 2, "callId": "L"}, False))
    assert sorted(r[0] for r in replies) == ["L", "p-object", "p-string", "tc"], replies
    assert {r[0]: r[1] for r in replies} == {"p-object": "object", "p-string": "string", "tc": "string", "L": "object"}
    notice(page).click('.ck-footer [data-action="acceptAll"]')
    wait_status(page, "useractioncomplete")
    later = settle_replies(frame)
    assert [(r[0], r[3]["eventStatus"]) for r in later if r[0] == "L"] == [("L", "cmpuishown"), ("L", "useractioncomplete")]
    assert len(later) == 5, "each call answered once, the listener once per event"


# ------------------------------------------------------------------------------------ axe and screenshots

def test_axe_finds_no_serious_or_critical_violation_on_the_publisher_page_with_the_notice_open(publisher):
    page = publisher()
    assert axe_violations(page) == [], "the publisher's page, the notice's frame over it"
    assert axe_violations(notice(page)) == [], "the notice in its frame"


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_notice_over_the_publisher_page_has_its_answers_in_view(publisher, size):
    """The web's layout is `auto`: a sheet below 600 CSS px, a card from 600 up, over the
    publisher's page, dimmed; the screenshots are to look at."""
    page = publisher(size=size)
    frame = notice(page)
    layout = frame.evaluate("() => document.documentElement.dataset.layout")
    assert layout == ("sheet" if size[0] < 600 else "modal")
    in_view = frame.evaluate("""() => ['acceptAll', 'rejectAll', 'manage'].map((a) => {
        const r = document.querySelector('.ck-footer [data-action=' + a + ']').getBoundingClientRect();
        return r.width > 0 && r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; })""")
    assert in_view == [True, True, True]
    page.screenshot(f"webcmp-publisher-{layout}-{'phone' if size[0] < 600 else 'desktop'}")
