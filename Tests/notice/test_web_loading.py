"""How a website's notice loads (issue 27 §5), on consentd's /demo site in Chromium: the notice's
frame loads while consentd answers the page view, the page view's document leaves the vendors'
details out, and the notice loads them (`GET /v1/web/vendor-details`) when the vendor list opens.
Timings are benchmarked, not tested (scripts/bench-notice)."""
from __future__ import annotations

import pytest

import notice_support as ns

pytestmark = pytest.mark.consentd

NOTICE_FRAME = 'iframe[title="Privacy settings"]'


def demo(query: str = "region=eea") -> str:
    return ns.consentd().url + "/demo?" + query


def test_the_notice_page_loads_while_consentd_answers_the_page_view(new_page):
    page = new_page()
    requested = []
    page.on("request", lambda r: requested.append(r.url))
    held = []
    page.route("**/v1/web/session", lambda route: held.append(route))
    page.goto(demo(), wait_until="domcontentloaded")
    page.wait_for_function("() => [...document.querySelectorAll('iframe')].some(f => f.src.endsWith('/notice/notice.html'))")
    page.wait_for_timeout(300)
    assert held, "the page view was asked"
    assert any(u.endswith("/notice/notice.html") for u in requested), "the notice's page is asked before consentd answers"
    frame = next(f for f in page.frames if f.url.endswith("/notice/notice.html"))
    assert frame.evaluate("() => typeof window.ConsentKitNotice.configure") == "function", "and its scripts have run"
    hidden = page.evaluate("""() => { const f = [...document.querySelectorAll('iframe')].find(f => f.src.endsWith('/notice/notice.html'));
        return { display: getComputedStyle(f).display, ariaHidden: f.getAttribute('aria-hidden') }; }""")
    assert hidden == {"display": "none", "ariaHidden": "true"}, "hidden until the document comes"
    for route in held:
        route.continue_()
    page.unroute("**/v1/web/session")
    page.frame_locator(NOTICE_FRAME).locator("[data-action=acceptAll]").first.wait_for()
    frames = page.locator("iframe[src$='/notice/notice.html']")
    assert frames.count() == 1, "the frame that loaded is the one shown, not a second"
    assert [u for u in requested if u.endswith("/notice/notice.html")].__len__() == 1
    assert page.ck_errors == []


def test_a_visitor_who_is_not_asked_keeps_no_notice_frame(new_page):
    page = new_page()
    page.goto(demo("region=not_eea"))
    page.wait_for_function("() => document.getElementById('api-status').textContent.startsWith('tcloaded')")
    assert page.locator("iframe[src$='/notice/notice.html']").count() == 0


def test_the_vendor_details_load_when_the_vendor_list_opens_and_fill_the_details_and_the_li_layer(new_page):
    page = new_page()
    details = []
    page.on("request", lambda r: details.append(r.url) if "/v1/web/vendor-details" in r.url else None)
    page.goto(demo())
    notice = page.frame_locator(NOTICE_FRAME)
    notice.locator("[data-action=acceptAll]").first.wait_for()
    assert details == [], "the first layer needs no vendor details"
    notice.locator("[data-action=manage]").click()
    notice.locator("section[data-layer='2']").wait_for()
    assert details == [], "nor the purposes layer"
    notice.locator("section[data-layer='2'] [data-action=open-vendors]").click()
    notice.locator("section[data-layer='3'] button.ck-disclosure").first.click()
    panel = notice.locator("section[data-layer='3'] .ck-vendor-details").first
    panel.wait_for()
    assert len(details) == 1 and "site=demo" in details[0]
    assert panel.locator(".ck-meta a[href^='http']").count() >= 1, "the vendor's privacy policy, from the details"
    assert page.ck_errors == []


def test_the_legitimate_interest_layer_shows_each_vendors_policy_and_claim_links_from_the_details(new_page):
    page = new_page()
    page.goto(demo())
    notice = page.frame_locator(NOTICE_FRAME)
    notice.locator("[data-action=manage]").first.click()
    notice.locator("section[data-layer='2'] [data-action=open-li]").first.click()
    layer = notice.locator("section[data-layer='4']")
    layer.locator(".ck-vendor .ck-meta a").first.wait_for()
    cards = layer.locator(".ck-vendor")
    with_links = layer.locator(".ck-vendor .ck-meta:has(a)")
    assert cards.count() > 0 and with_links.count() == cards.count(), "every vendor on the LI layer has its links"
    assert page.ck_errors == []


def test_an_app_document_shows_its_vendor_details_at_once_without_loading(new_page):
    page = new_page()
    doc = ns.build_document(vendor_count=5)
    assert "vendorDetailsUrl" not in doc
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    ns.open_notice(page, doc)
    page.locator("[data-action=manage]").click()
    page.locator("section[data-layer='2'] [data-action=open-vendors]").click()
    page.locator("button.ck-disclosure").first.click()
    assert page.locator("button.ck-disclosure").first.get_attribute("aria-expanded") == "true"
    assert not any("vendor-details" in u for u in requests)
