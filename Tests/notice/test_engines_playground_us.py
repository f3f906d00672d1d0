"""consentd's notice playground (/demo/playground) in its US regions, in both engines (engines.py:
Chromium through Playwright, WebKitGTK through Selenium): the region control shows the US notice
at collection of the region's GPP section (California: usca; Washington, which has no section of
its own, and a state not known: usnat), the notice names the state whose law gives the choices (or
none for usnat), and after a choice the page shows the GPP string consentd recorded and what it
says (the section in force and its fields, as ConsentKit's decoder reads it back; the string is
also decoded here by `consent gpp decode --json`); "Privacy and cookie settings" reopens on the
choice the stored GPP string holds; the EEA still gets the TCF notice. axe-core on the page with
the notice open and with the result shown; screenshots to NOTICE_ARTIFACTS as
playground-us-*-<engine>.png.

Marked consentd: one consentd (notice_support.consentd) for the file."""
from __future__ import annotations

import pytest

import notice_support as ns
from test_engines_notice import axe_violations
from test_engines_us import gpp_decode

pytestmark = pytest.mark.consentd

DESKTOP, PHONE = (1280, 900), (447, 844)
OPEN = "() => document.getElementById('status').textContent.startsWith('The notice is open')"
SHOWN = "() => { const b = document.querySelector('.ck-footer button'); return !!b && b.getClientRects().length > 0; }"


def playground(engine_page, size=DESKTOP):
    """The playground with nothing stored (WebKit's one window keeps the origin's storage between
    tests): the first-run TCF notice open."""
    page = engine_page(*size)
    url = ns.consentd().url + "/demo/playground"
    page.goto(url)
    page.evaluate("() => localStorage.clear()")
    page.goto(url)
    page.wait_for(OPEN)
    return page


def show_region(page, region, reopen=False):
    """Picks `region` and opens the notice (or the settings): the notice's frame, its first screen shown."""
    page.evaluate("""(region) => { const s = document.getElementById('region'); s.value = region;
        s.dispatchEvent(new Event('change')); document.getElementById('status').textContent = ''; }""", region)
    page.click("#settings" if reopen else "#open")
    page.wait_for(OPEN)
    notice = page.frame("#notice")
    notice.wait_for(SHOWN)
    return notice


def recorded(page):
    page.wait_for("() => !document.getElementById('recorded').hidden")
    return page.evaluate("""() => ({ status: document.getElementById('status').textContent,
        gppString: document.getElementById('gpp-string').textContent, section: document.getElementById('gpp-section').textContent,
        decoded: document.getElementById('decoded').textContent.split('\\n'), event: document.getElementById('event').textContent,
        tcfHidden: document.getElementById('tcf-recorded').hidden, gppHidden: document.getElementById('gpp-recorded').hidden,
        ad: document.getElementById('ad-slot').textContent, stored: localStorage.getItem('consentkit-demo-gpp') })""")


def law(notice):
    return notice.evaluate("() => { const p = document.querySelector('.ck-us-law'); return p && [p.dataset.text, p.textContent]; }")


def test_california_shows_the_us_notice_naming_california_and_records_do_not_sell_as_a_usca_gpp_string(engine_page):
    page = playground(engine_page)
    notice = show_region(page, "us-ca")
    assert notice.evaluate("() => document.querySelectorAll('[data-action=acceptAll]').length") == 0, "no TCF answer in the US"
    assert law(notice) == ["usLawState", ns.texts("en")["usLawState"].replace("{state}", "California")]
    # the TCF's settings mean nothing to the US notice
    assert page.evaluate("() => ['mode', 'vendors', 'adfree'].map((id) => document.getElementById(id).disabled)") == [True, True, True]
    page.screenshot("playground-us-ca-notice")
    assert axe_violations(page) == []
    notice.click('.ck-footer [data-action="optOut"]')
    shown = recorded(page)
    assert shown["status"] == "Recorded: optOut"
    assert (shown["tcfHidden"], shown["gppHidden"]) == (True, False)
    assert shown["section"] == "usca [8]"
    assert shown["stored"] == shown["gppString"]
    assert shown["event"].startswith("event ") and " of subject sub_" in shown["event"]
    # what the page says the string holds, and what it holds read by `consent gpp decode`
    assert "usca.SaleOptOut: 1" in shown["decoded"] and "usca.SharingOptOut: 1" in shown["decoded"]
    decoded = gpp_decode(shown["gppString"])
    assert list(decoded) == ["usca"], decoded
    assert (decoded["usca"]["SaleOptOut"], decoded["usca"]["SharingOptOut"], decoded["usca"]["SaleOptOutNotice"]) == (1, 1, 1)
    assert shown["ad"].startswith("Ad slot: contextual ads only")
    page.screenshot("playground-us-ca-recorded")
    assert axe_violations(page) == []


def test_settings_reopen_the_us_notice_on_the_choice_the_stored_gpp_string_holds(engine_page):
    page = playground(engine_page)
    notice = show_region(page, "us-ca")
    notice.click('.ck-footer [data-action="choices"]')
    notice.wait_for("() => !!document.querySelector('input[data-us=saleOptOut]')")
    notice.click('input[data-us="sharingOptOut"]')
    notice.click('.ck-footer [data-action="save"]')
    shown = recorded(page)
    assert "usca.SaleOptOut: 2" in shown["decoded"] and "usca.SharingOptOut: 1" in shown["decoded"]
    notice = show_region(page, "us-ca", reopen=True)
    switches = notice.evaluate("() => Array.from(document.querySelectorAll('input[data-us]')).map((i) => [i.dataset.us, i.checked])")
    assert dict(switches) == {"saleOptOut": False, "sharingOptOut": True, "targetedAdvertisingOptOut": True, "sensitiveDataLimited": False}


@pytest.mark.parametrize("region", ["us", "us-wa"], ids=["state-unknown", "washington"])
def test_a_national_region_shows_the_usnat_notice_naming_no_state_and_records_usnat(engine_page, region):
    page = playground(engine_page)
    notice = show_region(page, region)
    assert law(notice) == ["usLawNational", ns.texts("en")["usLawNational"]]
    assert "Washington" not in notice.evaluate("() => document.body.textContent")
    notice.click('.ck-footer [data-action="acknowledged"]')
    shown = recorded(page)
    assert shown["status"] == "Recorded: acknowledged"
    assert shown["section"] == "usnat [7]"
    assert "usnat.SaleOptOut: 2" in shown["decoded"] and "usnat.TargetedAdvertisingOptOut: 2" in shown["decoded"]
    decoded = gpp_decode(shown["gppString"])
    assert list(decoded) == ["usnat"] and (decoded["usnat"]["SaleOptOut"], decoded["usnat"]["TargetedAdvertisingOptOut"]) == (2, 2)
    assert shown["ad"] == "Ad slot: targeted ads allowed (no opt-out)"


def test_the_eea_region_still_shows_the_tcf_notice_after_a_us_choice(engine_page):
    page = playground(engine_page)
    notice = show_region(page, "us-ca")
    notice.click('.ck-footer [data-action="optOut"]')
    recorded(page)
    notice = show_region(page, "eea")
    assert notice.evaluate("() => !!document.querySelector('.ck-footer [data-action=acceptAll]')")
    assert page.evaluate("() => ['mode', 'vendors', 'adfree'].map((id) => document.getElementById(id).disabled)") == [False, False, False]
    notice.click('.ck-footer [data-action="acceptAll"]')
    page.wait_for("() => !document.getElementById('tcf-recorded').hidden && document.getElementById('tc-string').textContent.length > 0")
    assert page.evaluate("() => document.getElementById('gpp-recorded').hidden") is True


@pytest.mark.parametrize("language,name", [("de", "Kalifornien"), ("ar", "كاليفورنيا")])
def test_the_us_notice_names_the_state_in_the_language_chosen_and_arabic_is_right_to_left(engine_page, language, name):
    page = playground(engine_page, PHONE)
    page.evaluate("(l) => { document.getElementById('language').value = l; }", language)
    notice = show_region(page, "us-ca")
    assert law(notice) == ["usLawState", ns.texts(language)["usLawState"].replace("{state}", name)]
    assert notice.evaluate("() => document.documentElement.dir") == ("rtl" if language == "ar" else "ltr")
    # on a phone the region's long names stay inside the settings' card
    assert page.evaluate("""() => document.getElementById('region').getBoundingClientRect().right
        <= document.querySelector('.controls').getBoundingClientRect().right""")
    page.screenshot(f"playground-us-ca-{language}-phone")


def test_in_dark_mode_the_playground_and_its_us_notice_are_dark(new_page):
    """Chromium only (WebDriver has no colour scheme to ask for): the page's dark palette and the
    notice's, with a US choice shown."""
    page = new_page(width=1280, height=900, color_scheme="dark")
    page.goto(ns.consentd().url + "/demo/playground")
    page.wait_for_function("document.getElementById('status').textContent.startsWith('The notice is open')")
    page.select_option("#region", "us-ca")
    page.evaluate("document.getElementById('status').textContent = ''")
    page.click("#open")
    page.wait_for_function("document.getElementById('status').textContent.startsWith('The notice is open')")
    notice = page.frame_locator("#notice")
    assert notice.locator(".ck-dialog").evaluate("(d) => getComputedStyle(d).backgroundColor") != "rgb(255, 255, 255)"
    ns.screenshot(page, "playground-us-ca-notice-dark")
    notice.locator('.ck-footer [data-action="optOut"]').click()
    page.wait_for_selector("#recorded:not([hidden])")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(16, 18, 21)"  # --bg of the dark palette
    ns.screenshot(page, "playground-us-ca-recorded-dark")
