"""Screenshots of every layer of the notice for a human to look at (not compared to anything):
phone portrait 390x844, landscape 844x390 and tablet 820x1180, light and dark, in English,
Russian and Arabic, plus Google mode. Written to env NOTICE_ARTIFACTS (default
/tmp/notice-artifacts); never committed."""
import pytest

import notice_support as ns

ns.require_browser()

VIEWPORTS = {"phone": (390, 844), "landscape": (844, 390), "tablet": (820, 1180)}


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("viewport", sorted(VIEWPORTS))
@pytest.mark.parametrize("language", ["en", "ru", "ar"])
def test_screenshots_of_each_layer(new_page, language, viewport, scheme):
    width, height = VIEWPORTS[viewport]
    page = ns.open_notice(new_page(width, height, color_scheme=scheme), ns.document_for(language))

    def shot(name):
        path = ns.screenshot(page, f"{language}-{viewport}-{scheme}-{name}")
        assert path.stat().st_size > 0

    shot("1-first")
    page.locator('.ck-footer [data-action="manage"]').click()
    shot("2-purposes")
    page.locator('section[data-layer="2"] [data-action="open-vendors"]').click()
    page.locator("button.ck-disclosure").first.click()
    page.locator(".ck-vendor-detail-body").first.wait_for()
    shot("3-vendors")
    page.locator(".ck-back").click()
    page.locator('section[data-layer="2"] .ck-nav [data-action="open-li"]').click()
    shot("4-legitimate-interest")


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("language", ["en", "ar"])
def test_screenshots_google_mode(new_page, language, scheme):
    doc = ns.document_for(language, mode="google", adFree={"offered": True})
    page = ns.open_notice(new_page(390, 844, color_scheme=scheme), doc)
    ns.screenshot(page, f"google-{language}-{scheme}-1-main")
    # Issue 27 §2: no explainer screen any more; the end of the card, then the partners list.
    page.locator(".ck-scroll").evaluate("e => { e.scrollTop = e.scrollHeight; }")
    ns.screenshot(page, f"google-{language}-{scheme}-2-card-end")
    page.locator(".ck-scroll").evaluate("e => { e.scrollTop = 0; }")
    page.locator('[data-action="open-partners"]').click()
    ns.screenshot(page, f"google-{language}-{scheme}-3-partners")
