"""The web CMP on a real page: consentd's /demo site (a publisher's page that loads /cmp/stub.js
first in <head> and /cmp/cmp.js with the demo site's publishable key), its ad slot and its ad frame
on a second loopback origin. Items 26-42 of docs' section 8 (the __tcfapi contract and frames),
checked against what consentd and ConsentKit's own decoder (`consent decode --json`) say.

The API's contract in isolation (queue order, versions, listeners, postMessage forms, the injected
mode) is tested on pages without a server in test_tcfapi.py; this file proves it on the product.
It needs consentd (marked `consentd`): the server package's build, or CONSENTD_BIN."""
from __future__ import annotations

import json
import re
import subprocess
import urllib.error
import urllib.request

import pytest

import notice_support as ns

pytestmark = pytest.mark.consentd

EEA = "region=eea"
# The notice's frame, named by the document's texts (noticeTitle; the demo's documents are English).
NOTICE_FRAME = 'iframe[title="Privacy settings"]'


# ------------------------------------------------------------------------------------ helpers

def open_site(page, query=EEA, wait_for="cmpuishown"):
    """Opens /demo and waits until the ad slot's listener saw `wait_for` (None: do not wait)."""
    page.goto(ns.consentd().url + "/demo" + ("?" + query if query else ""))
    if wait_for:
        wait_status(page, wait_for)


def wait_status(page, status):
    page.wait_for_function("(s) => document.getElementById('api-status').textContent.startsWith(s)", arg=status)


CALL = """([command, version, parameter, hasParameter]) => new Promise((resolve) => {
  const answers = [];
  const callback = (value, success) => { answers.push({ value, success }); };
  if (hasParameter) window.__tcfapi(command, version, callback, parameter);
  else window.__tcfapi(command, version, callback);
  const sync = answers.length > 0;
  setTimeout(() => resolve({ sync, answers }), 50);
})"""


def call(page, command, version=2, parameter=None, has_parameter=False):
    """Calls __tcfapi on the page: {'sync': answered before returning, 'answers': [{value, success}]}."""
    return page.evaluate(CALL, [command, version, parameter, has_parameter or parameter is not None])


def first(page, command, version=2, parameter=None, **kw):
    answers = call(page, command, version, parameter, **kw)["answers"]
    assert answers, f"{command} did not answer"
    return answers[0]["value"], answers[0]["success"]


def notice(page):
    return page.frame_locator(NOTICE_FRAME)


def click_notice(page, action):
    notice(page).locator(f"[data-action={action}]").first.click()


def cookie(page, name="euconsent-v2"):
    found = [c["value"] for c in page.context.cookies() if c["name"] == name]
    return found[0] if found else None


def decode(tc_string):
    binary = ns.consentd_binary().rsplit("/", 1)[0] + "/consent"
    out = subprocess.run([binary, "decode", "--json", tc_string], capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def true_ids(mapping):
    return sorted(int(k) for k, v in (mapping or {}).items() if v)


def record_events(page):
    """Registers a listener that records every event; returns nothing (read window.__events)."""
    page.evaluate("""() => { window.__events = []; window.__tcfapi('addEventListener', 2, (d, ok) => {
      window.__events.push({ status: d && d.eventStatus, listenerId: d && d.listenerId, tcString: d && d.tcString, ok }); }); }""")


def events(page):
    return page.evaluate("() => window.__events")


def hold(page, pattern="**/v1/web/session"):
    """Holds the requests matching `pattern` until the returned release() is called."""
    held = []
    page.route(pattern, lambda route: held.append(route))

    def release():
        for route in held:
            route.continue_()
        page.unroute(pattern)
        return len(held)
    return release


# ------------------------------------------------------------------------------------ 8.4: the contract

def test_the_start_hands_its_internals_to_the_client_once_and_no_page_script_reaches_them(new_page):
    page = new_page()
    open_site(page)
    assert page.evaluate("Object.keys(window).includes('ConsentKitWebStart')") is False, "not listed among the page's globals"
    assert page.evaluate("Object.isFrozen(window.ConsentKitWebStart)") is True
    assert page.evaluate("Object.keys(window.ConsentKitWebStart)") == ["take"]
    assert page.evaluate("window.ConsentKitWebStart.take()") is None, "cmp-web.js took call(), keep() and credential() already"
    page.evaluate("() => { try { window.ConsentKitWebStart = { take: () => ({}) }; } catch (e) {} }")
    assert page.evaluate("window.ConsentKitWebStart.take()") is None, "the hand-over cannot be replaced"


def test_the_notice_frame_is_named_by_the_documents_texts(new_page):
    page = new_page()
    open_site(page)
    english = ns.texts("en")["noticeTitle"]
    assert page.locator("iframe").evaluate_all("fs => fs.map(f => f.title)").count(english) == 1
    assert notice(page).locator("html").evaluate("() => document.title") == english


def test_item26_the_stub_is_the_first_script_and_a_function_before_any_other(new_page):
    html = urllib.request.urlopen(ns.consentd().url + "/demo").read().decode()
    head = html.split("</head>")[0]
    scripts = re.findall(r'<script[^>]*src="([^"]+)"', head)
    assert scripts[0] == "/cmp/stub.js", scripts
    assert head.index("<script") < head.index("<link rel=\"stylesheet\""), "the stub comes before anything that may block"
    page = new_page()
    open_site(page)
    # site.js, the next script, calls __tcfapi synchronously while the page loads: no error means it was a function.
    assert page.evaluate("typeof window.__tcfapi") == "function"
    assert page.ck_errors == []


def test_item27_28_35_with_only_the_stub_ping_is_synchronous_and_other_calls_wait_in_order(new_page):
    page = new_page()
    release = hold(page)
    open_site(page, wait_for=None)
    page.wait_for_load_state("domcontentloaded")
    ping = call(page, "ping")
    assert ping["sync"], "the stub answers ping synchronously"
    value = ping["answers"][0]["value"]
    assert value["cmpLoaded"] is False and value["cmpStatus"] == "stub" and value["apiVersion"] == "2"
    page.evaluate("""() => { window.__order = [];
      window.__tcfapi('addEventListener', 2, (d) => window.__order.push('addEventListener:' + d.eventStatus));
      window.__tcfapi('getTCData', 2, (d) => window.__order.push('getTCData:' + (d && d.gdprApplies)));
      window.__tcfapi('ping', 2, (p) => window.__order.push('ping:' + p.cmpStatus)); }""")
    page.wait_for_timeout(300)
    # Item 35: while gdprApplies is unknown (consentd has not answered), no data callback runs.
    assert page.evaluate("() => window.__order") == ["ping:stub"]
    assert release() == 1
    page.wait_for_function("() => window.__order.length === 3")
    assert page.evaluate("() => window.__order") == ["ping:stub", "addEventListener:cmpuishown", "getTCData:true"]


def test_item29_ping_after_load_names_the_cmp_and_the_display(new_page):
    page = new_page()
    open_site(page)
    ping, ok = first(page, "ping")
    assert ok is not False
    assert ping["cmpLoaded"] is True and ping["cmpStatus"] == "loaded" and ping["apiVersion"] == "2"
    assert (ping["cmpId"], ping["cmpVersion"]) == (4095, 1)
    assert (ping["gvlVersion"], ping["tcfPolicyVersion"]) == (ns.gvl()["vendorListVersion"], ns.gvl()["tcfPolicyVersion"])
    assert ping["gdprApplies"] is True
    assert ping["displayStatus"] == "visible"
    click_notice(page, "rejectAll")
    wait_status(page, "useractioncomplete")
    assert first(page, "ping")[0]["displayStatus"] == "hidden"
    open_site(page, wait_for="tcloaded")
    assert first(page, "ping")[0]["displayStatus"] == "disabled", "the stored string is current: the UI will not show"


def test_item30_listener_ids_and_the_three_statuses_in_a_page_view(new_page):
    page = new_page()
    open_site(page)
    record_events(page)
    first_event = events(page)[0]
    assert isinstance(first_event["listenerId"], int) and first_event["ok"] is True
    assert first_event["status"] == "cmpuishown"
    shown_string = first_event["tcString"]
    click_notice(page, "acceptAll")
    page.wait_for_function("() => window.__events.length >= 2")
    second = events(page)[1]
    assert second["status"] == "useractioncomplete" and second["listenerId"] == first_event["listenerId"]
    assert second["tcString"] and second["tcString"] != shown_string
    open_site(page, wait_for="tcloaded")
    record_events(page)
    assert [e["status"] for e in events(page)] == ["tcloaded"]
    # Reopened from "Privacy settings" after tcloaded: all three occur.
    page.click("#privacy-settings")
    page.wait_for_function("() => window.__events.length >= 2")
    click_notice(page, "save")
    page.wait_for_function("() => window.__events.length >= 3")
    assert [e["status"] for e in events(page)] == ["tcloaded", "cmpuishown", "useractioncomplete"]


def test_item31_while_the_notice_shows_every_consent_is_false_and_disclosed_interests_are_established(new_page):
    page = new_page()
    open_site(page)
    data, ok = first(page, "getTCData")
    assert ok and data["eventStatus"] == "cmpuishown"
    assert true_ids(data["purpose"]["consents"]) == [] and true_ids(data["vendor"]["consents"]) == []
    assert true_ids(data["specialFeatureOptins"]) == []
    shown = true_ids(data["vendor"]["disclosedVendors"])
    assert len(shown) == 20
    vendors = {v["id"]: v for v in ns.live_vendors()}
    # TCF 2.3: a purpose is on legitimate interest as declared (a flexible purpose only as its
    # default basis; the site sets no restriction), never purposes 1 and 3-6; a vendor's bit is
    # set when it has such a purpose or a special purpose (disclosed, never objected to).
    def interests(v):
        return {p for p in vendors[v].get("legIntPurposes", []) if p not in ns.NO_LI_PURPOSES}
    assert true_ids(data["purpose"]["legitimateInterests"]) == sorted(set().union(*(interests(v) for v in shown)))
    li_vendors = true_ids(data["vendor"]["legitimateInterests"])
    assert li_vendors == sorted(v for v in shown if interests(v) or vendors[v].get("specialPurposes"))
    assert any(not interests(v) for v in li_vendors), "the site shows a vendor whose only legitimate interest is a special purpose"


def consentkit_tcdata(data, cmp_id, cmp_version):
    """The TCData ConsentKit's Swift code writes for `data`'s string and AC string, in the API's
    own form (`consent webview-script --payload`: TCData.json(), id maps as objects)."""
    binary = ns.consentd_binary().rsplit("/", 1)[0] + "/consent"
    options = ["--addtl-consent", data["addtlConsent"]] if "addtlConsent" in data else []
    out = subprocess.run([binary, "webview-script", "--tc-string", data["tcString"], *options, "--gdpr-applies", "1",
                          "--cmp-id", str(cmp_id), "--cmp-version", str(cmp_version), "--payload"],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)["tcData"]


def test_item31_the_apis_tcdata_is_consentkits_object_for_its_string_shown_chosen_and_stored(new_page):
    """consentd's session answer writes the id maps as binary strings; what the API answers is
    the object form, every id up to the largest a key, as ConsentKit writes it for the same string."""
    page = new_page()
    open_site(page)
    ping = first(page, "ping")[0]
    for status in ["cmpuishown", "useractioncomplete", "tcloaded"]:
        if status == "useractioncomplete":
            click_notice(page, "acceptAll")
        if status == "tcloaded":
            open_site(page, wait_for="tcloaded")
        wait_status(page, status)
        data, ok = first(page, "getTCData")
        assert ok and data.pop("eventStatus") == status and data.pop("cmpStatus") == "loaded"
        expected = consentkit_tcdata(data, ping["cmpId"], ping["cmpVersion"])
        assert data == expected, status
        assert len(data["vendor"]["disclosedVendors"]) == max(true_ids(data["vendor"]["disclosedVendors"])) > 20, "false for the ids between"


def test_item32_remove_event_listener_stops_the_callbacks(new_page):
    page = new_page()
    open_site(page)
    record_events(page)
    listener = events(page)[0]["listenerId"]
    removed, _ = first(page, "removeEventListener", parameter=listener)
    assert removed is True
    click_notice(page, "acceptAll")
    wait_status(page, "useractioncomplete")
    assert len(events(page)) == 1, "a removed listener is never called again"
    unknown, _ = first(page, "removeEventListener", parameter=987654)
    assert unknown is False


@pytest.mark.parametrize("storage", ["cookie", "localStorage"])
def test_item33_the_api_string_is_the_stored_string(new_page, storage):
    page = new_page()
    open_site(page, EEA + "&storage=" + storage)
    click_notice(page, "acceptAll")
    wait_status(page, "useractioncomplete")
    stored = cookie(page) if storage == "cookie" else page.evaluate("() => localStorage.getItem('euconsent-v2')")
    assert stored
    assert first(page, "getTCData")[0]["tcString"] == stored
    open_site(page, EEA + "&storage=" + storage, wait_for="tcloaded")
    record_events(page)
    assert events(page)[0]["tcString"] == stored
    assert first(page, "getTCData")[0]["tcString"] == stored


def test_item34_the_maps_decode_equal_the_string(new_page):
    page = new_page()
    open_site(page)
    notice(page).locator("[data-action=manage]").first.click()
    toggles = notice(page).locator("input[data-kind=purpose]")
    toggles.nth(0).check()
    toggles.nth(2).check()
    click_notice(page, "save")
    wait_status(page, "useractioncomplete")
    data = first(page, "getTCData")[0]
    d = decode(data["tcString"])
    assert true_ids(data["purpose"]["consents"]) == d["purposeConsents"]
    assert true_ids(data["purpose"]["legitimateInterests"]) == d["purposeLegitimateInterests"]
    assert true_ids(data["vendor"]["consents"]) == d["vendorConsents"]
    assert true_ids(data["vendor"]["legitimateInterests"]) == d["vendorLegitimateInterests"]
    assert true_ids(data["vendor"]["disclosedVendors"]) == d["disclosedVendors"]
    assert true_ids(data["specialFeatureOptins"]) == d["specialFeatureOptins"]
    assert true_ids(data["publisher"]["consents"]) == d.get("publisherConsents", [])
    assert true_ids(data["publisher"]["legitimateInterests"]) == d.get("publisherLegitimateInterests", [])
    assert data["publisherCC"] == d["publisherCountryCode"]
    assert data["purposeOneTreatment"] == d["purposeOneTreatment"]
    assert data["isServiceSpecific"] is True and d["isServiceSpecific"] is True
    assert data["tcfPolicyVersion"] == d["policyVersion"]
    assert data["addtlConsent"] == cookie(page, "addtl_consent")


def test_item35_gdpr_not_applying_gives_no_string_and_no_notice(new_page):
    page = new_page()
    open_site(page, "region=not_eea", wait_for=None)
    page.wait_for_function("() => document.getElementById('api-status').textContent.includes('GDPR does not apply')")
    page.wait_for_timeout(200)
    data, ok = first(page, "getTCData")
    assert ok and data["gdprApplies"] is False and "tcString" not in data
    assert first(page, "ping")[0]["displayStatus"] == "disabled"
    assert page.locator(NOTICE_FRAME).count() == 0


def test_item36_versions_unknown_commands_and_bad_parameters_are_refused(new_page):
    page = new_page()
    open_site(page)
    for command, version in [("ping", 1), ("getTCData", 1), ("getTCData", 3), ("ping", 3)]:
        assert call(page, command, version)["answers"] == [{"value": None, "success": False}], (command, version)
    for version in [0, None]:
        assert first(page, "getTCData", version)[1] is True
    assert call(page, "noSuchCommand")["answers"] == [{"value": None, "success": False}]
    assert call(page, "getTCData", 2, "x")["answers"] == [{"value": None, "success": False}]
    filtered, ok = first(page, "getTCData", 2, [755, 99999])
    assert ok and set(filtered["vendor"]["consents"]) == {"755", "99999"}


def bits(ids):
    return "".join("1" if i in set(ids) else "0" for i in range(1, max(ids) + 1)) if ids else ""


def test_item37_in_app_data_is_the_in_app_keys(new_page):
    page = new_page()
    open_site(page)
    click_notice(page, "acceptAll")
    wait_status(page, "useractioncomplete")
    data, ok = first(page, "getInAppTCData")
    assert ok
    d = decode(data["tcString"])
    # The IABTCF_* values: position n is id n+1, as long as the highest id set (IABKeyValues).
    assert data["gdprApplies"] == 1 and data["purposeOneTreatment"] == 0 and data["isServiceSpecific"] == 1
    assert data["purpose"]["consents"] == bits(d["purposeConsents"])
    assert data["purpose"]["legitimateInterests"] == bits(d["purposeLegitimateInterests"])
    assert data["vendor"]["consents"] == bits(d["vendorConsents"])
    assert data["vendor"]["legitimateInterests"] == bits(d["vendorLegitimateInterests"])
    assert data["vendor"]["disclosedVendors"] == bits(d["disclosedVendors"])
    assert data["specialFeatureOptins"] == bits(d["specialFeatureOptins"])
    assert data["publisher"]["consents"] == bits(d.get("publisherConsents", []))


def test_item38_the_vendor_list_of_the_string_or_the_latest(new_page):
    page = new_page()
    open_site(page)
    version = ns.gvl()["vendorListVersion"]
    for parameter, has in [(None, False), ("LATEST", True), (version, True)]:
        answers = page.evaluate("""([p, has]) => new Promise((resolve) => {
          const cb = (gvl, ok) => resolve({ version: gvl && gvl.vendorListVersion, ok });
          if (has) window.__tcfapi('getVendorList', 2, cb, p); else window.__tcfapi('getVendorList', 2, cb); })""", [parameter, has])
        assert answers == {"version": version, "ok": True}, parameter
    for parameter in [1, "abc", version - 1]:
        answers = page.evaluate("""(p) => new Promise((resolve) => window.__tcfapi('getVendorList', 2, (g, ok) => resolve([g, ok]), p))""", parameter)
        assert answers == [None, False], parameter


def test_item39_ping_is_answered_synchronously_and_the_first_event_is_the_decision(new_page):
    """The figures (ping after load, the first event after DOMContentLoaded, against Google's 500 ms)
    are measured by scripts/bench-notice, not asserted here: this checks what makes them small."""
    page = new_page()
    open_site(page)
    assert call(page, "ping")["sync"], "ping never waits"
    click_notice(page, "acceptAll")
    wait_status(page, "useractioncomplete")
    for wait_for in ["tcloaded"]:
        open_site(page, wait_for=wait_for)
        assert page.evaluate("() => window.demoTimings.firstStatus") == "tcloaded"
    page.context.clear_cookies()
    open_site(page, wait_for="cmpuishown")
    assert page.evaluate("() => window.demoTimings.firstStatus") == "cmpuishown"


def count_sessions(page):
    """Counts the page's POST /v1/web/session requests: page.ck_sessions."""
    page.ck_sessions = []
    page.on("request", lambda r: page.ck_sessions.append(r) if r.url.endswith("/v1/web/session") else None)


def test_the_stub_asks_for_the_page_view_before_cmp_js_runs_and_once(new_page):
    """The site's key is on the stub's tag: the stub opens the page view's session while the page is
    parsed, and cmp.js (async, often run only at DOMContentLoaded) takes that answer instead of
    asking again, for a first visit and a returning one alike."""
    page = new_page()
    count_sessions(page)
    release = hold(page, "**/cmp/cmp.js")
    page.goto(ns.consentd().url + "/demo?" + EEA, wait_until="domcontentloaded")  # "load" waits for cmp.js
    page.wait_for_function("() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/v1/web/session'))")
    assert page.evaluate("() => window.ConsentKitWeb === undefined && window.ConsentKitTCF === undefined"), "cmp.js is held"
    assert release() == 1
    wait_status(page, "cmpuishown")
    assert len(page.ck_sessions) == 1
    click_notice(page, "acceptAll")
    wait_status(page, "useractioncomplete")
    page.ck_sessions.clear()
    open_site(page, wait_for="tcloaded")
    assert len(page.ck_sessions) == 1, "a returning visitor's page view asks consentd once"


def test_without_a_key_on_either_tag_the_api_reads_error_never_a_guess(new_page):
    page = new_page()
    console = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    count_sessions(page)
    url = ns.consentd().url + "/demo/no-key.html"
    page.route(url, lambda route: route.fulfill(content_type="text/html", body="""<!doctype html><html><head>
      <script src="/cmp/stub.js"></script><script src="/cmp/cmp.js" async></script></head><body><p>No key</p></body></html>"""))
    page.goto(url)
    page.wait_for_function("() => window.__tcfapi && (() => { let s; window.__tcfapi('ping', 2, (p) => { s = p.cmpStatus; }); return s === 'error'; })()")
    value, success = first(page, "getTCData")
    assert success is False and value is None
    assert any("no data-key" in text for text in console), console
    assert page.ck_sessions == []


# ------------------------------------------------------------------------------------ 8.5: frames

def test_item40_one_locator_frame_even_with_the_stub_loaded_twice_and_a_framed_ad(new_page):
    page = new_page()
    open_site(page)
    page.wait_for_function("() => document.getElementById('ad-frame').src !== ''")
    page.evaluate("""() => new Promise((resolve) => { const s = document.createElement('script');
      s.src = '/cmp/stub.js'; s.onload = resolve; document.head.appendChild(s); })""")
    page.wait_for_timeout(100)
    assert page.locator("iframe[name=__tcfapiLocator]").count() == 1
    ad = ad_frame(page)
    assert ad.locator("iframe[name=__tcfapiLocator]").count() == 0


def test_the_locator_frames_exist_once_the_stub_has_run_before_the_body_is_parsed(new_page):
    # A script right after the stub's tag, still in <head>, finds both locators (children of <html>
    # until there is a <body>): a frame made that early finds the CMP, and the locators are not
    # made later in a timer, when the notice's frame arrives.
    page = new_page()
    url = ns.consentd().url + "/demo/head.html"
    key = page.context.request.get(ns.consentd().url + "/demo").text().split('data-key="')[1].split('"')[0]
    page.route(url, lambda route: route.fulfill(content_type="text/html", body=f"""<!doctype html><html><head>
      <script src="/cmp/stub.js" data-key="{key}" data-debug-region="eea"></script>
      <script>window.seenInHead = [!!document.body, !!window.frames['__tcfapiLocator'], !!window.frames['__gppLocator']];</script>
      </head><body><p>An article</p></body></html>"""))
    page.goto(url)
    assert page.evaluate("window.seenInHead") == [False, True, True]
    assert page.evaluate("""() => ['__tcfapiLocator', '__gppLocator'].map((n) => {
      const found = document.getElementsByName(n); return [found.length, found[0].parentElement.tagName]; })""") == [[1, "HTML"], [1, "HTML"]]


def ad_frame(page):
    page.wait_for_function("() => document.getElementById('ad-frame').src !== ''")
    url = page.evaluate("() => document.getElementById('ad-frame').src")
    assert not url.startswith(ns.consentd().url), "the ad frame is on another origin"
    for _ in range(100):
        frame = next((f for f in page.frames if f.url == url), None)
        if frame:
            frame.wait_for_load_state("load")
            return frame
        page.wait_for_timeout(50)
    raise AssertionError("the ad frame did not load")


POST_FROM_FRAME = """([request, asString, count]) => new Promise((resolve) => {
  const replies = [];
  window.addEventListener('message', (e) => {
    const raw = e.data; let data = raw;
    if (typeof raw === 'string') { try { data = JSON.parse(raw); } catch (x) { return; } }
    if (data && data.__tcfapiReturn && data.__tcfapiReturn.callId === request.__tcfapiCall.callId) {
      replies.push({ type: typeof raw, ret: data.__tcfapiReturn });
      if (replies.length >= count) resolve(replies);
    }
  });
  window.parent.postMessage(asString ? JSON.stringify(request) : request, '*');
  setTimeout(() => resolve(replies), 1500);
})"""


def test_item41_a_cross_origin_frame_pings_in_object_and_string_form(new_page):
    page = new_page()
    open_site(page)
    ad = ad_frame(page)
    for as_string, call_id in [(False, "a1"), (True, "a2")]:
        replies = ad.evaluate(POST_FROM_FRAME, [{"__tcfapiCall": {"command": "ping", "version": 2, "callId": call_id}}, as_string, 1])
        assert len(replies) == 1
        assert replies[0]["type"] == ("string" if as_string else "object")
        ret = replies[0]["ret"]
        assert ret["callId"] == call_id and ret["success"] is True and ret["returnValue"]["cmpLoaded"] is True


def test_item42_add_event_listener_by_post_message_repeats_the_call_id_and_remove_stops_it(new_page):
    page = new_page()
    open_site(page)
    ad = ad_frame(page)
    ad.evaluate("""() => { window.__got = []; window.addEventListener('message', (e) => {
      const r = e.data && e.data.__tcfapiReturn; if (r && r.callId === 'listen') window.__got.push(r); });
      window.parent.postMessage({ __tcfapiCall: { command: 'addEventListener', version: 2, callId: 'listen' } }, '*'); }""")
    ad.wait_for_function("() => window.__got.length === 1")
    listener = ad.evaluate("() => window.__got[0].returnValue.listenerId")
    assert ad.evaluate("() => window.__got[0].returnValue.eventStatus") == "cmpuishown"
    click_notice(page, "acceptAll")
    ad.wait_for_function("() => window.__got.length === 2")
    got = ad.evaluate("() => window.__got")
    assert got[1]["callId"] == "listen" and got[1]["returnValue"]["eventStatus"] == "useractioncomplete"
    assert got[1]["returnValue"]["tcString"] == cookie(page)
    removed = ad.evaluate(POST_FROM_FRAME, [{"__tcfapiCall": {"command": "removeEventListener", "version": 2, "parameter": listener,
                                                              "callId": "remove"}}, False, 1])
    assert removed[0]["ret"]["returnValue"] is True or removed[0]["ret"]["success"] is True
    page.click("#privacy-settings")
    wait_status(page, "cmpuishown")
    page.wait_for_timeout(200)
    assert len(ad.evaluate("() => window.__got")) == 2, "no message after removeEventListener"


def test_the_site_works_under_its_content_security_policy(browser):
    """consentd's pages refuse inline scripts and styles: the CMP, its notice frame and the ad frame
    must work under that policy (the other tests bypass it to evaluate their own scripts)."""
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    try:
        page = context.new_page()
        problems = []
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.goto(ns.consentd().url + "/demo?" + EEA)
        overlay = page.locator(NOTICE_FRAME)
        notice(page).locator("[data-action=acceptAll]").first.wait_for()
        box = overlay.bounding_box()
        assert box["width"] == 1024 and box["height"] == 768, "the notice covers the page"
        notice(page).locator("[data-action=acceptAll]").first.click()
        page.locator("#api-status", has_text="useractioncomplete").wait_for()
        page.frame_locator("#ad-frame").locator("#status", has_text="consent for storage").wait_for()
        assert problems == []
    finally:
        context.close()


# ------------------------------------------------------------------------------------ issue 24

def sessions(page):
    """Records the body of every POST /v1/web/session the page sends (a list, filled as they go)."""
    sent = []
    page.on("request", lambda r: sent.append(json.loads(r.post_data)) if r.url.endswith("/v1/web/session") and r.method == "POST" else None)
    return sent


SITE_B_KEY = "ck_pub_otherkey0000_notakeyconsentdknowsofxxxxxxxxxx"
SITE_B = f"""<!doctype html><html><head><title>Site B</title>
<script src="/cmp/stub.js" data-key="{SITE_B_KEY}" data-debug-region="eea"></script>
<script src="/cmp/cmp.js" async></script></head><body><p>Another site on the same origin.</p></body></html>"""


def test_l1_two_sites_on_one_origin_keep_separate_subjects(new_page):
    page = new_page()
    open_site(page)
    click_notice(page, "rejectAll")
    wait_status(page, "useractioncomplete")
    stored = page.evaluate("() => Object.fromEntries(Object.keys(localStorage).filter(k => k.startsWith('consentkit-subject')).map(k => [k, localStorage.getItem(k)]))")
    assert len(stored) == 1, stored
    site_a = json.loads(next(iter(stored.values())))
    assert site_a["subjectToken"].startswith("ckt_")

    # Site B on the same origin never sends site A's token, not even one stored under its own name.
    page.route(ns.consentd().url + "/site-b.html", lambda route: route.fulfill(status=200, content_type="text/html", body=SITE_B))
    for planted in (False, True):
        if planted:
            page.evaluate("(v) => localStorage.setItem('consentkit-subject:otherkey0000', v)", next(iter(stored.values())))
        sent = sessions(page)
        page.goto(ns.consentd().url + "/site-b.html")
        page.wait_for_function("() => window.ConsentKitWeb && true")
        page.evaluate("() => window.ConsentKitWeb.ready")
        assert sent and all(body["credential"] == SITE_B_KEY for body in sent), sent

    # Site A still speaks for its own subject, kept under its key's id.
    sent = sessions(page)
    open_site(page, wait_for="tcloaded")
    assert [body["credential"] for body in sent] == [site_a["subjectToken"]]
    site_a_key_id = demo_key().split("_")[2]
    assert list(stored) == ["consentkit-subject:" + site_a_key_id], stored


def demo_key():
    return re.search(r'data-key="(ck_pub_[^"]+)"', urllib.request.urlopen(ns.consentd().url + "/demo").read().decode()).group(1)


FORGE = """(tc) => {
  const fake = { gdprApplies: true, tcString: tc };
  const outcome = [];
  for (const secret of [undefined, 'guess-guess-guess-guess-guess-gu']) {
    try { window.ConsentKitTCF.fromApp(fake, secret); outcome.push('taken'); } catch (e) { outcome.push('refused'); }
  }
  try { window.ConsentKitAppConsent = fake; } catch (e) { }
  window.dispatchEvent(new CustomEvent('consentkit:appconsent', { detail: fake }));
  return outcome;
}"""


def test_m4_a_page_script_calling_fromApp_without_the_secret_changes_nothing_and_records_nothing(new_page):
    accepted = ns.consentd().post("/v1/web/choices", {"credential": demo_key(), "message": {
        "protocol": 1, "type": "result", "action": "acceptAll", "layer": 1, "language": "en", "noticeVersion": 0}})["tcString"]
    page = new_page()
    recorded = []
    page.on("request", lambda r: recorded.append(r.post_data) if r.url.endswith("/v1/web/choices") else None)
    # A third-party tag that runs first and poses as the app (the review's reproduction) ...
    page.add_init_script("window.ConsentKitAppConsent = { gdprApplies: true, tcString: %s };" % json.dumps(accepted))
    open_site(page)
    # ... and again once the CMP is there.
    assert page.evaluate(FORGE, accepted) == ["refused", "refused"]
    page.wait_for_timeout(500)
    assert recorded == [], "nothing was sent to consentd"
    assert page.locator(NOTICE_FRAME).count() == 1, "the visitor is still asked"
    data, ok = first(page, "getTCData")
    assert ok and data["eventStatus"] == "cmpuishown" and true_ids(data["purpose"]["consents"]) == []
    assert cookie(page) is None
    # What such a script could send itself: consentd records no app consent with the page key alone.
    request = urllib.request.Request(ns.consentd().url + "/v1/web/choices", method="POST", headers={"Content-Type": "text/plain"},
                                     data=json.dumps({"credential": demo_key(), "appConsent": {"tcString": accepted}}).encode())
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=30)
    assert refused.value.code == 403


# ------------------------------------------------------------------------------------ __gpp beside __tcfapi (issue 28 §3)

GPP_PING = """() => new Promise((resolve) => window.__gpp('ping', (data) => resolve(data)))"""
GPP_READY = """() => new Promise((resolve) => {
  window.__gpp('addEventListener', (e) => { if (e.pingData.cmpStatus === 'loaded' && e.pingData.signalStatus === 'ready') resolve(true); });
})"""


def test_gpp_in_california_is_ready_with_usca_before_any_click_and_a_cross_origin_frame_reads_it(new_page):
    page = new_page()
    open_site(page, "region=us-ca", wait_for=None)
    page.evaluate(GPP_READY)
    ping = page.evaluate(GPP_PING)
    assert ping["applicableSections"] == [8] and ping["sectionList"] == [8] and ping["gppString"].startswith("DB")
    usca = ping["parsedSections"]["usca"]
    assert usca[0]["SaleOptOut"] == 2 and usca[0]["SaleOptOutNotice"] == 2, "no choice yet: notice not provided, not opted out"
    assert usca[1] == {"SubsectionType": 1, "Gpc": False}
    assert first(page, "getTCData")[0]["gdprApplies"] is False, "__tcfapi: GDPR does not apply in the US"
    ad = ad_frame(page)
    request = {"__gppCall": {"command": "ping", "version": "1.1", "callId": "g1"}}
    replies = ad.evaluate(POST_FROM_FRAME.replace("__tcfapiCall", "__gppCall").replace("__tcfapiReturn", "__gppReturn"), [request, False, 1])
    assert len(replies) == 1 and replies[0]["ret"]["returnValue"]["gppString"] == ping["gppString"]


def test_gpp_with_global_privacy_control_opts_out_without_a_click(new_page):
    page = new_page()
    page.add_init_script("Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true })")
    open_site(page, "region=us-ca", wait_for=None)
    page.evaluate(GPP_READY)
    usca = page.evaluate(GPP_PING)["parsedSections"]["usca"]
    assert usca[0]["SaleOptOut"] == 1 and usca[0]["SharingOptOut"] == 1 and usca[1]["Gpc"] is True


def test_gpp_in_the_eea_is_not_ready_while_the_tcf_notice_shows_and_names_tcfeuv2(new_page):
    page = new_page()
    open_site(page)
    ping = page.evaluate(GPP_PING)
    assert ping["cmpStatus"] == "loaded" and ping["signalStatus"] == "not ready" and ping["applicableSections"] == [2]
    assert ping["cmpDisplayStatus"] == "visible"
