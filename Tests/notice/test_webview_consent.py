"""The app's consent in its web views (docs/web-consent.md), in headless Chromium: the script an app
injects at document start, made by the SDK's WebViewConsent from stored keys (through
`consent webview-script`, the same code), on a page with no CMP, on a page with its own CMP, and on
a page running ConsentKit's web CMP (consentd's /demo); the URL parameters; and the differential
against ConsentKit's decoder on 200 real-world TC strings set as the app's stored consent.

Playwright's add_init_script runs the script before the page's own scripts, in the main frame and
its frames; WKUserScript(forMainFrameOnly: true) is the app's equivalent. Needs consentd and the
`consent` tool (marked `consentd`): the server package's build, or CONSENTD_BIN."""
from __future__ import annotations

import json
import subprocess
import urllib.error
import urllib.parse
import urllib.request

import pytest

import notice_support as ns

pytestmark = pytest.mark.consentd

ARTICLE = "http://app-content.test/article"


def tool(*arguments: str) -> str:
    binary = ns.consentd_binary().rsplit("/", 1)[0] + "/consent"
    return subprocess.run([binary, *arguments], capture_output=True, text=True, check=True).stdout


# The hand-over secret of the tests' app (WebViewConsent's HandOverSecret): its scripts carry it.
SECRET = "0123456789abcdef0123456789abcdef"
# The app's update script (WebViewConsent.updateScript): fromApp with the secret.
UPDATE = "(p) => window.ConsentKitTCF && window.ConsentKitTCF.fromApp(p, '" + SECRET + "')"


def script(tc_string=None, ac=None, gdpr="1", *extra):
    arguments = ["webview-script"] + (["--tc-string", tc_string] if tc_string else []) + (["--addtl-consent", ac] if ac else [])
    if "--payload" not in extra and "--url" not in extra:
        arguments += ["--secret", SECRET]
    return tool(*(arguments + (["--gdpr-applies", gdpr] if gdpr else []) + list(extra)))


def app_credential(subject_id="app-user-1"):
    """The app's credential on the tests' consentd: a secret key of app com.example.app (made with
    `consent keys create`), and a subject token its backend mints for `subject_id`."""
    server = ns.consentd()
    secret = tool("keys", "create", "--app", "com.example.app", "--kind", "secret",
                  "--database", f"sqlite:{server.folder}/consentd.sqlite").strip()
    request = urllib.request.Request(server.url + f"/v1/subjects/{subject_id}/tokens", data=b"{}", method="POST",
                                     headers={"Authorization": "Bearer " + secret, "Content-Type": "application/json"})
    token = json.loads(urllib.request.urlopen(request, timeout=30).read())["token"]
    return secret, ["--consentd", server.url, "--subject-id", subject_id, "--subject-token", token]


def subject_state(secret, subject_id):
    request = urllib.request.Request(ns.consentd().url + f"/v1/subjects/{subject_id}", headers={"Authorization": "Bearer " + secret})
    try:
        return json.loads(urllib.request.urlopen(request, timeout=30).read())
    except urllib.error.HTTPError as error:
        return {"status": error.code}


def real_world(count=200):
    """The first `count` real-world strings that ConsentKit decodes, with their decode."""
    lines = [l.strip() for l in (ns.ROOT / "Fixtures" / "vectors" / "real-world-v2.txt").read_text().splitlines() if l.strip()]
    decoded = [json.loads(l) for l in tool("decode", "--json", *lines).splitlines()]
    pairs = [(s, d) for s, d in zip(lines, decoded) if "error" not in d]
    assert len(pairs) >= count
    return pairs[:count]


def inject(page, text):
    """What WKUserScript(injectionTime: .atDocumentStart, forMainFrameOnly: true) does: the top frame only."""
    page.context.add_init_script("if (window === window.top) {\n" + text + "\n}")


def serve(page, html, url=ARTICLE):
    page.route(url, lambda route: route.fulfill(status=200, content_type="text/html", body=html))
    page.goto(url)


BLANK = "<!doctype html><html><head><title>Article</title></head><body><p>An article in the app.</p></body></html>"

ANSWER = """([command, parameter]) => new Promise((resolve) => {
  const cb = (value, success) => resolve({ value, success });
  if (parameter === null) window.__tcfapi(command, 2, cb); else window.__tcfapi(command, 2, cb, parameter); })"""


def answer(page, command, parameter=None):
    return page.evaluate(ANSWER, [command, parameter])


def demo_choice(action):
    """A TC string and AC string the demo site made for `action` (its own scope, consentd's CMP), as
    an app of the same service would hold: a visitor's choice through the site's page key."""
    import re
    page = urllib.request.urlopen(ns.consentd().url + "/demo", timeout=30).read().decode()
    key = re.search(r'data-key="(ck_pub_[^"]+)"', page).group(1)
    answer = ns.consentd().post("/v1/web/choices", {"credential": key, "message": {
        "protocol": 1, "type": "result", "action": action, "layer": 1, "language": "en", "noticeVersion": 0}})
    return answer["tcString"], answer["addtlConsent"]


def demo_string():
    return demo_choice("acceptAll")


# ------------------------------------------------------------------------------------ item 45

def test_item45_on_a_page_without_a_cmp_the_injected_api_answers_with_the_app_s_consent(new_page):
    tc, ac = demo_string()
    page = new_page()
    inject(page, script(tc, ac))
    serve(page, BLANK)
    ping = answer(page, "ping")["value"]
    assert ping["cmpLoaded"] is True and ping["cmpStatus"] == "loaded" and ping["displayStatus"] == "disabled"
    assert ping["gdprApplies"] is True
    data = answer(page, "getTCData")
    assert data["success"] is True
    assert data["value"]["tcString"] == tc and data["value"]["addtlConsent"] == ac
    assert data["value"]["eventStatus"] == "tcloaded"
    page.wait_for_function("() => !!window.frames.__tcfapiLocator")
    assert page.locator("iframe[name=__tcfapiLocator]").count() == 1
    assert page.evaluate("() => window.ConsentKitAppConsent.tcString") == tc


def test_item45_on_a_page_with_its_own_cmp_the_injected_api_stays_out_of_the_way(new_page):
    tc, ac = demo_string()
    own = """<!doctype html><html><head><script>
      window.__tcfapi = function (command, version, callback) { callback({ theirs: true, command: command }, true); };
    </script></head><body><iframe name="__tcfapiLocator" hidden></iframe><p>A page with its own CMP.</p></body></html>"""
    page = new_page()
    inject(page, script(tc, ac))
    serve(page, own)
    page.wait_for_timeout(200)
    assert answer(page, "ping")["value"] == {"theirs": True, "command": "ping"}
    assert answer(page, "getTCData")["value"] == {"theirs": True, "command": "getTCData"}
    assert page.locator("iframe[name=__tcfapiLocator]").count() == 1, "no second locator"
    # The app's consent is still there for a page that wants it.
    assert page.evaluate("() => window.ConsentKitAppConsent.tcString") == tc


def test_without_a_decision_or_outside_gdpr_the_injected_api_gives_no_consent(new_page):
    page = new_page()
    inject(page, script(None, None, "0"))
    serve(page, BLANK)
    data = answer(page, "getTCData")["value"]
    assert data["gdprApplies"] is False and "tcString" not in data
    other = new_page()
    inject(other, script("not-a-tc-string", None, "1"))
    serve(other, BLANK)
    other.wait_for_timeout(200)
    ping = answer(other, "ping")["value"]
    assert ping["gdprApplies"] is True
    # GDPR applies and the stored string does not decode: the page hears "no consent", never a guess.
    data = answer(other, "getTCData")["value"]
    assert data["tcString"] == "" and data["gdprApplies"] is True
    assert data["purpose"]["consents"] == {} and data["vendor"]["consents"] == {} and data["vendor"]["legitimateInterests"] == {}
    assert other.evaluate("() => window.ConsentKitAppConsent.tcString") is None


def test_a_choice_changed_in_the_app_reaches_the_open_web_view(new_page):
    tc, ac = demo_string()
    page = new_page()
    inject(page, script(tc, ac))
    serve(page, BLANK)
    page.evaluate("""() => { window.__events = []; window.__tcfapi('addEventListener', 2, (d) => window.__events.push([d.eventStatus, d.tcString])); }""")
    rejected = demo_choice("rejectAll")[0]
    payload = script(rejected, None, "1", "--payload")
    page.evaluate(UPDATE, json.loads(payload))
    assert page.evaluate("() => window.__events") == [["tcloaded", tc], ["useractioncomplete", rejected]]
    assert answer(page, "ping")["value"]["displayStatus"] == "disabled"


# ------------------------------------------------------------------------------------ a page running our web CMP

def test_on_a_page_running_consentkit_s_web_cmp_the_app_s_choice_is_adopted_and_recorded_with_method_sync(new_page):
    tc, ac = demo_string()
    secret, credential = app_credential()
    page = new_page()
    inject(page, script(tc, ac, "1", *credential))
    page.goto(ns.consentd().url + "/demo?region=eea")
    page.wait_for_function("() => window.demoTimings && window.demoTimings.firstStatus !== null")
    assert page.evaluate("() => window.demoTimings.firstStatus") == "tcloaded", "the user is not asked again"
    assert page.locator('iframe[title="Privacy settings"]').count() == 0
    stored = [c["value"] for c in page.context.cookies() if c["name"] == "euconsent-v2"]
    assert stored == [tc]
    page.wait_for_function("() => document.getElementById('event').textContent.includes('(sync)')")
    event = page.locator("#event").text_content()
    assert "of subject app-user-1 (sync)" in event, event
    # Recorded for the app's subject, with the app's token, never the page's visitor.
    state = subject_state(secret, "app-user-1")
    assert state["consent"]["tcString"] == tc and state["consent"]["proof"]["method"] == "sync", state
    # The page's own CMP answers, not the injected one: one locator, the web CMP's data.
    assert page.locator("iframe[name=__tcfapiLocator]").count() == 1
    assert answer(page, "getTCData")["value"]["tcString"] == tc
    # A later change in the app reaches the page's CMP, which adopts it and tells its listeners.
    page.evaluate("""() => { window.__events = []; window.__tcfapi('addEventListener', 2, (d) => window.__events.push(d.eventStatus)); }""")
    rejected, rejected_ac = demo_choice("rejectAll")
    page.evaluate(UPDATE, json.loads(script(rejected, rejected_ac, "1", "--payload")))
    page.wait_for_function("() => window.__events.length === 2")
    assert page.evaluate("() => window.__events") == ["tcloaded", "useractioncomplete"]
    assert [c["value"] for c in page.context.cookies() if c["name"] == "euconsent-v2"] == [rejected]


# ------------------------------------------------------------------------------------ item 46

def test_item46_url_parameters_are_added_once_and_encoded(new_page):
    tc, ac = demo_string()
    base = "https://news.example.com/article?id=7&gdpr_consent=OLD&gdpr=0#comments"
    url = script(tc, ac, "1", "--url", base).strip()
    parts = urllib.parse.urlsplit(url)
    query = urllib.parse.parse_qsl(parts.query, keep_blank_values=True)
    names = [name for name, _ in query]
    assert names.count("gdpr") == 1 and names.count("gdpr_consent") == 1 and names.count("addtl_consent") == 1
    values = dict(query)
    assert values == {"id": "7", "gdpr": "1", "gdpr_consent": tc, "addtl_consent": ac}
    assert parts.fragment == "comments"
    assert "+" not in parts.query and "OLD" not in url
    # A page reads them back exactly (what a URL-based service receives).
    page = new_page()
    target = ARTICLE + "?" + parts.query
    serve(page, BLANK, url=ARTICLE + "?**")
    page.goto(target)
    read = page.evaluate("() => Object.fromEntries(new URLSearchParams(location.search))")
    assert read["gdpr_consent"] == tc and read["addtl_consent"] == ac and read["gdpr"] == "1"


# ------------------------------------------------------------------------------------ differential

def ids(entries):
    out = []
    for entry in entries or []:
        if isinstance(entry, list):
            out.extend(range(entry[0], entry[1] + 1))
        else:
            out.append(entry)
    return out


def true_ids(mapping):
    return sorted(int(k) for k, v in (mapping or {}).items() if v)


def bundled_list():
    """The vendor and purpose ids of the list `consent webview-script` cuts TCData to (consentd's
    bundled GVL v3 #45), as an app cuts it to the list it holds (issue 24, H1)."""
    path = ns.ROOT / "Server" / "Sources" / "ConsentServer" / "Resources" / "vendor-list" / "vendor-list.json"
    document = json.loads(path.read_text())
    return {int(k) for k in document["vendors"]}, {int(k) for k in document["purposes"]}


def test_differential_200_real_world_strings_set_as_the_app_s_stored_consent(new_page):
    """The page's TCData against iab-tcf's decode of the same string, cut to the vendor list held:
    vendor maps and restrictions name only its vendors (and restrictions only its purposes)."""
    listed, purposes = bundled_list()
    pairs = real_world(200)
    page = new_page()
    inject(page, script(pairs[0][0], None, "1"))
    serve(page, BLANK)
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(4) as pool:
        payloads = list(pool.map(lambda pair: script(pair[0], None, "1", "--payload"), pairs))
    mismatches = []
    for (tc, d), payload in zip(pairs, payloads):
        # As text both ways: Playwright's structured copy of 1,000-vendor maps is slow.
        data = json.loads(page.evaluate("""(text) => { window.ConsentKitTCF.fromApp(JSON.parse(text), '""" + SECRET + """'); let out = null;
          window.__tcfapi('getTCData', 2, (value) => { out = value; }); return JSON.stringify(out); }""", payload))
        restrictions = {}
        for r in d.get("publisherRestrictions", []):
            for v in ids(r["vendorIds"]):
                if v in listed and r["purposeId"] in purposes:
                    restrictions.setdefault(str(r["purposeId"]), {})[str(v)] = r["restrictionType"]
        expected = {
            "tcString": tc, "tcfPolicyVersion": d["policyVersion"], "isServiceSpecific": d["isServiceSpecific"],
            "useNonStandardTexts": d["useNonStandardTexts"], "publisherCC": d["publisherCountryCode"],
            "purposeOneTreatment": d["purposeOneTreatment"],
            "purpose.consents": d["purposeConsents"], "purpose.legitimateInterests": d["purposeLegitimateInterests"],
            "vendor.consents": [v for v in d["vendorConsents"] if v in listed],
            "vendor.legitimateInterests": [v for v in d["vendorLegitimateInterests"] if v in listed],
            "vendor.disclosedVendors": [v for v in d.get("disclosedVendors", []) if v in listed],
            "specialFeatureOptins": d["specialFeatureOptins"],
            "publisher.consents": d.get("publisherConsents", []),
            "publisher.legitimateInterests": d.get("publisherLegitimateInterests", []),
            "publisher.customPurpose.consents": d.get("publisherCustomConsents", []),
            "publisher.customPurpose.legitimateInterests": d.get("publisherCustomLegitimateInterests", []),
            "publisher.restrictions": restrictions,
        }
        got = {
            "tcString": data["tcString"], "tcfPolicyVersion": data["tcfPolicyVersion"], "isServiceSpecific": data["isServiceSpecific"],
            "useNonStandardTexts": data["useNonStandardTexts"], "publisherCC": data["publisherCC"],
            "purposeOneTreatment": data["purposeOneTreatment"],
            "purpose.consents": true_ids(data["purpose"]["consents"]),
            "purpose.legitimateInterests": true_ids(data["purpose"]["legitimateInterests"]),
            "vendor.consents": true_ids(data["vendor"]["consents"]),
            "vendor.legitimateInterests": true_ids(data["vendor"]["legitimateInterests"]),
            "vendor.disclosedVendors": true_ids(data["vendor"]["disclosedVendors"]),
            "specialFeatureOptins": true_ids(data["specialFeatureOptins"]),
            "publisher.consents": true_ids(data["publisher"]["consents"]),
            "publisher.legitimateInterests": true_ids(data["publisher"]["legitimateInterests"]),
            "publisher.customPurpose.consents": true_ids(data["publisher"]["customPurpose"]["consents"]),
            "publisher.customPurpose.legitimateInterests": true_ids(data["publisher"]["customPurpose"]["legitimateInterests"]),
            "publisher.restrictions": data["publisher"]["restrictions"],
        }
        for key in expected:
            if expected[key] != got[key]:
                mismatches.append((tc[:24], key, expected[key] if not isinstance(expected[key], dict) else "…", got[key] if not isinstance(got[key], dict) else "…"))
    assert mismatches == [], mismatches[:5]


# ------------------------------------------------------------------------------------ __gpp in the app's web views (issue 28 §3)

# A California user who opted out of sale and sharing (usca, GPC sub-section false).
CALIFORNIA_GPP = "DBABBg~BVVqAAEABgA.QA"
GPP_PING = "() => new Promise((resolve) => window.__gpp('ping', (data) => resolve(data)))"


def test_on_a_page_without_a_cmp_the_injected_gpp_answers_with_the_app_s_gpp_string_and_follows_its_updates(new_page):
    page = new_page()
    inject(page, script(None, None, "0", "--gpp-string", CALIFORNIA_GPP, "--gpp-sid", "8"))
    serve(page, BLANK)
    ping = page.evaluate(GPP_PING)
    assert ping["cmpStatus"] == "loaded" and ping["signalStatus"] == "ready"
    assert ping["gppString"] == CALIFORNIA_GPP and ping["applicableSections"] == [8]
    assert ping["parsedSections"]["usca"][0]["SaleOptOut"] == 1
    page.wait_for_function("() => !!window.frames.__gppLocator")
    assert answer(page, "getTCData")["value"]["gdprApplies"] is False
    # The user changes their choice in the app: the update script hands the new payload over.
    payload = json.loads(script(None, None, "0", "--gpp-string", "DBABBg~BVoYYYAAEABgA.QA", "--gpp-sid", "8", "--payload"))
    page.evaluate(UPDATE, payload)
    assert page.evaluate(GPP_PING)["parsedSections"]["usca"][0]["SaleOptOut"] == 2


# Whether the web CMP's notice frame is on the page and shown (a preloaded one is hidden).
SHOWN_NOTICE = """() => [...document.querySelectorAll('iframe')].some((f) =>
    (f.getAttribute('src') || '').includes('/notice/notice.html') && f.style.display !== 'none')"""


def test_on_a_page_running_consentkit_s_web_cmp_in_the_us_the_app_s_us_choice_is_kept_and_the_notice_not_shown_again(new_page):
    """An app in California whose user answered the app's notice at collection (sale and sharing
    opted out: CALIFORNIA_GPP) opens a page that runs ConsentKit's web CMP: the page keeps the app's
    GPP string as its own, consentd reads the choice from it, the notice at collection does not open,
    and __gpp answers the app's opt-out. A later answer in the app reaches the open page."""
    page = new_page()
    inject(page, script(None, None, "0", "--gpp-string", CALIFORNIA_GPP, "--gpp-sid", "8"))
    page.goto(ns.consentd().url + "/demo?region=us-ca")
    page.wait_for_function("""() => { let p; window.__gpp('ping', (v) => { p = v; });
        return !!p && p.cmpStatus === 'loaded' && p.signalStatus === 'ready'; }""")
    ping = page.evaluate(GPP_PING)
    assert ping["applicableSections"] == [8], ping
    assert ping["parsedSections"]["usca"][0]["SaleOptOut"] == 1 and ping["parsedSections"]["usca"][0]["SharingOptOut"] == 1, ping
    page.wait_for_timeout(500)
    assert page.evaluate(SHOWN_NOTICE) is False, "the app's user is not asked again"
    assert [c["value"] for c in page.context.cookies() if c["name"] == "consentkit-gpp"] == [CALIFORNIA_GPP]
    # The user opts back in within the app: the update script hands the new string over.
    opted_in = "DBABBg~BVoYYYAAEABgA.QA"
    page.evaluate(UPDATE, json.loads(script(None, None, "0", "--gpp-string", opted_in, "--gpp-sid", "8", "--payload")))
    page.wait_for_function("""() => { let p; window.__gpp('ping', (v) => { p = v; });
        return !!p && p.parsedSections && p.parsedSections.usca && p.parsedSections.usca[0].SaleOptOut === 2; }""")
    assert [c["value"] for c in page.context.cookies() if c["name"] == "consentkit-gpp"] == [opted_in]
    assert page.evaluate(SHOWN_NOTICE) is False


def test_the_app_s_us_choice_replaces_the_page_s_own_us_choice(new_page):
    """A browser that kept its own US choice from the page (consentkit-us-choice: all opted out,
    decision record 0046) opens the page in an app whose user opted in: the app's string is the
    newer answer, so the page drops its own choice and __gpp answers the app's."""
    page = new_page()
    own = json.dumps({"saleOptOut": True, "sharingOptOut": True, "targetedAdvertisingOptOut": True, "sensitiveDataLimited": False})
    page.context.add_cookies([{"name": "consentkit-us-choice", "value": urllib.parse.quote(own), "url": ns.consentd().url}])
    opted_in = "DBABBg~BVoYYYAAEABgA.QA"
    inject(page, script(None, None, "0", "--gpp-string", opted_in, "--gpp-sid", "8"))
    page.goto(ns.consentd().url + "/demo?region=us-ca")
    page.wait_for_function("""() => { let p; window.__gpp('ping', (v) => { p = v; });
        return !!p && p.cmpStatus === 'loaded' && p.signalStatus === 'ready'; }""")
    ping = page.evaluate(GPP_PING)
    assert ping["parsedSections"]["usca"][0]["SaleOptOut"] == 2 and ping["parsedSections"]["usca"][0]["SharingOptOut"] == 2, ping
    assert [c["name"] for c in page.context.cookies() if c["name"] == "consentkit-us-choice"] == [], "the page's own choice is dropped"
    assert [c["value"] for c in page.context.cookies() if c["name"] == "consentkit-gpp"] == [opted_in]


def test_without_the_app_s_us_choice_the_web_cmp_in_the_us_shows_its_notice_at_collection(new_page):
    """The counter-proof: the same page in the same app, but the app holds no GPP string (its user has
    not answered yet): the web CMP asks."""
    page = new_page()
    inject(page, script(None, None, "0"))
    page.goto(ns.consentd().url + "/demo?region=us-ca")
    page.wait_for_function(SHOWN_NOTICE, timeout=30_000)
