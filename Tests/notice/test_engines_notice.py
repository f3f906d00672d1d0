"""The notice page in both engines (engines.py: Chromium through Playwright, WebKitGTK, the engine
of WKWebView, through Selenium): every layer renders, Tab and Shift+Tab walk every visible
control, each answer's result, Google's form, right to left, axe-core, and screenshots of every layer and every
layout to NOTICE_ARTIFACTS (named <test>-<engine>.png, to look at)."""
import pathlib
import unicodedata

import pytest

import engines
import notice_support as ns

LAYERS = (1, 2, 3, 4)
LAYOUTS = ("auto", "modal", "banner", "sheet", "fullscreen")

# The focusable controls of the shown layer, in document order, as Tab should visit them.
CONTROLS = """() => {
  const dialog = document.querySelector('[role=dialog]');
  const all = dialog.querySelectorAll('button, a[href], input, select, textarea, summary, [tabindex]:not([tabindex="-1"])');
  window.__ckControls = Array.from(all).filter((e) => !e.disabled && e.tabIndex >= 0 && e.getClientRects().length > 0
    && getComputedStyle(e).visibility !== 'hidden');
  return window.__ckControls.map((e) => e.dataset.action || e.getAttribute('aria-label') || e.textContent.trim().slice(0, 40));
}"""
FOCUSED = "() => window.__ckControls.indexOf(document.activeElement)"


def goto_layer(page, layer):
    """From the first layer to `layer` (the vendor list and the LI layer through the second)."""
    if layer >= 2:
        page.click('.ck-footer [data-action="manage"]')
    if layer == 3:
        page.click('section[data-layer="2"] [data-action="open-vendors"]')
    if layer == 4:
        page.click('section[data-layer="2"] .ck-nav [data-action="open-li"]')
    page.wait_for("(n) => { const s = document.querySelector('section[data-layer=\"' + n + '\"]'); return !!s && s.getClientRects().length > 0; }", layer)


def walk_both_ways(page, names):
    """From the last control Tab wraps to the first and goes on in document order; from there
    Shift+Tab goes back, wrapping from the first to the last (`names`: CONTROLS' answer)."""
    page.evaluate("() => window.__ckControls[window.__ckControls.length - 1].focus()")
    forward = []
    for _ in range(len(names)):
        page.press("Tab")
        forward.append(page.evaluate(FOCUSED))
    assert forward == list(range(len(names))), [names[i] if i >= 0 else None for i in forward]
    backward = []
    for _ in range(len(names)):
        page.press("Shift+Tab")
        backward.append(page.evaluate(FOCUSED))
    assert backward == [(len(names) - 2 - i) % len(names) for i in range(len(names))], [names[i] if i >= 0 else None for i in backward]


def result(page):
    return page.wait_for("() => { const m = window.ConsentKitNotice.lastMessage; return m && m.type === 'result' ? m : null; }")


# ------------------------------------------------------------------------------------ layers

@pytest.mark.parametrize("layer", LAYERS)
def test_every_layer_renders_with_its_title_focused_and_no_script_error(engine_page, doc20, layer):
    page = engines.open_notice(engine_page(), doc20)
    page.evaluate("() => { window.__errors = []; window.addEventListener('error', (e) => window.__errors.push(String(e.message))); }")
    goto_layer(page, layer)
    shown = page.evaluate("""() => Array.from(document.querySelectorAll('section[data-layer]'))
        .filter((s) => s.getClientRects().length > 0).map((s) => Number(s.dataset.layer))""")
    assert shown == [layer]
    dialog = page.evaluate("""() => { const d = document.querySelector('[role=dialog]'), r = d.getBoundingClientRect();
        return { modal: d.getAttribute('aria-modal'), label: d.getAttribute('aria-labelledby'), focused: document.activeElement.id,
                 width: r.width, height: r.height, text: d.textContent.length }; }""")
    assert dialog["modal"] == "true" and dialog["label"] == dialog["focused"]
    assert dialog["width"] > 300 and dialog["height"] > 300 and dialog["text"] > 200
    assert page.evaluate("() => window.__errors") == []
    page.screenshot(f"engines-layer{layer}")


# ------------------------------------------------------------------------------------ keyboard

@pytest.mark.parametrize("layer", LAYERS)
def test_tab_and_shift_tab_visit_every_visible_control_in_document_order_and_wrap(engine_page, doc20, layer):
    page = engines.open_notice(engine_page(), doc20)
    goto_layer(page, layer)
    names = page.evaluate(CONTROLS)
    assert len(names) >= 4, names
    walk_both_ways(page, names)


def test_escape_dismisses_where_dismissal_is_allowed(engine_page, doc20):
    doc20["allowsDismissal"] = True
    page = engines.open_notice(engine_page(), doc20)
    page.press("Tab")
    page.press("Escape")
    assert result(page)["action"] == "dismissed"


def test_escape_does_nothing_without_dismissal(engine_page, doc20):
    page = engines.open_notice(engine_page(), doc20)
    page.press("Tab")
    page.press("Escape")
    assert page.evaluate("() => window.ConsentKitNotice.lastMessage.type") == "ready"
    assert page.evaluate("() => document.querySelectorAll('[role=dialog]').length") == 1


# ------------------------------------------------------------------------------------ results

def test_accept_all_on_the_first_layer_is_the_result(engine_page, doc20):
    page = engines.open_notice(engine_page(), doc20)
    page.click('.ck-footer [data-action="acceptAll"]')
    message = result(page)
    assert message["action"] == "acceptAll" and message["layer"] == 1 and "choices" not in message
    assert page.evaluate("() => document.querySelectorAll('[role=dialog]').length") == 0


def test_reject_all_on_the_second_layer_is_the_result(engine_page, doc20):
    page = engines.open_notice(engine_page(), doc20)
    goto_layer(page, 2)
    page.click('.ck-footer [data-action="rejectAll"]')
    message = result(page)
    assert message["action"] == "rejectAll" and message["layer"] == 2 and "choices" not in message


def test_saved_choices_are_the_switches_turned_on_by_click_and_by_space(engine_page, doc20):
    page = engines.open_notice(engine_page(), doc20)
    goto_layer(page, 2)
    page.click('input[data-kind="purpose"][data-id="1"]')
    page.evaluate("() => document.querySelector('input[data-kind=\"purpose\"][data-id=\"4\"]').focus()")
    page.press("Space")
    page.click('.ck-footer [data-action="save"]')
    message = result(page)
    assert message["action"] == "save" and message["layer"] == 2
    assert message["choices"]["purposeConsents"] == [1, 4]
    assert message["choices"]["vendorConsents"] == [] and message["choices"]["specialFeatureOptIns"] == []


# ------------------------------------------------------------------------------------ Google's form

GOOGLE_ANSWERS = ["acceptAll", "nonPersonalized", "rejectAll"]


@pytest.fixture(scope="module")
def google_doc():
    """Google's form for the 20-vendor publisher (English); tests do not change it."""
    return ns.build_document(mode="google")


def test_googles_form_shows_what_each_answer_records_and_every_answer_is_in_view(engine_page, google_doc):
    page = engines.open_notice(engine_page(), google_doc)
    shown = page.evaluate("""() => ({
        answers: Array.from(document.querySelectorAll('[data-answer]')).map((a) => a.dataset.answer),
        footer: Array.from(document.querySelectorAll('.ck-footer button')).map((b) => { const r = b.getBoundingClientRect();
            return { action: b.dataset.action, inView: r.height > 0 && r.top >= 0 && r.bottom <= innerHeight }; }) })""")
    assert shown["answers"] == GOOGLE_ANSWERS
    offers_ad_free = bool((google_doc.get("adFree") or {}).get("offered"))
    assert [b["action"] for b in shown["footer"]] == GOOGLE_ANSWERS + (["adFree"] if offers_ad_free else []) + ["manage"]
    assert all(b["inView"] for b in shown["footer"]), shown["footer"]
    page.screenshot("engines-google")


def test_tab_and_shift_tab_visit_every_control_of_googles_form(engine_page, google_doc):
    page = engines.open_notice(engine_page(), google_doc)
    names = page.evaluate(CONTROLS)
    assert [n for n in names if n in GOOGLE_ANSWERS + ["manage"]] == GOOGLE_ANSWERS + ["manage"], names
    walk_both_ways(page, names)


@pytest.mark.parametrize("answer", GOOGLE_ANSWERS)
def test_each_answer_of_googles_form_is_one_tap(engine_page, google_doc, answer):
    page = engines.open_notice(engine_page(), google_doc)
    page.click(f'.ck-footer [data-action="{answer}"]')
    message = result(page)
    assert message["action"] == answer and message["layer"] == 1 and "choices" not in message


def test_axe_finds_no_serious_or_critical_violation_on_googles_form(engine_page, google_doc):
    page = engines.open_notice(engine_page(), google_doc)
    assert axe_violations(page) == []


# ------------------------------------------------------------------------------------ right to left

def test_arabic_is_right_to_left_and_the_buttons_mirror(engine_page):
    positions = {}
    for language in ("en", "ar"):
        page = engines.open_notice(engine_page(), ns.document_for(language))
        positions[language] = page.evaluate("""() => {
            const box = (s) => document.querySelector(s).getBoundingClientRect().left;
            return { dir: document.documentElement.dir, lang: document.documentElement.lang,
                     accept: box('.ck-footer [data-action=acceptAll]'), reject: box('.ck-footer [data-action=rejectAll]') }; }""")
        page.screenshot(f"engines-rtl-{language}")
    en, ar = positions["en"], positions["ar"]
    assert (en["dir"], en["lang"], ar["dir"], ar["lang"]) == ("ltr", "en", "rtl", "ar")
    assert en["accept"] < en["reject"] and ar["accept"] > ar["reject"]



# The links inside the first layer's sentences: the text key, its placeholder, the link.
SENTENCE_LINKS = {"firstStorage": ("vendorsLink", '[data-action="open-vendors"]'),
                  "firstLegitimateInterest": ("liLink", '[data-action="open-li"]')}


def punctuation_run(characters) -> str:
    """The characters of Unicode's punctuation classes (P*) at the start of `characters`."""
    run = ""
    for c in characters:
        if not unicodedata.category(c).startswith("P"):
            break
        run += c
    return run


def test_punctuation_against_a_link_stays_on_the_links_line_in_every_language(engine_page, doc20):
    """A link inside a first-layer sentence ("({vendorsLink})" in most languages, "{liLink}.") is
    an inline link whose words wrap with the sentence's: the punctuation written against it sits on
    the line of the link's first word (before) or last word (after), never alone at the end or the
    start of a line (a button is a box the line breaks around: on a phone the Arabic "(" was left
    on the line above). Every language's first layer, 320 px wide, where the 20 vendors and 3
    ad-tech providers' link itself takes more than a line in some (WebKitGTK's window is
    at least 447 px wide)."""
    page = engines.open_notice(engine_page(320, 700), doc20)
    checked, wrapped = 0, 0
    for language in ns.LANGUAGES:
        texts = ns.texts(language)
        doc20.update(language=language, texts=texts, direction="rtl" if language in ns.RTL_LANGUAGES else "ltr")
        page.evaluate("(d) => { window.ConsentKitNotice.configure(d); }", doc20)
        for key, (placeholder, selector) in SENTENCE_LINKS.items():
            before, after = texts[key].split("{" + placeholder + "}")
            lead, trail = punctuation_run(reversed(before))[::-1], punctuation_run(after)
            piece = page.evaluate(LINK_LINES, selector)
            where = f"{language} {key}: {piece}"
            # An inline link in the sentence, nothing lost or doubled around it.
            assert piece["tag"] == "A" and piece["sentence"] == before + piece["link"] + after, where
            wrapped += piece["linkLines"] > 1
            if lead:
                checked += 1
                assert abs(piece["beforeTop"] - piece["linkFirstTop"]) < 4, f"{lead!r} apart from the link: {where}"
            if trail:
                checked += 1
                assert abs(piece["afterTop"] - piece["linkLastTop"]) < 4, f"{trail!r} apart from the link: {where}"
        if language == "ar":
            page.screenshot("engines-sentence-links-ar-phone")
    assert checked >= 40 and wrapped >= 1, (checked, wrapped)


# The first-layer link `selector` and the text around it: the top of the link's first and last
# line boxes, and of the character right before and right after it.
LINK_LINES = """(selector) => {
  const link = document.querySelector('section[data-layer="1"] ' + selector);
  const rects = link.getClientRects();
  const top = (node, at) => { if (!node || node.nodeType !== 3 || !node.data.length) return null;
    const r = document.createRange(); const i = at < 0 ? node.data.length - 1 : 0;
    r.setStart(node, i); r.setEnd(node, i + 1); return r.getClientRects()[0].top; };
  return { tag: link.tagName, link: link.textContent, sentence: link.parentElement.textContent,
           linkLines: new Set(Array.from(rects).map((r) => Math.round(r.top))).size,
           linkFirstTop: rects[0].top, linkLastTop: rects[rects.length - 1].top,
           beforeTop: top(link.previousSibling, -1), afterTop: top(link.nextSibling, 0) };
}"""

# ------------------------------------------------------------------------------------ axe-core

AXE_SOURCE = pathlib.Path(__import__("axe_playwright_python").__file__).parent / "axe.min.js" \
    if __import__("importlib").util.find_spec("axe_playwright_python") else None


def axe_violations(page):
    """axe-core (the copy axe-playwright-python bundles), injected as the body of the evaluated
    function, so the page's Content-Security-Policy has nothing to refuse; its serious and
    critical violations."""
    assert AXE_SOURCE is not None, "axe-playwright-python is not installed (Tests/python/requirements.txt)"
    page.evaluate("() => { " + AXE_SOURCE.read_text(encoding="utf-8") + "\n; window.__ckAxe = axe; }")
    results = page.evaluate("""() => window.__ckAxe.run(document, { runOnly: { type: 'tag',
        values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } })
        .then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, target: v.nodes[0].target })))""")
    return [v for v in results if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("layer", LAYERS)
def test_axe_finds_no_serious_or_critical_violation_on_any_layer(engine_page, doc20, layer):
    page = engines.open_notice(engine_page(), doc20)
    goto_layer(page, layer)
    assert axe_violations(page) == []


# ------------------------------------------------------------------------------------ layouts

@pytest.mark.parametrize("size", [(447, 844), (1280, 800)], ids=["phone", "desktop"])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_every_layout_renders_a_notice_with_its_answers_in_view(engine_page, doc20, layout, size):
    """doc["layout"] (part layout's contract): the page shows a notice whose three answers are in
    the viewport, whatever the layout; the screenshots are to look at. (447 px: WebKitGTK's
    MiniBrowser window is no narrower.)"""
    doc20["layout"] = layout
    page = engines.open_notice(engine_page(*size), doc20)
    boxes = page.evaluate("""() => ['acceptAll', 'rejectAll', 'manage'].map((a) => {
        const r = document.querySelector('.ck-footer [data-action=' + a + ']').getBoundingClientRect();
        return r.width > 0 && r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; })""")
    assert boxes == [True, True, True]
    page.screenshot(f"engines-layout-{layout}-{'phone' if size[0] < 600 else 'desktop'}")
