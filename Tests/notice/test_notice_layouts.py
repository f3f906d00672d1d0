"""The notice's layouts and brand (issue 27 §3, decision records 0019 and 0020): where the dialog
sits for each `layout` of the document (`auto`, `modal`, `banner`, `sheet`, `fullscreen`), the page
behind it showing through a transparent frame, the publisher's font stack and button style, and
the website's "Privacy settings" link (`data-consentkit="preferences"`).

Screenshots of every layout (phone, tablet, desktop; light and dark) with a publisher's page behind
the notice go to NOTICE_ARTIFACTS for a human to look at; they are never compared."""
from __future__ import annotations

import pytest

import notice_support as ns

ns.require_browser()

LAYOUTS = ["auto", "modal", "banner", "sheet", "fullscreen"]
VIEWPORTS = {"phone": (390, 844), "tablet": (820, 1180), "desktop": (1280, 800)}
# The publisher's page behind the notice: a bright, striped page, so that what shows through is
# easy to tell from the notice's own background. The frame is styled as cmp-web.js styles it.
HOST_PAGE = "/layout-host.html"
HOST_HTML = """<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<style>
  body { margin: 0; font: 18px/1.5 serif; background: repeating-linear-gradient(45deg, #ffd54a 0 40px, #ff8a3d 40px 80px); }
  h1, p { margin: 1rem 2rem; background: #fff8; }
</style></head>
<body><h1>Example News</h1><p>Today's front page: the story behind the notice, which the reader should still see.</p>
<iframe id="notice" title="Privacy settings" src="/notice/notice.html"></iframe>
<script>
  const frame = document.getElementById('notice');
  const css = { position: 'fixed', top: '0', left: '0', width: '100%', height: '100%', border: '0', margin: '0',
    padding: '0', zIndex: '2147483647', colorScheme: 'light dark', background: 'transparent' };
  Object.keys(css).forEach(k => { frame.style[k] = css[k]; });
</script>
</body></html>"""
# The host page's colours (the two stripes) and those seen through the scrim.
STRIPES = [(0xff, 0xd5, 0x4a), (0xff, 0x8a, 0x3d)]


def open_layout(new_page, doc, layout, viewport="phone", scheme="light"):
    """The notice of `doc` in `layout` on notice.html alone (no page behind)."""
    width, height = VIEWPORTS[viewport]
    doc["layout"] = layout
    return ns.open_notice(new_page(width, height, color_scheme=scheme), doc)


def open_over_host(new_page, doc, layout, viewport="desktop", scheme="light"):
    """The notice of `doc` in `layout`, framed by a publisher's page (HOST_HTML) on the notice's origin."""
    server = ns.resource_server()
    server.pages[HOST_PAGE] = HOST_HTML
    width, height = VIEWPORTS[viewport]
    page = new_page(width, height, color_scheme=scheme)
    page.goto(server.url + HOST_PAGE)
    frame = page.frame_locator("#notice")
    page.wait_for_function("() => { const w = document.getElementById('notice').contentWindow; return w && w.ConsentKitNotice; }")
    doc["layout"] = layout
    page.evaluate("d => document.getElementById('notice').contentWindow.ConsentKitNotice.configure(d)", doc)
    frame.locator(".ck-dialog").wait_for()
    return page


def dialog_box(page):
    return page.evaluate("""() => { const r = document.querySelector('.ck-dialog').getBoundingClientRect();
        return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height}; }""")


def pixel(page, x: int, y: int) -> tuple[int, int, int]:
    """The colour at (x, y) of a screenshot of `page`, as a browser decodes the PNG."""
    import base64

    png = base64.b64encode(page.screenshot()).decode()
    return tuple(page.evaluate("""([png, x, y]) => new Promise((resolve, reject) => {
        const img = new Image();
        img.onload = () => {
          const c = document.createElement('canvas'); c.width = img.width; c.height = img.height;
          const g = c.getContext('2d'); g.drawImage(img, 0, 0);
          resolve(Array.from(g.getImageData(x, y, 1, 1).data.slice(0, 3)));
        };
        img.onerror = reject;
        img.src = 'data:image/png;base64,' + png;
    })""", [png, x, y]))


# ------------------------------------------------------------------------------------ which layout

@pytest.mark.parametrize("viewport,resolved", [("phone", "sheet"), ("tablet", "modal"), ("desktop", "modal")])
def test_auto_is_a_sheet_below_600_css_pixels_and_a_modal_above(new_page, doc20, viewport, resolved):
    page = open_layout(new_page, doc20, "auto", viewport)
    assert page.evaluate("document.documentElement.dataset.layout") == resolved


def test_auto_follows_the_width_when_it_crosses_600_pixels(new_page, doc20):
    page = open_layout(new_page, doc20, "auto", "desktop")
    page.set_viewport_size({"width": 599, "height": 800})
    page.wait_for_function("document.documentElement.dataset.layout === 'sheet'")
    page.set_viewport_size({"width": 600, "height": 800})
    page.wait_for_function("document.documentElement.dataset.layout === 'modal'")


@pytest.mark.parametrize("layout", ["modal", "banner", "sheet", "fullscreen"])
def test_a_chosen_layout_is_kept_at_every_width(new_page, doc20, layout):
    for viewport in VIEWPORTS:
        page = open_layout(new_page, doc20, layout, viewport)
        assert page.evaluate("document.documentElement.dataset.layout") == layout, viewport


@pytest.mark.parametrize("value", [None, "popup", 3])
def test_a_missing_or_unknown_layout_is_auto(new_page, doc20, value):
    if value is None:
        doc20.pop("layout", None)
    page = open_layout(new_page, doc20, value, "desktop") if value is not None else ns.open_notice(new_page(1280, 800), doc20)
    assert page.evaluate("document.documentElement.dataset.layout") == "modal"


def test_the_swift_builder_writes_auto_by_default(doc20):
    assert doc20["layout"] == "auto"


# ------------------------------------------------------------------------------------ where the dialog sits

def test_modal_is_a_centred_card_with_room_around_it(new_page, doc20):
    page = open_layout(new_page, doc20, "modal", "desktop")
    box = dialog_box(page)
    assert box["width"] <= 42 * 16 + 1 and box["width"] < 1280 - 32
    assert abs(box["left"] - (1280 - box["right"])) <= 1  # centred across
    assert abs(box["top"] - (800 - box["bottom"])) <= 1  # and down
    assert box["top"] >= 16 and box["bottom"] <= 800 - 16
    radius = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.ck-dialog')).borderTopLeftRadius)")
    assert radius > 0


def test_sheet_rises_from_the_bottom_edge_and_leaves_the_top_of_the_page_visible(new_page, doc20):
    page = open_layout(new_page, doc20, "sheet", "phone")
    box = dialog_box(page)
    assert box["bottom"] == 844 and box["left"] == 0 and box["right"] == 390
    assert box["top"] >= 844 * 0.1 - 1


def test_banner_spans_the_width_along_the_bottom_edge_and_scrolls_inside(new_page, doc20):
    page = open_layout(new_page, doc20, "banner", "desktop")
    box = dialog_box(page)
    assert box["bottom"] == 800 and box["left"] == 0 and box["right"] == 1280
    assert box["height"] <= 800 * 0.6 + 1
    scroll = page.evaluate("(() => { const s = document.querySelector('.ck-scroll'); return s.scrollHeight > s.clientHeight; })()")
    assert scroll, "the first layer is longer than the band: its body scrolls"
    for b in page.locator(".ck-footer button").all()[:2]:
        assert b.is_visible() and b.bounding_box()["y"] + b.bounding_box()["height"] <= 800


def test_fullscreen_covers_the_viewport_with_an_opaque_background(new_page, doc20):
    page = open_layout(new_page, doc20, "fullscreen", "desktop")
    assert dialog_box(page) == {"left": 0, "top": 0, "right": 1280, "bottom": 800, "width": 1280, "height": 800}
    assert page.evaluate("getComputedStyle(document.querySelector('.ck-dialog')).backgroundColor") == "rgb(255, 255, 255)"


@pytest.mark.parametrize("layout", ["modal", "sheet", "banner"])
def test_outside_the_card_the_page_behind_shows_dimmed_through_the_frame(new_page, doc20, layout):
    page = open_over_host(new_page, doc20, layout, "desktop")
    seen = pixel(page, 8, 8)  # the top-left corner: outside the card in every one of these layouts
    # Dimmed stripes: darker than the page's own colours, still orange-yellow (red > green > blue).
    assert seen not in STRIPES and seen != (255, 255, 255), seen
    assert seen[0] > seen[1] > seen[2] and seen[0] > 100, seen


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_frame_stays_transparent_in_both_colour_schemes(new_page, doc20, scheme):
    page = open_over_host(new_page, doc20, "modal", "desktop", scheme)
    seen = pixel(page, 8, 8)
    assert seen[0] > seen[1] > seen[2] and seen[0] > 100, (scheme, seen)


def test_fullscreen_hides_the_page_behind(new_page, doc20):
    page = open_over_host(new_page, doc20, "fullscreen", "desktop")
    assert pixel(page, 8, 8) == (255, 255, 255)


def test_the_scrim_goes_with_the_dialog(new_page, doc20):
    page = open_layout(new_page, doc20, "modal", "desktop")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgba(0, 0, 0, 0.5)"
    page.locator('.ck-footer [data-action="rejectAll"]').click()
    assert page.evaluate("document.querySelector('.ck-dialog')") is None
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgba(0, 0, 0, 0)"


@pytest.mark.parametrize("layout", ["modal", "sheet", "banner"])
def test_every_layout_stays_modal_and_keeps_the_answers_in_view(new_page, doc20, layout):
    page = open_layout(new_page, doc20, layout, "phone")
    # A click outside the card reaches no page (there is none to reach) and does not close it.
    page.mouse.click(5, 5)
    assert page.locator(".ck-dialog").is_visible()
    for action in ("acceptAll", "rejectAll"):
        button = page.locator(f'.ck-footer [data-action="{action}"]')
        box = button.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 844, (action, box)
        top = page.evaluate("""a => { const b = document.querySelector('.ck-footer [data-action="' + a + '"]');
            const r = b.getBoundingClientRect(); return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === b; }""", action)
        assert top, action


# ------------------------------------------------------------------------------------ brand

def test_the_publishers_font_stack_is_used_for_text_and_buttons(new_page, doc20):
    doc20["theme"]["fontFamily"] = '"DejaVu Serif", Georgia, serif'
    page = open_layout(new_page, doc20, "modal", "desktop")
    fonts = page.evaluate("""() => [getComputedStyle(document.body).fontFamily,
        getComputedStyle(document.querySelector('.ck-btn')).fontFamily]""")
    assert fonts == ['"DejaVu Serif", Georgia, serif'] * 2


@pytest.mark.parametrize("stack", ["Georgia", "x; color: red, serif", "url(https://evil.example/f.woff), serif"])
def test_a_font_stack_the_swift_builder_would_refuse_is_ignored(new_page, doc20, stack):
    doc20["theme"]["fontFamily"] = stack
    page = open_layout(new_page, doc20, "modal", "desktop")
    assert page.evaluate("getComputedStyle(document.body).fontFamily").startswith("system-ui")


def test_outlined_buttons_draw_accept_and_reject_alike_in_the_brand_colour(new_page, doc20):
    doc20["theme"]["buttonStyle"] = "outlined"
    page = open_layout(new_page, doc20, "modal", "desktop")
    styles = page.evaluate("""() => ['acceptAll', 'rejectAll'].map(a => {
        const s = getComputedStyle(document.querySelector('.ck-footer [data-action="' + a + '"]'));
        return [s.backgroundColor, s.color, s.borderTopColor, s.fontWeight, s.height]; })""")
    assert styles[0] == styles[1]
    background, colour, border = styles[0][:3]
    assert background == "rgb(255, 255, 255)" and colour == border == "rgb(23, 70, 162)"  # theme.light.primary #1746a2


def test_filled_buttons_are_the_default(new_page, doc20):
    page = open_layout(new_page, doc20, "modal", "desktop")
    assert page.evaluate("document.documentElement.dataset.buttonStyle") == "filled"
    assert page.evaluate("getComputedStyle(document.querySelector('.ck-footer [data-action=\"acceptAll\"]')).backgroundColor") == "rgb(23, 70, 162)"


# ------------------------------------------------------------------------------------ screenshots

@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("viewport", sorted(VIEWPORTS))
@pytest.mark.parametrize("layout", LAYOUTS)
def test_screenshots_of_every_layout_over_a_page(new_page, doc20, layout, viewport, scheme):
    page = open_over_host(new_page, doc20, layout, viewport, scheme)
    ns.screenshot(page, f"layout-{layout}-{viewport}-{scheme}-1-first")
    frame = page.frame_locator("#notice")
    frame.locator('.ck-footer [data-action="manage"]').click()
    ns.screenshot(page, f"layout-{layout}-{viewport}-{scheme}-2-purposes")


@pytest.mark.parametrize("layout", ["modal", "sheet"])
def test_screenshots_of_the_google_form_in_a_card(new_page, layout):
    doc = ns.build_document(mode="google")
    page = open_over_host(new_page, doc, layout, "desktop" if layout == "modal" else "phone")
    ns.screenshot(page, f"layout-{layout}-google")


# ------------------------------------------------------------------------------------ on a website (consentd)

NOTICE_FRAME = 'iframe[title="Privacy settings"]'


def open_demo(page, status="cmpuishown"):
    page.goto(ns.consentd().url + "/demo?region=eea")
    page.wait_for_function("(s) => document.getElementById('api-status').textContent.startsWith(s)", arg=status)


@pytest.mark.consentd
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_on_a_website_the_frame_is_transparent_and_the_site_shows_dimmed_behind_the_card(new_page, scheme):
    page = new_page(1280, 800, color_scheme=scheme)
    open_demo(page)
    notice = page.frame_locator(NOTICE_FRAME)
    notice.locator(".ck-dialog").wait_for()
    assert page.evaluate(f"getComputedStyle(document.querySelector('{NOTICE_FRAME}')).colorScheme") == "light dark"
    assert notice.locator("html").get_attribute("data-layout") == "modal"
    behind = pixel(page, 8, 400)
    ns.screenshot(page, f"layout-website-demo-desktop-{scheme}")
    notice.locator('.ck-footer [data-action="rejectAll"]').click()
    page.wait_for_function("() => document.getElementById('api-status').textContent.startsWith('useractioncomplete')")
    page.wait_for_function(f"() => !document.querySelector('{NOTICE_FRAME}')")
    site = pixel(page, 8, 400)
    # The scrim is black at 50%: what shows is the site's own colour, halved.
    assert all(abs(b - s * 0.5) <= 3 for b, s in zip(behind, site)), (behind, site)


@pytest.mark.consentd
def test_a_data_consentkit_preferences_link_reopens_the_notice_on_its_choices(new_page):
    page = new_page(390, 844)
    open_demo(page)
    page.frame_locator(NOTICE_FRAME).locator('.ck-footer [data-action="rejectAll"]').click()
    page.wait_for_function("() => document.getElementById('api-status').textContent.startsWith('useractioncomplete')")
    # Added after cmp.js ran, as a site's footer rendered late would be; no script of the site's own.
    page.evaluate("""() => { const a = document.createElement('a'); a.href = '#privacy'; a.id = 'footer-link';
        a.dataset.consentkit = 'preferences'; a.innerHTML = '<span>Privacy and cookie settings</span>';
        document.body.appendChild(a); }""")
    page.click("#footer-link span")  # a click inside the element counts
    notice = page.frame_locator(NOTICE_FRAME)
    notice.locator('section[data-layer="2"]').wait_for()
    assert notice.locator("html").get_attribute("data-layout") == "sheet"
    assert "#privacy" not in page.url, "the link's own navigation is prevented"
    ns.screenshot(page, "layout-website-demo-phone-reopened")
    notice.get_by_role("button", name="Close").click()
    page.wait_for_function(f"() => !document.querySelector('{NOTICE_FRAME}')")
    assert page.evaluate("document.activeElement.id") == "footer-link"
    # From the keyboard: Enter on the focused link reopens it too.
    page.keyboard.press("Enter")
    page.frame_locator(NOTICE_FRAME).locator('section[data-layer="2"]').wait_for()


@pytest.mark.consentd
def test_an_element_without_the_attribute_value_does_not_reopen_the_notice(new_page):
    page = new_page(390, 844)
    open_demo(page)
    page.frame_locator(NOTICE_FRAME).locator('.ck-footer [data-action="rejectAll"]').click()
    page.wait_for_function(f"() => !document.querySelector('{NOTICE_FRAME}')")
    page.evaluate("""() => { const a = document.createElement('button'); a.id = 'other';
        a.dataset.consentkit = 'something-else'; a.textContent = 'x'; document.body.appendChild(a); }""")
    page.click("#other")
    page.wait_for_timeout(500)
    assert page.locator(NOTICE_FRAME).count() == 0


# ------------------------------------------------------------------------------------ colours: the page takes what the builder takes

def hex_to_rgb(colour: str) -> str:
    return "rgb(%d, %d, %d)" % tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))


def test_a_palette_the_builder_accepts_at_4_5_to_1_is_applied(new_page, doc20):
    # Body text #747474 on white is 4.6:1: between the 4.5:1 NoticeTheme.validate() asks and the 5:1 the page used to.
    light = dict(doc20["theme"]["light"], text="#747474", surface="#ffffff", mutedText="#747474")
    doc20["theme"]["light"] = light
    page = open_layout(new_page, doc20, "fullscreen", "desktop")
    assert page.evaluate("getComputedStyle(document.body).color") == hex_to_rgb("#747474")


def test_a_palette_whose_links_fail_on_cards_falls_back_to_the_standard_one(new_page, doc20):
    doc20["theme"]["light"] = dict(doc20["theme"]["light"], text="#111111", surface="#8a8f98")  # muted text 2.5:1 on it
    page = open_layout(new_page, doc20, "fullscreen", "desktop")
    assert page.evaluate("getComputedStyle(document.body).color") == hex_to_rgb("#1a1a1a")  # notice.css's own palette
