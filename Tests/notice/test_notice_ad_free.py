"""000-27 (seed 000's optional "paid-app alternative"; seed 001's shouldOfferAdFree): the TCF
notice offers "Pay for the ad-free version" when the publisher sells one, as Google's form does,
in headless Chromium on documents of the Swift builder."""
import pytest

import notice_support as ns

ns.require_browser()


def footer_actions(page):
    return [b.get_attribute("data-action") for b in page.locator(".ck-footer button").all()]


def test_000_27_tcf_first_layer_offers_ad_free_beside_accept_reject_and_manage(new_page):
    doc = ns.build_document(adFree={"offered": True})
    assert doc["mode"] == "tcf" and doc["adFree"] == {"offered": True}
    page = ns.open_notice(new_page(), doc)
    ns.screenshot(page, "000-27-tcf-ad-free-first-layer")
    assert footer_actions(page) == ["acceptAll", "rejectAll", "manage", "adFree"]
    ad_free = page.locator('.ck-footer [data-action="adFree"]')
    assert ad_free.inner_text() == doc["texts"]["adFree"] == "Pay for the ad-free version"
    # A secondary button, like "Manage options": accepting and rejecting stay the two primary ones.
    assert "ck-btn-secondary" in ad_free.get_attribute("class")
    ad_free.click()
    message = ns.last_message(page)
    assert message["type"] == "result" and message["action"] == "adFree" and message["layer"] == 1
    assert "choices" not in message


def test_000_27_tcf_notice_without_ad_free_has_no_such_button(new_page):
    page = ns.open_notice(new_page(), ns.build_document(adFree={"offered": False}))
    assert footer_actions(page) == ["acceptAll", "rejectAll", "manage"]


def test_000_27_ad_free_in_the_publishers_language(new_page):
    doc = ns.build_document(language="de", adFree={"offered": True})
    assert doc["language"] == "de"
    page = ns.open_notice(new_page(), doc)
    assert page.locator('.ck-footer [data-action="adFree"]').inner_text() == "Für die werbefreie Version bezahlen"


@pytest.mark.parametrize("font", ["100%", "200%"])
@pytest.mark.parametrize("size", [(320, 568), (568, 320), (390, 844), (844, 390)])
def test_000_27_all_four_answers_are_visible_without_scrolling(new_page, size, font):
    width, height = size
    page = new_page(width, height)
    ns.load_page(page)
    page.evaluate("f => { document.documentElement.style.fontSize = f; }", font)
    ns.configure(page, ns.build_document(adFree={"offered": True}))
    ns.screenshot(page, f"000-27-tcf-ad-free-{width}x{height}-{font.rstrip('%')}")
    boxes = page.evaluate("""() => Array.from(document.querySelectorAll('.ck-footer button')).map(b => {
        const r = b.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return {action: b.dataset.action, top: r.top, bottom: r.bottom, left: r.left, right: r.right,
                onTop: hit === b || b.contains(hit)};
    })""")
    assert [b["action"] for b in boxes] == ["acceptAll", "rejectAll", "manage", "adFree"]
    for b in boxes:
        assert b["top"] >= 0 and b["bottom"] <= height + 0.5 and b["left"] >= 0 and b["right"] <= width + 0.5, (size, font, b)
        assert b["onTop"], b
