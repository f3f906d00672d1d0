"""The console's notice editor (page-notice.js, editor and owner; decision record 0043): a colour
and a text edited in the form reach the preview, which is the real notice page in a frame; a
published version reaches the website's served notice (POST /v1/web/session) without a restart;
an unequal label is refused next to its field; axe; screenshots. Each test runs in Chromium and
WebKit. The website is the demo's (`demo`, on while consentd listens on loopback)."""
import json

import pytest

import console_support as cs

pytestmark = pytest.mark.consentd

SITE = "demo"
COLOUR = "#7a1f5c"


def open_editor(signed_in, role="editor"):
    page = signed_in(role, "#/notice?app=" + SITE)
    assert cs.text(page, "main h1") == "Notice"
    wait_preview(page)
    return page


def wait_preview(page, after=0):
    """Waits until the preview frame shows a document newer than preview number `after`; its number."""
    page.wait_for("""(n) => { const f = document.querySelector('iframe.notice-preview');
        return !!(f && Number(f.dataset.preview || 0) > n && f.contentDocument && f.contentDocument.querySelector('#ck-root *')); }""",
                  after, timeout=30)
    return page.evaluate("() => Number(document.querySelector('iframe.notice-preview').dataset.preview)")


def preview_state(page):
    """What the preview frame's notice page shows: its light primary colour and its text."""
    return page.evaluate("""() => { const d = document.querySelector('iframe.notice-preview').contentDocument;
        return { primary: d.documentElement.style.getPropertyValue('--ck-light-primary').trim(), title: d.title,
                 text: d.body.textContent.replace(/\\s+/g, ' '), path: d.location.pathname }; }""")


def set_value(page, selector, value):
    page.evaluate("""(s, v) => { const e = document.querySelector(s); e.value = v;
        e.dispatchEvent(new Event('input', { bubbles: true })); e.dispatchEvent(new Event('change', { bubbles: true })); }""",
                  selector, value)


def field_selector(page, label):
    """The control labelled `label` in the editor's form."""
    control_id = page.evaluate("""(l) => { const label = [...document.querySelectorAll('main label')]
        .find((x) => x.textContent.trim() === l); return label ? label.htmlFor : null; }""", label)
    assert control_id, f"no field labelled {label}"
    return "#" + control_id


def served_document(console):
    """The document a first visitor of the demo site in the EEA is served now."""
    key = console.consent("keys", "create", "--app", SITE, "--kind", "publishable").strip()
    status, _, body = console.request("POST", "/v1/web/session", {"credential": key, "debugRegion": "eea", "language": "en"})
    assert status == 200, body
    return json.loads(body)["document"]


def test_an_edited_colour_and_text_show_in_the_preview_and_publishing_serves_them(console, signed_in, engine):
    page = open_editor(signed_in)
    before = preview_state(page)
    assert before["path"] == "/notice/notice.html", "the preview is the real notice page"
    # A draft to edit: the first draft starts from the configured notice.
    drafts = page.evaluate("() => [...document.querySelectorAll('main .notice-edit .actions button')].map((b) => b.textContent)")
    if "Create draft" in drafts:
        page.evaluate("() => [...document.querySelectorAll('main .notice-edit .actions button')].find((b) => b.textContent === 'Create draft').click()")
        page.wait_for("() => /^Draft version \\d+$/.test((document.querySelector('#notice-editor-title') || {}).textContent || '')", timeout=30)
    elif not any(d.startswith("Publish version") for d in drafts):
        page.evaluate("() => [...document.querySelectorAll('main .notice-edit .actions button')].find((b) => b.textContent.startsWith('New draft')).click()")
        page.wait_for("() => /^Draft version \\d+$/.test((document.querySelector('#notice-editor-title') || {}).textContent || '')", timeout=30)
    shown = wait_preview(page)
    title = f"Your privacy choices ({engine})"
    set_value(page, field_selector(page, "Buttons"), COLOUR)
    set_value(page, field_selector(page, "Title"), title)
    shown = wait_preview(page, shown)
    page.wait_for("(t) => document.querySelector('iframe.notice-preview').contentDocument.title === t", title, timeout=30)
    state = preview_state(page)
    assert state["primary"] == COLOUR
    assert state["title"] == title
    cs.screenshot(page, "notice-editor")

    # Publish, after the confirmation; the served notice shows the new colour and title at once.
    page.evaluate("() => [...document.querySelectorAll('main .notice-edit .actions button')].find((b) => b.textContent.startsWith('Publish version')).click()")
    page.wait_for("() => document.activeElement && document.activeElement.tagName === 'H3'")
    assert cs.axe_violations(page) == []
    cs.screenshot(page, "notice-publish-confirm")
    page.evaluate("() => [...document.querySelectorAll('main .confirm button')].find((b) => b.textContent.startsWith('Publish version')).click()")
    page.wait_for("() => !!document.querySelector('main .form-status .success')", timeout=30)
    said = cs.text(page, "main .form-status .success")
    assert "is published as notice version" in said and "asked again" in said, said
    document = served_document(console)
    assert document["theme"]["light"]["primary"] == COLOUR
    assert document["texts"]["noticeTitle"] == title
    assert document["noticeVersion"] >= 1
    rows = page.evaluate("() => [...document.querySelectorAll('main table tbody tr')].map((r) => [...r.cells].map((c) => c.textContent.trim()))")
    assert rows[0][1] == "Published" and rows[0][2] == str(document["noticeVersion"]) and rows[0][3] == "Yes"


def test_a_relabelled_accept_alone_is_refused_next_to_the_reject_field(console, signed_in, engine):
    page = open_editor(signed_in, "owner")
    buttons = page.evaluate("() => [...document.querySelectorAll('main .notice-edit .actions button')].map((b) => b.textContent)")
    if not any(b.startswith("Publish version") for b in buttons):
        label = "Create draft" if "Create draft" in buttons else next(b for b in buttons if b.startswith("New draft"))
        page.evaluate("(l) => [...document.querySelectorAll('main .notice-edit .actions button')].find((b) => b.textContent === l).click()", label)
        page.wait_for("() => /^Draft version \\d+$/.test((document.querySelector('#notice-editor-title') || {}).textContent || '')", timeout=30)
    accept = field_selector(page, "“Accept all” button")
    reject = field_selector(page, "“Reject all” button")
    set_value(page, reject, "")
    set_value(page, accept, "Sure, go ahead")
    page.wait_for("(s) => document.querySelector(s).getAttribute('aria-invalid') === 'true'", reject, timeout=30)
    described = page.evaluate("(s) => { const e = document.querySelector(s); return (e.getAttribute('aria-describedby') || '').split(' ')"
                              ".map((id) => document.getElementById(id)).filter(Boolean).map((x) => x.textContent).join(' '); }", reject)
    assert "rejectAll" in described or "Reject all" in described, described
    assert "keeps the last notice" in cs.text(page, "main .preview-status")
    assert cs.axe_violations(page) == []
    cs.screenshot(page, "notice-refused")
    # Nothing refused is saved: the draft on the server keeps its labels equal.
    page.evaluate("() => [...document.querySelectorAll('main .notice-edit .actions button')].find((b) => b.textContent === 'Save draft').click()")
    page.wait_for("(s) => document.activeElement === document.querySelector(s)", reject, timeout=30)


def test_the_preview_switches_language_and_mode(console, signed_in, engine):
    page = open_editor(signed_in)
    buttons = page.evaluate("() => [...document.querySelectorAll('main .notice-edit .actions button')].map((b) => b.textContent)")
    if not any(b.startswith("Publish version") for b in buttons):
        label = "Create draft" if "Create draft" in buttons else next(b for b in buttons if b.startswith("New draft"))
        page.evaluate("(l) => [...document.querySelectorAll('main .notice-edit .actions button')].find((b) => b.textContent === l).click()", label)
        page.wait_for("() => /^Draft version \\d+$/.test((document.querySelector('#notice-editor-title') || {}).textContent || '')", timeout=30)
    shown = wait_preview(page)
    set_value(page, field_selector(page, "Languages offered (the first is the default)"), "en, fr")
    shown = wait_preview(page, shown)
    set_value(page, field_selector(page, "Preview language"), "fr")
    set_value(page, field_selector(page, "Mode"), "google")
    shown = wait_preview(page, shown)
    mode = page.evaluate("() => document.querySelector('iframe.notice-preview').contentDocument.documentElement.lang")
    assert mode in ("fr", "en")  # French UI texts when the bundled list is translated; English otherwise, as served
    assert "Google" in cs.text(page, "main .preview-status")
    set_value(page, field_selector(page, "Mode"), "us")
    wait_preview(page, shown)
    assert "US notice" in cs.text(page, "main .preview-status")
    assert cs.axe_violations(page) == []
    cs.screenshot(page, "notice-preview-us")


def test_analysts_and_support_have_no_notice_page(console, signed_in):
    for role in ("analyst", "support"):
        page = signed_in(role)
        assert page.evaluate("() => [...document.querySelectorAll('#nav a')].every((a) => !a.href.endsWith('#/notice'))")
        cookie, csrf = console.session(role)
        status, _, _ = console.request("GET", "/v1/console/notices/apps", headers={"Cookie": cookie})
        assert status == 403
