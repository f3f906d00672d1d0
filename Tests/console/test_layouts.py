"""Every page of the console at a tablet's and a landscape phone's size, and (in Chromium, whose
colour scheme the test can set) in dark mode: signed in as the owner, who sees every page; the
page fits the screen's width (nothing wider than the viewport), axe finds nothing serious, and a
screenshot of each is written for a person to look at (console-layout-<page>-<size>-<engine>.png).
WebKitGTK's colour scheme follows the GTK theme of the MiniBrowser the whole run shares, so its
dark pictures are not taken here."""
import pytest

import console_support as cs

PAGES = ("analytics", "apps", "keys", "notice", "subjects", "audit")
SIZES = {"tablet": (768, 1024), "landscape": (844, 390)}


def overflow(page):
    """How many CSS pixels the page is wider than its viewport (0 when it fits)."""
    return page.evaluate("() => Math.max(0, document.documentElement.scrollWidth - document.documentElement.clientWidth)")


@pytest.mark.parametrize("size", sorted(SIZES))
def test_every_page_fits_a_tablet_and_a_landscape_phone(console, signed_in, size):
    width, height = SIZES[size]
    page = signed_in("owner", "", width, height)
    for name in PAGES:
        page.goto(console.browser_url(page.engine) + "/console/#/" + name)
        cs.wait_page(page)
        assert overflow(page) <= 1, f"{name} at {size} is {overflow(page)} px wider than the screen"
        assert cs.axe_violations(page) == [], f"{name} at {size}"
        cs.screenshot(page, f"layout-{name}-{size}")


def test_every_page_in_dark_mode(request, engine, console):
    if engine != "chromium":
        pytest.skip("WebKitGTK's colour scheme follows the shared MiniBrowser's GTK theme: not set per page")
    session = cs.StrictChromiumSession(request.getfixturevalue("browser"))
    request.addfinalizer(session.close)
    page = session.new_page(1280, 900, color_scheme="dark")
    request.addfinalizer(lambda: cs.assert_clean(page))
    cs.sign_in(page, console, console.operators["owner"], cs.PASSWORD)
    assert page.evaluate("() => matchMedia('(prefers-color-scheme: dark)').matches")
    for name in PAGES:
        page.goto(console.url + "/console/#/" + name)
        cs.wait_page(page)
        # The dark theme is in force: the page's background is dark.
        luminance = page.evaluate("""() => { const c = getComputedStyle(document.body).backgroundColor.match(/\\d+/g).map(Number);
            return (0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]) / 255; }""")
        assert luminance < 0.3, f"{name}: the background is not dark ({luminance:.2f})"
        assert cs.axe_violations(page) == [], name
        cs.screenshot(page, f"layout-{name}-dark")
