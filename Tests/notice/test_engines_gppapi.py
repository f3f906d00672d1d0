"""The GPP CMP API __gpp v1.1 (Sources/ConsentKitUI/Resources/cmp: cmp-frames.js, gppapi-stub.js,
gppapi.js) in both engines (engines.py: Chromium through Playwright, WebKitGTK through Selenium),
without consentd: two small HTTP servers of this file on loopback serve the publisher's page and
the CMP scripts (one origin) and an ad frame's page (a second origin), which reads the CMP through
the __gppLocator frame and postMessage, as an ad would.

The page's CMP is driven as the web CMP will drive it: ConsentKitGPP.install(), then update() with
states written here (a California visitor before and after "Do Not Sell or Share"). The strings
are opaque to the API: it hands out the string it was given; what a string decodes to is the GPP
codec's concern, not this file's."""
from __future__ import annotations

import json
import pathlib

import pytest

import notice_support as ns

CMP_DIR = pathlib.Path(__file__).resolve().parents[2] / "Sources" / "ConsentKitUI" / "Resources" / "cmp"
PATIENCE = 30.0

USCA = {"Version": 1, "SaleOptOutNotice": 1, "SharingOptOutNotice": 1, "SensitiveDataLimitUseNotice": 1, "SaleOptOut": 2,
        "SharingOptOut": 2, "SensitiveDataProcessing": [0] * 9, "KnownChildSensitiveDataConsents": [0, 0],
        "PersonalDataConsents": 0, "MspaCoveredTransaction": 2, "MspaOptOutOptionMode": 0, "MspaServiceProviderMode": 0}
NOT_OPTED_OUT = {"gppString": "DBABBg~BVoYYYAAEABgA.QA", "sectionList": [8], "applicableSections": [8],
                 "supportedAPIs": ["7:usnat", "8:usca"], "cmpDisplayStatus": None,
                 "parsedSections": {"usca": [USCA, {"SubsectionType": 1, "Gpc": False}]}}
OPTED_OUT = dict(NOT_OPTED_OUT, gppString="DBABBg~BVVqAAEABgA.QA",
                 parsedSections={"usca": [dict(USCA, SaleOptOut=1, SharingOptOut=1), {"SubsectionType": 1, "Gpc": False}]})

FRAMES = '<script src="/cmp/cmp-frames.js"></script>'
STUB = FRAMES + '<script src="/cmp/gppapi-stub.js" data-gpp-sid="8"></script>'
API = '<script src="/cmp/gppapi.js"></script>'

# A publisher's tag that listens from the start (on the stub), as an ad slot's would.
LISTEN = """<script>
window.__events = [];
window.__gpp('addEventListener', function (e, ok) {
  window.__events.push([e.eventName, e.data, e.pingData.cmpStatus, e.pingData.signalStatus, e.listenerId, ok]);
});
</script>"""

# The ad frame's page (the second origin): finds the window that has a __gppLocator child among its
# ancestors and posts __gppCall messages to it, keeping every __gppReturn and the form it came in.
FRAME_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>An ad</title>
<script>
window.replies = [];
window.addEventListener('message', function (e) {
  var data = e.data;
  if (typeof data === 'string') { try { data = JSON.parse(data); } catch (x) { return; } }
  if (data && data.__gppReturn) window.replies.push({ form: typeof e.data, ret: data.__gppReturn });
});
function cmpWindow() {
  for (var w = window.parent; ; w = w.parent) {
    try { if (w.frames['__gppLocator']) return w; } catch (e) { }
    if (w === window.top) return null;
  }
}
window.gppCall = function (call, asString) {
  var target = cmpWindow(), message = { __gppCall: call };
  if (!target) return false;
  target.postMessage(asString ? JSON.stringify(message) : message, '*');
  return true;
};
</script></head><body><p>An ad from another origin.</p></body></html>"""

# The specification's example stub ("Using the CMP API", Examples), written here from its
# documented contract, not its code: __gpp() returns __gpp.queue; 'ping' RETURNS the ping (it calls
# no callback: GPP issue #46); 'addEventListener' keeps {id, callback, parameter} in __gpp.events
# (ids from __gpp.lastId) and returns the event; everything but the generic commands is queued as
# its arguments; one 'message' listener answers {__gppCall} by calling whatever __gpp is then.
SPEC_STUB = """<script>
(function () {
  var stub = function () {
    var a = arguments;
    if (!a.length) return stub.queue;
    if (a[0] === 'ping') return { gppVersion: '1.1', cmpStatus: 'stub', cmpDisplayStatus: 'hidden', supportedAPIs: [], cmpId: 0,
      sectionList: [], applicableSections: [-1], gppString: '' };
    if (a[0] === 'addEventListener') {
      stub.lastId++;
      stub.events.push({ id: stub.lastId, callback: a[1], parameter: a[2] });
      return { eventName: 'listenerRegistered', listenerId: stub.lastId, data: true };
    }
    if (a[0] === 'hasSection' || a[0] === 'getSection' || a[0] === 'getField') return null;
    stub.queue.push([].slice.apply(a));
  };
  stub.queue = []; stub.events = []; stub.lastId = 0;
  window.__gpp = stub;
  window.addEventListener('message', function (event) {
    var asString = typeof event.data === 'string', json;
    try { json = asString ? JSON.parse(event.data) : event.data; } catch (e) { json = null; }
    if (!json || typeof json !== 'object' || !('__gppCall' in json)) return;
    var call = json.__gppCall;
    window.__gpp(call.command, function (value, success) {
      var reply = { __gppReturn: { returnValue: value, success: success, callId: call.callId } };
      event.source.postMessage(asString ? JSON.stringify(reply) : reply, '*');
    }, call.parameter, call.version);
  });
  (function add() {
    if (!document.body) { setTimeout(add, 5); return; }
    var f = document.createElement('iframe'); f.name = '__gppLocator'; f.style.display = 'none'; document.body.appendChild(f);
  })();
})();
</script>"""


class Site(ns.TwoOrigins):
    """`publisher` serves `pages` (path -> HTML, with {ads} replaced by the ad origin) and /cmp/*
    from ConsentKitUI's cmp folder; `ads` serves the ad frame's page."""

    def __init__(self):
        self.pages = {}
        super().__init__(self.respond)

    def respond(self, path):
        html = "text/html; charset=utf-8"
        if path == "/frame.html":
            return FRAME_PAGE, html
        if path in self.pages:
            return self.pages[path].replace("{ads}", self.ads), html
        if path.startswith("/cmp/") and ".." not in path and (CMP_DIR / path[5:]).is_file():
            return (CMP_DIR / path[5:]).read_text(encoding="utf-8"), "text/javascript; charset=utf-8"
        return None


def html(head="", body=""):
    return f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A publisher</title>{head}</head><body>{body}</body></html>'


AD = '<iframe id="ad" title="An ad" src="{ads}/frame.html"></iframe>'


@pytest.fixture(scope="module")
def gpp_site():
    s = Site()
    s.pages["/"] = html(STUB + LISTEN, AD + API)
    s.pages["/spec-stub.html"] = html(SPEC_STUB + LISTEN, AD + FRAMES + API)
    s.pages["/no-stub.html"] = html("", AD + FRAMES + API)
    # A page script listening to every message before the CMP does, calling __tcfapi each time.
    s.pages["/both.html"] = html("<script>addEventListener('message', function () { if (window.__tcfapi) __tcfapi('ping', 2, function () {}); });</script>"
                                 + STUB + '<script src="/cmp/tcfapi-stub.js"></script>',
                                 AD + '<script src="/cmp/tcfapi.js"></script>' + API)
    # An ad inside an ad slot's frame, both of the second origin: the locator is two windows up.
    s.pages["/nested.html"] = html(STUB, '<iframe id="slot" title="An ad slot" src="{ads}/slot.html"></iframe>' + API)
    s.pages["/slot.html"] = html("", '<iframe id="ad" title="An ad" src="/frame.html"></iframe>')
    for sid in ("7_8", "-1", "-1_5", "x", "7_8_9"):
        s.pages[f"/sid-{sid}.html"] = html(FRAMES + f'<script src="/cmp/gppapi-stub.js" data-gpp-sid="{sid}"></script>')
    s.pages["/sid-none.html"] = html(FRAMES + '<script src="/cmp/gppapi-stub.js"></script>')
    s.pages["/twice.html"] = html(STUB + "<script>window.firstStub = window.__gpp;</script>" + STUB
                                  + '<script src="/cmp/tcfapi-stub.js"></script>', AD + API)
    yield s
    s.stop()


@pytest.fixture
def publisher(engine_page, gpp_site):
    """publisher(path="/") -> the engine's page on the publisher's site, its scripts loaded."""

    def open_page(path="/", api=True):
        page = engine_page(800, 600)
        page.goto(gpp_site.publisher + path)
        page.wait_for("(api) => document.readyState === 'complete' && (!api || !!window.ConsentKitGPP)", api, timeout=PATIENCE)
        return page

    return open_page


# ------------------------------------------------------------------------------------ helpers

# Calls __gpp on the page: {sync: answered before __gpp returned, returned: what __gpp returned
# (JSON null for undefined), answers: [[value, success], ...]}.
CALL = """(command, parameter) => new Promise((resolve) => {
  const answers = [];
  const returned = window.__gpp(command, (value, success) => { answers.push([value, success]); }, parameter === null ? undefined : parameter);
  const sync = answers.length > 0;
  setTimeout(() => resolve({ sync, returned: returned === undefined ? 'undefined' : returned, answers }), 50);
})"""


def call(page, command, parameter=None):
    return page.evaluate(CALL, command, parameter)


def answer(page, command, parameter=None):
    """The one answer of a call, given synchronously: (value, success)."""
    result = call(page, command, parameter)
    assert result["sync"] and len(result["answers"]) == 1 and result["returned"] == "undefined", f"{page.engine}: {command} {result}"
    return tuple(result["answers"][0])


def install(page):
    assert page.evaluate("() => window.ConsentKitGPP.install()") is True


def update(page, state):
    page.evaluate("(s) => { window.ConsentKitGPP.update(s); }", state)


def events(page):
    return [tuple(e[:4]) for e in page.evaluate("() => window.__events")]


def ad(page, frame_selectors=("#ad",)):
    frame = page
    for selector in frame_selectors:
        frame = frame.frame(selector)
    frame.wait_for("() => typeof window.gppCall === 'function' && document.readyState === 'complete'", timeout=PATIENCE)
    return frame


def frame_calls(frame, *calls, expect):
    """Posts each (call, asString) from the ad frame; returns the first `expect` replies as
    (callId, form, success, returnValue), after checking no other came meanwhile."""
    frame.evaluate("() => { window.replies = []; }")
    for message, as_string in calls:
        assert frame.evaluate("(c, s) => window.gppCall(c, s)", message, as_string), "the frame found the CMP's __gppLocator"
    frame.wait_for("(n) => window.replies.length >= n", expect, timeout=PATIENCE)
    import time

    time.sleep(0.3)  # time for a second answer to the same call, which must not come
    replies = frame.evaluate("() => window.replies")
    assert len(replies) == expect, replies
    return [(r["ret"]["callId"], r["form"], r["ret"]["success"], r["ret"]["returnValue"]) for r in replies]


# ------------------------------------------------------------------------------------ the stub

def test_the_stub_answers_ping_at_once_with_the_declared_section_and_returns_nothing(publisher):
    page = publisher()
    ping, ok = answer(page, "ping")
    assert ok is True
    assert ping == {"gppVersion": "1.1", "cmpStatus": "stub", "cmpDisplayStatus": "hidden", "signalStatus": "not ready",
                    "supportedAPIs": [], "cmpId": 0, "sectionList": [], "applicableSections": [8], "gppString": "",
                    "parsedSections": {}}, page.engine
    assert answer(page, "getField", "usca.SaleOptOut") == (None, True), "nothing loaded yet: null"
    assert page.evaluate("() => document.getElementsByName('__gppLocator').length") == 1
    registered = answer(page, "addEventListener")[0]
    assert (registered["eventName"], registered["listenerId"], registered["data"]) == ("listenerRegistered", 2, True), "the page's listener is 1"
    assert registered["pingData"]["cmpStatus"] == "stub"
    removed = answer(page, "removeEventListener", 2)[0]
    assert [removed[k] for k in ("eventName", "listenerId", "data")] == ["listenerRemoved", 2, True]
    assert answer(page, "removeEventListener", 2)[0]["data"] is False


def test_the_stub_reads_the_applicable_sections_from_its_tag_in_the_iabgpp_gppsid_form_and_else_says_0(publisher):
    for sid, expected in [("7_8", [7, 8]), ("-1", [-1]), ("-1_5", [0]), ("x", [0]), ("7_8_9", [0]), ("none", [0])]:
        page = publisher(f"/sid-{sid}.html", api=False)
        assert answer(page, "ping")[0]["applicableSections"] == expected, (page.engine, sid)


def test_a_sections_own_command_waits_in_the_stubs_queue_and_is_answered_in_order_at_install(publisher):
    page = publisher()
    page.evaluate("""() => { window.order = [];
      __gpp('usca.someCommand', (v, ok) => order.push(['usca.someCommand', v, ok]));
      __gpp('ping', (p) => order.push(['ping', p.cmpStatus]));
      __gpp('tcfcav1.getVendorList', (v, ok) => order.push(['tcfcav1.getVendorList', v, ok]), 2); }""")
    assert page.evaluate("() => window.order") == [["ping", "stub"]]
    install(page)
    assert page.evaluate("() => window.order") == [["ping", "stub"], ["usca.someCommand", None, False], ["tcfcav1.getVendorList", None, False]]


def test_a_listener_registered_on_the_stub_hears_every_event_of_the_api(publisher):
    page = publisher()
    install(page)
    update(page, NOT_OPTED_OUT)
    update(page, OPTED_OUT)
    assert events(page) == [("listenerRegistered", True, "stub", "not ready"), ("cmpStatus", "loading", "loading", "not ready"),
                            ("cmpStatus", "loaded", "loaded", "not ready"), ("cmpDisplayStatus", None, "loaded", "not ready"),
                            ("signalStatus", "ready", "loaded", "ready"), ("signalStatus", "not ready", "loaded", "not ready"),
                            ("sectionChange", "usca", "loaded", "not ready"), ("signalStatus", "ready", "loaded", "ready")], page.engine
    assert {e[4] for e in page.evaluate("() => window.__events")} == {1}, "the stub's listenerId throughout"


# ------------------------------------------------------------------------------------ the API

def test_after_do_not_sell_or_share_ping_is_ready_and_get_field_reads_the_opt_out(publisher):
    page = publisher()
    install(page)
    update(page, NOT_OPTED_OUT)
    assert answer(page, "getField", "usca.SaleOptOut") == (2, True)
    update(page, OPTED_OUT)
    ping = answer(page, "ping")[0]
    assert (ping["cmpStatus"], ping["signalStatus"], ping["applicableSections"], ping["gppString"], ping["cmpId"], ping["cmpDisplayStatus"]) == \
        ("loaded", "ready", [8], OPTED_OUT["gppString"], 1, None)
    assert ping["parsedSections"] == OPTED_OUT["parsedSections"]
    assert answer(page, "getField", "usca.SaleOptOut") == (1, True)
    assert answer(page, "getField", "usca.Gpc") == (False, True)
    assert answer(page, "hasSection", "usca") == (True, True)
    assert answer(page, "hasSection", "usnat") == (False, True)
    assert answer(page, "getSection", "usca") == (OPTED_OUT["parsedSections"]["usca"], True)
    assert answer(page, "getGPPData") == (None, False), "v1.0's command is gone in v1.1"


def test_without_a_stub_install_adds_the_locator_and_the_message_listener(publisher):
    page = publisher("/no-stub.html")
    install(page)
    update(page, OPTED_OUT)
    page.wait_for("() => document.getElementsByName('__gppLocator').length === 1")
    replies = frame_calls(ad(page), ({"command": "getField", "parameter": "usca.SaleOptOut", "version": "1.1", "callId": 7}, False), expect=1)
    assert replies == [(7, "object", True, 1)]


# ------------------------------------------------------------------------------------ other frames

def test_a_cross_origin_frame_reads_ping_and_get_field_through_the_gpp_locator_in_the_form_it_asked(publisher):
    page = publisher()
    frame = ad(page)
    stubbed = frame_calls(frame, ({"command": "ping", "version": "1.1", "callId": "s1"}, False), expect=1)
    assert stubbed[0][3]["cmpStatus"] == "stub"
    install(page)
    update(page, OPTED_OUT)
    replies = frame_calls(frame, ({"command": "ping", "version": "1.1", "callId": "p1"}, False),
                          ({"command": "ping", "version": "1.1", "callId": "p2"}, True),
                          ({"command": "getField", "parameter": "usca.SaleOptOut", "version": "1.1", "callId": "f1"}, True),
                          ({"command": "getField", "parameter": "usca.SharingOptOut", "version": "1.1", "callId": 4}, False), expect=4)
    assert [r[:3] for r in replies] == [("p1", "object", True), ("p2", "string", True), ("f1", "string", True), (4, "object", True)]
    for ping in (replies[0][3], replies[1][3]):
        assert (ping["signalStatus"], ping["applicableSections"], ping["gppString"]) == ("ready", [8], OPTED_OUT["gppString"])
    assert (replies[2][3], replies[3][3]) == (1, 1)


def test_a_frame_inside_a_frame_finds_the_gpp_locator_two_windows_up(publisher):
    page = publisher("/nested.html")
    install(page)
    update(page, OPTED_OUT)
    frame = ad(page, ("#slot", "#ad"))
    assert frame.evaluate("() => document.getElementsByName('__gppLocator').length + window.parent.frames.length") == 1, \
        "no locator in the ad's frame nor in the slot's (whose one frame is the ad)"
    replies = frame_calls(frame, ({"command": "getField", "parameter": "usca.SaleOptOut", "version": "1.1", "callId": "n"}, True), expect=1)
    assert replies == [("n", "string", True, 1)]


def test_a_cross_origin_frame_listens_by_post_message_until_it_removes_its_listener(publisher):
    page = publisher()
    install(page)
    update(page, NOT_OPTED_OUT)
    frame = ad(page)
    registered = frame_calls(frame, ({"command": "addEventListener", "version": "1.1", "callId": "L"}, True), expect=1)
    listener_id = registered[0][3]["listenerId"]
    assert registered[0][3]["eventName"] == "listenerRegistered" and registered[0][3]["pingData"]["signalStatus"] == "ready"
    frame.evaluate("() => { window.replies = []; }")
    update(page, OPTED_OUT)
    frame.wait_for("() => window.replies.length >= 3", timeout=PATIENCE)
    heard = frame.evaluate("() => window.replies")
    assert [(r["ret"]["callId"], r["ret"]["returnValue"]["eventName"], r["ret"]["returnValue"]["data"]) for r in heard] == \
        [("L", "signalStatus", "not ready"), ("L", "sectionChange", "usca"), ("L", "signalStatus", "ready")]
    removed = frame_calls(frame, ({"command": "removeEventListener", "parameter": listener_id, "version": "1.1", "callId": "R"}, True), expect=1)
    assert removed[0][3]["eventName"] == "listenerRemoved" and removed[0][3]["data"] is True
    frame.evaluate("() => { window.replies = []; }")
    update(page, NOT_OPTED_OUT)
    assert frame_calls(frame, ({"command": "ping", "callId": "after"}, False), expect=1)[0][0] == "after", "no event after the removal"


def test_the_specifications_example_stub_is_taken_over_with_its_queue_and_listeners_and_each_frame_call_answered_once(publisher):
    page = publisher("/spec-stub.html")
    page.evaluate("() => { window.queued = []; __gpp('usca.someCommand', (v, ok) => queued.push([v, ok])); }")
    install(page)
    update(page, OPTED_OUT)
    assert page.evaluate("() => window.queued") == [[None, False]]
    # The example stub's addEventListener returned its event instead of calling back: the listener
    # hears the API's events from the first one on.
    assert events(page) == [("cmpStatus", "loading", "loading", "not ready"), ("cmpStatus", "loaded", "loaded", "not ready"),
                            ("cmpDisplayStatus", None, "loaded", "not ready"), ("signalStatus", "ready", "loaded", "ready")], page.engine
    assert answer(page, "addEventListener")[0]["listenerId"] == 2, "ids go on after the stub's"
    replies = frame_calls(ad(page), ({"command": "getField", "parameter": "usca.SaleOptOut", "callId": 1}, False),
                          ({"command": "ping", "callId": 2}, True), expect=2)
    assert [(r[0], r[3] if r[0] == 1 else r[3]["signalStatus"]) for r in replies] == [(1, 1), (2, "ready")]


def test_one_gpp_locator_beside_the_tcfapi_locator_even_with_the_stub_twice(publisher):
    page = publisher("/twice.html")
    page.wait_for("() => document.getElementsByName('__tcfapiLocator').length === 1")
    page.evaluate("() => new Promise((r) => setTimeout(r, 100))")  # longer than a stub's wait for <body>
    assert page.evaluate("""() => [window.__gpp === window.firstStub, document.getElementsByName('__gppLocator').length,
        document.getElementsByName('__tcfapiLocator').length, typeof window.__tcfapi]""") == [True, 1, 1, "function"]
    install(page)
    update(page, OPTED_OUT)
    replies = frame_calls(ad(page), ({"command": "ping", "callId": "g"}, False), expect=1)
    assert replies[0][3]["gppString"] == OPTED_OUT["gppString"]


def test_a_page_script_calling_tcfapi_while_a_frames_gpp_call_arrives_silences_no_answer(publisher):
    page = publisher("/both.html")
    page.evaluate("() => { ConsentKitTCF.install({}); ConsentKitTCF.update({ gdprApplies: false }); }")
    install(page)
    update(page, OPTED_OUT)
    replies = frame_calls(ad(page), ({"command": "getField", "parameter": "usca.SaleOptOut", "version": "1.1", "callId": "g"}, False), expect=1)
    assert replies == [("g", "object", True, 1)]
