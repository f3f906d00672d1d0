"""The consent notice with the keyboard alone, in headless Chromium (issue 27 §1, review notice-ux
§4.2): Tab and Shift+Tab visit every visible control of every layer in document order, in both
directions, wrapping at the ends; on a first and a reopened notice and in the Google form. Escape
closes only where dismissal is allowed, and focus goes back where it was when the notice closes.

A control is what the keyboard can reach by itself: an element with a tabIndex of 0 or more that
is rendered (checkVisibility) and not disabled, inside the dialog. The tests do not share the
page's own list of focusable selectors, so a control the page forgets is caught."""
import pytest

import notice_support as ns

ns.require_browser()

# Marks every control of the dialog with its position in document order and returns how many.
MARK_CONTROLS = """() => {
  document.querySelectorAll('[data-ck-tab]').forEach(e => e.removeAttribute('data-ck-tab'));
  const dialog = document.querySelector('[role=dialog]');
  const controls = Array.from(dialog.querySelectorAll('*')).filter(e =>
    e.tabIndex >= 0 && !e.disabled && e.checkVisibility({visibilityProperty: true}) && !e.closest('[inert]'));
  controls.forEach((e, i) => e.setAttribute('data-ck-tab', String(i)));
  return controls.length;
}"""
ACTIVE = """() => {
  const a = document.activeElement;
  if (!a || !a.hasAttribute('data-ck-tab')) return a ? a.outerHTML.slice(0, 80) : null;
  return Number(a.getAttribute('data-ck-tab'));
}"""


def walk(page, key, presses):
    seen = []
    for _ in range(presses):
        page.keyboard.press(key)
        seen.append(page.evaluate(ACTIVE))
    return seen


def assert_tab_visits_every_control_in_order(page):
    """From the first control, Tab visits each in document order and wraps to the first;
    Shift+Tab from there wraps to the last and goes back through each to the first."""
    n = page.evaluate(MARK_CONTROLS)
    assert n >= 2, "a layer with fewer than two controls"
    page.locator('[data-ck-tab="0"]').focus()
    assert walk(page, "Tab", n) == list(range(1, n)) + [0]
    assert walk(page, "Shift+Tab", n) == [n - 1] + list(range(n - 2, -1, -1))
    return n


def assert_tab_from_title_reaches_the_next_control(page):
    """Focus starts on the layer's title (not a tab stop); Tab goes to the first control after it."""
    page.evaluate(MARK_CONTROLS)
    title_id = page.evaluate("document.activeElement.id")
    assert title_id.startswith("ck-title-")
    expected = page.evaluate("""(id) => {
      const title = document.getElementById(id);
      const after = Array.from(document.querySelectorAll('[data-ck-tab]'))
        .find(e => title.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING);
      return Number(after.getAttribute('data-ck-tab'));
    }""", title_id)
    page.keyboard.press("Tab")
    assert page.evaluate(ACTIVE) == expected


def visible_actions(page):
    return page.evaluate("""() => Array.from(document.querySelectorAll('[data-ck-tab]'))
      .map(e => e.dataset.action || e.getAttribute('role') || e.tagName.toLowerCase())""")


# ------------------------------------------------------------------------------------ first notice

def test_tab_on_the_first_layer_reaches_accept_reject_and_every_link(new_page, doc20):
    page = ns.open_notice(new_page(), doc20)
    assert_tab_from_title_reaches_the_next_control(page)
    assert_tab_visits_every_control_in_order(page)
    actions = visible_actions(page)
    for action in ("open-vendors", "open-li", "acceptAll", "rejectAll", "manage"):
        assert action in actions
    assert "a" in actions  # the privacy policy


def test_tab_on_the_purposes_layer_reaches_every_switch(new_page, doc20):
    page = ns.open_notice(new_page(), doc20)
    page.locator('.ck-footer [data-action="manage"]').click()
    assert_tab_from_title_reaches_the_next_control(page)
    n = assert_tab_visits_every_control_in_order(page)
    switches = page.locator('section[data-layer="2"] input[role="switch"]').count()
    assert switches > 0 and visible_actions(page).count("switch") == switches
    assert n > switches


def test_tab_on_the_vendor_list_reaches_search_switches_and_open_details(new_page, doc20):
    page = ns.open_notice(new_page(), doc20)
    page.locator('.ck-footer [data-action="manage"]').click()
    page.locator('section[data-layer="2"] [data-action="open-vendors"]').click()
    page.locator("section[data-layer='3'] button.ck-disclosure").first.click()
    page.locator(".ck-vendor-detail-body").first.wait_for()
    assert_tab_visits_every_control_in_order(page)
    actions = visible_actions(page)
    assert "storage-details" in actions or "a" in actions  # inside the open details
    assert actions.count("switch") == page.locator('section[data-layer="3"] input[role="switch"]').count()


def test_tab_on_the_legitimate_interest_layer_reaches_every_objection(new_page, doc20):
    page = ns.open_notice(new_page(), doc20)
    page.locator('.ck-footer [data-action="manage"]').click()
    page.locator('section[data-layer="2"] .ck-nav [data-action="open-li"]').click()
    assert_tab_from_title_reaches_the_next_control(page)
    assert_tab_visits_every_control_in_order(page)
    assert visible_actions(page).count("switch") == page.locator('section[data-layer="4"] input[role="switch"]').count()


def test_a_switch_reached_by_tab_toggles_with_space(new_page, doc20):
    page = ns.open_notice(new_page(), doc20)
    page.locator('.ck-footer [data-action="manage"]').click()
    n = page.evaluate(MARK_CONTROLS)
    for _ in range(n):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.getAttribute('role')") == "switch":
            break
    assert page.evaluate("document.activeElement.getAttribute('role')") == "switch"
    page.keyboard.press("Space")
    assert page.evaluate("document.activeElement.checked") is True


# ------------------------------------------------------------------------------------ reopened notice

def test_tab_on_a_reopened_notice_reaches_close_and_every_switch(new_page):
    doc = ns.build_document(reopen=True)
    page = ns.open_notice(new_page(), doc)
    assert_tab_from_title_reaches_the_next_control(page)
    assert_tab_visits_every_control_in_order(page)
    actions = visible_actions(page)
    assert actions[0] == "button"  # the close button in the top bar, before the title
    assert page.evaluate("document.querySelector('[data-ck-tab=\"0\"]').getAttribute('aria-label')") == doc["texts"]["close"]
    assert "save" in actions and "switch" in actions


def page_with_focused_opener(new_page):
    """The notice page with a focused "Privacy settings" button on it, as a site's opener."""
    page = new_page()
    ns.load_page(page)
    page.evaluate("""() => {
      const b = document.createElement('button'); b.id = 'settings'; b.textContent = 'Privacy settings';
      document.body.insertBefore(b, document.body.firstChild); b.focus();
    }""")
    return page


def test_escape_closes_a_reopened_notice_and_focus_returns_to_its_opener(new_page):
    page = page_with_focused_opener(new_page)
    ns.configure(page, ns.build_document(reopen=True))
    assert page.evaluate("document.activeElement.id") == "ck-title-2"
    page.keyboard.press("Escape")
    assert ns.last_message(page)["action"] == "dismissed"
    assert page.evaluate("document.activeElement.id") == "settings"


def test_focus_returns_to_the_opener_after_an_answer(new_page, doc20):
    page = page_with_focused_opener(new_page)
    ns.configure(page, doc20)
    page.locator('.ck-footer [data-action="rejectAll"]').focus()
    page.keyboard.press("Enter")
    assert ns.last_message(page)["action"] == "rejectAll"
    assert page.evaluate("document.activeElement.id") == "settings"


def test_escape_leaves_a_first_notice_open_and_focus_inside(new_page, doc20):
    page = ns.open_notice(new_page(), doc20)
    page.locator('.ck-footer [data-action="acceptAll"]').focus()
    page.keyboard.press("Escape")
    assert page.locator('[role="dialog"]').is_visible()
    assert ns.last_message(page)["type"] == "ready"
    assert page.evaluate("document.activeElement.dataset.action") == "acceptAll"


# ------------------------------------------------------------------------------------ Google form

@pytest.mark.parametrize("ad_free", [False, True])
def test_tab_in_the_google_form_reaches_every_answer(new_page, ad_free):
    doc = ns.build_document(mode="google", adFree={"offered": ad_free})
    page = ns.open_notice(new_page(), doc)
    assert_tab_from_title_reaches_the_next_control(page)
    assert_tab_visits_every_control_in_order(page)
    actions = visible_actions(page)
    # The honest form (decision record 0017): Yes, No and Do not consent are each one tap.
    for action in ("acceptAll", "nonPersonalized", "rejectAll", "manage", "open-partners"):
        assert action in actions, action
    assert ("adFree" in actions) == ad_free


def test_tab_in_the_google_partners_list_reaches_every_control(new_page):
    doc = ns.build_document(mode="google")
    page = ns.open_notice(new_page(), doc)
    page.locator('[data-action="open-partners"]').click()
    n = assert_tab_visits_every_control_in_order(page)
    assert n > len(doc["vendors"])  # back, every partner's policy link, the publisher's
