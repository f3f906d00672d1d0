"""Issue 28 §4, end to end in both engines (engines.py: Chromium through Playwright, WebKitGTK
through Selenium): consentd's web CMP on a publisher's own origin (and on consentd's /demo) for a
visitor in the US and in the EEA, read through `__gpp` from the page and, through the
`__gppLocator` frame and postMessage, from an ad frame of a third origin.

- California (`us-ca`): the notice at collection shows in US mode; after "Do Not Sell or Share My
  Personal Information" `__gpp('ping')` says `signalStatus: 'ready'`, section 8 applies, and the
  GPP string decodes (`consent gpp decode --json`, ConsentKit's decoder) to the opt-outs.
- Alaska (`us-ak`, a state without a section of its own): usnat (7) applies.
- Virginia (`us-va`): its own section, usva (9).
- With Global Privacy Control on in the browser (`navigator.globalPrivacyControl`, set by the
  page's first script, as a browser with the setting on exposes it), the opt-outs are set and
  `Gpc` recorded before any click.
- The EEA: the TCF notice, and `__gpp` answers the TC string as section tcfeuv2 (2).
- GPC is a signal for while it is on (decision record 0046): "Continue" with GPC on gives a
  string with the opt-outs; back with GPC off, `__gpp` shows no opt-out (`Gpc` 0) and the notice,
  reopened, the visitor's own choice; an opt-out holds either way; a browser that kept only the
  GPP string GPC wrote keeps its opt-outs and is asked again once GPC is off.

Marked consentd: one consentd (notice_support.consentd) and one browser per engine for the file."""
from __future__ import annotations

import json
import subprocess

import pytest

import notice_support as ns
from test_engines_notice import axe_violations
from test_engines_web_cmp import FRAME_PAGE, NOTICE_FRAME, PATIENCE, PHONE, demo_key, settle_replies

pytestmark = pytest.mark.consentd

AD_FRAME = "#ad-frame"

# The GPC a browser with the setting on exposes to scripts (its requests also carry Sec-GPC: 1,
# which this page cannot add; the CMP reads the script's side).
GPC_ON = "<script>Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: function () { return true; } });</script>"

# The ad frame's page answers __gppReturn as well as __tcfapiReturn: a GPP caller of its own.
GPP_FRAME_PAGE = FRAME_PAGE.replace("if (data && data.__tcfapiReturn) window.replies.push({ form: typeof e.data, ret: data.__tcfapiReturn });",
                                    "if (data && data.__gppReturn) window.replies.push({ form: typeof e.data, ret: data.__gppReturn });") \
    .replace("w.frames['__tcfapiLocator']", "w.frames['__gppLocator']") \
    .replace("__tcfapiCall", "__gppCall").replace("window.tcfCall", "window.gppCall")


def publisher_page(consentd: str, key: str, region: str, frame_url: str, first: str = "") -> str:
    return f"""<!doctype html><html lang="en"><head><meta charset="utf-8">
{first}
<script src="{consentd}/cmp/stub.js" data-key="{key}" data-debug-region="{region}"></script>
<script src="{consentd}/cmp/cmp.js" async></script>
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Example Daily in the US</title>
<style>body {{ font: 1rem/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 48rem; padding: 1rem; }}
iframe#ad-frame {{ width: 100%; height: 6rem; border: 1px solid #888; }}</style>
</head><body><main><h1>A publisher's article</h1>
<iframe id="ad-frame" title="An ad from a third origin" src="{frame_url}"></iframe></main></body></html>"""


class USSite(ns.TwoOrigins):
    def __init__(self):
        self.pages = {}
        html = "text/html; charset=utf-8"
        super().__init__(lambda path: (GPP_FRAME_PAGE, html) if path == "/frame.html"
                         else (self.pages[path], html) if path in self.pages else None)


@pytest.fixture(scope="module")
def us_site():
    site = USSite()
    consentd, key, frame = ns.consentd().url, demo_key(), site.ads + "/frame.html"
    for path, region, first in [("/ca", "us-ca", ""), ("/ak", "us-ak", ""), ("/va", "us-va", ""),
                                ("/ca-gpc", "us-ca", GPC_ON), ("/eea", "eea", "")]:
        site.pages[path] = publisher_page(consentd, key, region, frame, first)
    yield site
    site.stop()


@pytest.fixture
def visit(engine_page, us_site):
    def open_page(path, size=PHONE):
        page = engine_page(*size)
        page.goto(us_site.publisher + path)
        return page

    return open_page


# Calls __gpp(command, callback, parameter) on the page and resolves with the callback's (value, success).
GPP = """(command, parameter) => new Promise((resolve) => {
  const callback = (value, success) => resolve([value, success]);
  if (parameter === null) window.__gpp(command, callback); else window.__gpp(command, callback, parameter);
})"""


def gpp(page, command, parameter=None):
    return tuple(page.evaluate(GPP, command, parameter))


def ping(page):
    value, ok = gpp(page, "ping")
    assert ok is True or ok is None or value, (page.engine, value)
    return value


def wait_ready(page):
    """Until the CMP loaded and its signal is ready: the session's answer is in."""
    page.wait_for("""() => { let p; window.__gpp('ping', (v) => { p = v; });
        return !!p && p.cmpStatus === 'loaded' && p.signalStatus === 'ready'; }""", timeout=PATIENCE)
    return ping(page)


def notice_frame(page):
    """The notice's frame, once cmp.js made it (WebDriver cannot enter a frame not there yet)."""
    page.wait_for("(s) => !!document.querySelector(s)", NOTICE_FRAME, timeout=PATIENCE)
    return page.frame(NOTICE_FRAME)


def us_notice(page):
    frame = notice_frame(page)
    frame.wait_for("() => { const b = document.querySelector('[data-action=acknowledged]'); return !!b && b.getClientRects().length > 0; }",
                   timeout=PATIENCE)
    return frame


def gpp_decode(gpp_string):
    binary = ns.consentd_binary().rsplit("/", 1)[0] + "/consent"
    return json.loads(subprocess.run([binary, "gpp", "decode", "--json", gpp_string], capture_output=True, text=True, check=True).stdout)


def opt_out_and_wait(page):
    before = wait_ready(page)["gppString"]
    us_notice(page).click('[data-action="optOut"]')
    page.wait_for("""(before) => { let p; window.__gpp('ping', (v) => { p = v; });
        return !!p && p.signalStatus === 'ready' && p.gppString !== before; }""", before, timeout=PATIENCE)
    return ping(page)


# ------------------------------------------------------------------------------------ the states

def test_california_shows_the_us_notice_and_do_not_sell_or_share_opts_out_in_section_8(visit):
    page = visit("/ca")
    notice = us_notice(page)
    assert notice.evaluate("() => document.querySelectorAll('[data-action=acceptAll]').length") == 0, "no TCF answer in the US"
    assert notice.evaluate("() => document.querySelector('.ck-us-law').textContent") == \
        ns.texts("en")["usLawState"].replace("{state}", "California"), "the notice names the state whose law it follows"
    first = wait_ready(page)
    assert first["applicableSections"] == [8] and 8 in first["sectionList"]
    before = gpp_decode(first["gppString"])["usca"]
    assert (before["SaleOptOut"], before["SharingOptOut"]) == (2, 2), "nothing opted out before the click"
    after = opt_out_and_wait(page)
    assert after["applicableSections"] == [8] and after["cmpDisplayStatus"] == "hidden"
    usca = gpp_decode(after["gppString"])["usca"]
    assert (usca["SaleOptOut"], usca["SharingOptOut"], usca["SaleOptOutNotice"], usca["SharingOptOutNotice"]) == (1, 1, 1, 1)
    assert usca["Gpc"] is False
    section, ok = gpp(page, "getSection", "usca")
    assert ok is not False and section[0]["SaleOptOut"] == 1
    field, _ = gpp(page, "getField", "usca.SharingOptOut")
    assert field == 1
    has, _ = gpp(page, "hasSection", "usca")
    assert has is True


def test_a_state_without_a_section_of_its_own_gets_usnat(visit):
    page = visit("/ak")
    notice = us_notice(page)
    assert notice.evaluate("() => document.querySelector('.ck-us-law').textContent") == ns.texts("en")["usLawNational"], "no state named"
    after = opt_out_and_wait(page)
    assert after["applicableSections"] == [7]
    usnat = gpp_decode(after["gppString"])["usnat"]
    assert (usnat["SaleOptOut"], usnat["SharingOptOut"], usnat["TargetedAdvertisingOptOut"]) == (1, 1, 1)


def test_virginia_gets_its_own_section(visit):
    page = visit("/va")
    us_notice(page)
    after = opt_out_and_wait(page)
    assert after["applicableSections"] == [9]
    usva = gpp_decode(after["gppString"])["usva"]
    assert (usva["SaleOptOut"], usva["TargetedAdvertisingOptOut"]) == (1, 1)


def test_with_gpc_on_the_opt_outs_are_set_without_a_click(visit):
    page = visit("/ca-gpc")
    first = wait_ready(page)
    usca = gpp_decode(first["gppString"])["usca"]
    assert (usca["SaleOptOut"], usca["SharingOptOut"], usca["Gpc"]) == (1, 1, True)
    notice = us_notice(page)
    assert notice.evaluate("() => document.querySelectorAll('[data-action=optOut]').length") == 0, "nothing left to opt out of"
    notice.click('[data-action="choices"]')
    notice.wait_for("() => document.querySelectorAll('input[data-us]').length > 0")
    switches = notice.evaluate("() => Object.fromEntries(Array.from(document.querySelectorAll('input[data-us]')).map((i) => [i.dataset.us, [i.checked, i.disabled]]))")
    for field in ("saleOptOut", "sharingOptOut", "targetedAdvertisingOptOut"):
        assert switches[field] == [True, True], switches


def test_a_cross_origin_frame_reads_the_same_string_through_the_locator(visit):
    page = visit("/ca")
    after = opt_out_and_wait(page)
    frame = page.frame(AD_FRAME)
    frame.wait_for("() => typeof window.gppCall === 'function' && document.readyState === 'complete'", timeout=PATIENCE)
    frame.evaluate("() => { window.replies = []; }")
    assert frame.evaluate("() => window.gppCall({ command: 'ping', version: '1.1', callId: 'p' }, false)")
    assert frame.evaluate("() => window.gppCall({ command: 'getField', parameter: 'usca.SaleOptOut', version: '1.1', callId: 'f' }, true)")
    replies = {r[0]: r for r in settle_replies(frame)}
    assert replies["p"][3]["gppString"] == after["gppString"] and replies["p"][3]["applicableSections"] == [8]
    assert replies["f"][1] == "string" and replies["f"][3] == 1


def test_the_eea_gets_the_tcf_notice_and_gpp_carries_the_tc_string_as_tcfeuv2(visit):
    page = visit("/eea")
    frame = notice_frame(page)
    frame.wait_for("() => { const b = document.querySelector('[data-action=acceptAll]'); return !!b && b.getClientRects().length > 0; }",
                   timeout=PATIENCE)
    frame.click('.ck-footer [data-action="acceptAll"]')
    page.wait_for("""() => { let p; window.__gpp('ping', (v) => { p = v; });
        return !!p && p.signalStatus === 'ready' && p.sectionList.indexOf(2) >= 0; }""", timeout=PATIENCE)
    value = ping(page)
    assert value["applicableSections"] == [2]
    tc = page.evaluate("() => new Promise((r) => window.__tcfapi('getTCData', 2, (d) => r(d.tcString)))")
    assert "tcfeuv2" in gpp_decode(value["gppString"])
    assert value["gppString"].split("~")[1] == tc


# ------------------------------------------------------------------------------------ GPC and the visitor's own choice

def choose_and_wait(page, action):
    """Clicks `action` on the US notice; the ping once the choice's string holds."""
    before = wait_ready(page)["gppString"]
    us_notice(page).click(f'[data-action="{action}"]')
    page.wait_for("""(before) => { let p; window.__gpp('ping', (v) => { p = v; });
        return !!p && p.signalStatus === 'ready' && p.cmpDisplayStatus === 'hidden' && p.gppString !== before; }""", before, timeout=PATIENCE)
    return ping(page)


def come_back(page, us_site, path):
    """The same browser (its cookies) on another page view of the site: its ping once ready, and
    whether a notice opened."""
    page.goto(us_site.publisher + path)
    value = wait_ready(page)
    return value, page.evaluate("(s) => !!document.querySelector(s)", NOTICE_FRAME)


def reopened_switches(page):
    """The privacy settings reopened (ConsentKitWeb.showPreferences): each US switch's [checked, disabled]."""
    page.evaluate("() => { window.ConsentKitWeb.showPreferences(); return true; }")
    frame = notice_frame(page)
    frame.wait_for("""() => document.querySelectorAll('input[data-us]').length > 0 ||
        !!document.querySelector('[data-action=choices]')""", timeout=PATIENCE)
    if frame.evaluate("() => document.querySelectorAll('input[data-us]').length") == 0:
        frame.click('[data-action="choices"]')
        frame.wait_for("() => document.querySelectorAll('input[data-us]').length > 0", timeout=PATIENCE)
    return frame.evaluate("""() => Object.fromEntries(Array.from(document.querySelectorAll('input[data-us]'))
        .map((i) => [i.dataset.us, [i.checked, i.disabled]]))""")


OPT_OUTS = ("saleOptOut", "sharingOptOut", "targetedAdvertisingOptOut")


def test_continue_with_gpc_on_is_the_visitors_own_again_once_gpc_is_off(engine_page, us_site):
    page = engine_page(*PHONE)
    page.goto(us_site.publisher + "/ca-gpc")
    chosen = choose_and_wait(page, "acknowledged")
    usca = gpp_decode(chosen["gppString"])["usca"]
    assert (usca["SaleOptOut"], usca["SharingOptOut"], usca["Gpc"]) == (1, 1, True), "GPC on: the opt-outs, whatever the answer"
    assert "consentkit-us-choice=" in page.evaluate("() => document.cookie"), "the own choice is kept beside the GPP string"

    back, notice = come_back(page, us_site, "/ca")
    usca = gpp_decode(back["gppString"])["usca"]
    assert (usca["SaleOptOut"], usca["SharingOptOut"], usca["Gpc"]) == (2, 2, False), "GPC off: the visitor's own \"Continue\", no opt-out"
    assert usca["SaleOptOutNotice"] == 1, "the notice was given"
    assert notice is False, "the visitor answered: no notice"
    switches = reopened_switches(page)
    for field in OPT_OUTS:
        assert switches[field] == [False, False], switches


def test_an_opt_out_holds_with_gpc_on_and_off_again(engine_page, us_site):
    page = engine_page(*PHONE)
    page.goto(us_site.publisher + "/ca")
    chosen = choose_and_wait(page, "optOut")
    assert gpp_decode(chosen["gppString"])["usca"]["Gpc"] is False

    on, notice = come_back(page, us_site, "/ca-gpc")
    usca = gpp_decode(on["gppString"])["usca"]
    assert (usca["SaleOptOut"], usca["SharingOptOut"], usca["Gpc"]) == (1, 1, True) and notice is False

    off, notice = come_back(page, us_site, "/ca")
    usca = gpp_decode(off["gppString"])["usca"]
    assert (usca["SaleOptOut"], usca["SharingOptOut"], usca["Gpc"]) == (1, 1, False) and notice is False
    switches = reopened_switches(page)
    for field in OPT_OUTS:
        assert switches[field] == [True, False], switches


def test_a_browser_that_kept_only_the_string_gpc_wrote_is_asked_again_once_gpc_is_off(engine_page, us_site):
    page = engine_page(*PHONE)
    page.goto(us_site.publisher + "/ca-gpc")
    choose_and_wait(page, "acknowledged")
    # What a browser kept before the own choice was: the GPP string alone.
    page.evaluate("() => { document.cookie = 'consentkit-us-choice=; Path=/; Max-Age=0'; return document.cookie; }")
    assert "consentkit-us-choice=" not in page.evaluate("() => document.cookie")

    back, _ = come_back(page, us_site, "/ca")
    usca = gpp_decode(back["gppString"])["usca"]
    assert (usca["SaleOptOut"], usca["SharingOptOut"], usca["Gpc"]) == (1, 1, False), "its opt-outs hold: never an opt-in not given"
    notice = us_notice(page)
    notice.click('[data-action="acknowledged"]')
    page.wait_for("""() => { let p; window.__gpp('ping', (v) => { p = v; });
        return !!p && p.cmpDisplayStatus === 'hidden' && document.cookie.indexOf('consentkit-us-choice=') >= 0; }""", timeout=PATIENCE)
    usca = gpp_decode(ping(page)["gppString"])["usca"]
    assert (usca["SaleOptOut"], usca["SharingOptOut"], usca["Gpc"]) == (2, 2, False), "the answer given now is the visitor's own"


# ------------------------------------------------------------------------------------ consentd's /demo

@pytest.mark.parametrize("region", ["us-ca", "us-ak"])
def test_the_demo_shows_the_us_notice_axe_clean(engine_page, region):
    page = engine_page(*PHONE)
    page.goto(ns.consentd().url + "/demo?region=" + region)
    notice = us_notice(page)
    assert axe_violations(notice) == []
    page.screenshot(f"us-demo-{region}")
