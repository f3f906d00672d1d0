"""The notice's US mode (docs/notice-protocol.md "US mode", decision record 0034) in both engines
(engines.py: Chromium through Playwright, WebKitGTK through Selenium): the notice at collection and
its one-tap answers, "Your Privacy Choices" and its switches, the limit on sensitive information
only where offered, Global Privacy Control and a known child turning the opt-outs on and locking
them, a service provider's notice, the keyboard, axe-core, right to left, and screenshots to
NOTICE_ARTIFACTS (named us-<what>-<engine>.png, to look at).

The US document is the Swift builder's TCF document of the 20-vendor publisher made a US one here:
mode "us", a `us` object, the TCF content emptied (a US document needs none), and the texts of the
language's file (texts/{language}.json), which hold the US keys."""
import pytest

import engines
import notice_support as ns
from test_engines_notice import CONTROLS, axe_violations, result, walk_both_ways

OPT_OUTS = ("saleOptOut", "sharingOptOut", "targetedAdvertisingOptOut")
ALL_OFF = {"saleOptOut": False, "sharingOptOut": False, "targetedAdvertisingOptOut": False, "sensitiveDataLimited": False}


def us_document(doc, language="en", current=None, **us):
    """`doc` (a TCF document) as a US one in `language`: section usca, state CA, and `us`'s flags."""
    doc.update(mode="us", language=language, direction="rtl" if language in ns.RTL_LANGUAGES else "ltr",
               texts=ns.texts(language), languageFallback=None, vendors=[], adTechProviders=[], stacks=[],
               purposes={}, specialPurposes={}, features={}, specialFeatures={}, dataCategories={},
               current={"us": current} if current is not None else None,
               us={"section": "usca", "state": "CA", "limitSensitive": False, "knownChild": False, "gpc": False,
                   "serviceProvider": False, **us})
    return doc


def open_us(engine_page, doc, size=(447, 844), **kwargs):
    return engines.open_notice(engine_page(*size), us_document(doc, **kwargs))


def shown_layer(page):
    return page.evaluate("""() => Array.from(document.querySelectorAll('section[data-layer]'))
        .filter((s) => s.getClientRects().length > 0).map((s) => Number(s.dataset.layer))""")


def footer_actions(page):
    return page.evaluate("() => Array.from(document.querySelectorAll('.ck-footer button')).map((b) => b.dataset.action)")


def switches(page):
    """The switches of "Your Privacy Choices" in document order: field -> [on, disabled]."""
    pairs = page.evaluate("""() => Array.from(document.querySelectorAll('input[data-us]'))
        .map((i) => [i.dataset.us, [i.checked, i.disabled]])""")
    return dict(pairs)  # WebDriver's objects do not keep their keys' order; a list of pairs does


def open_choices(page):
    page.click('.ck-footer [data-action="choices"]')
    page.wait_for("() => { const s = document.querySelector('section[data-layer=\"2\"]'); return !!s && s.getClientRects().length > 0; }")


# ------------------------------------------------------------------------------------ the first layer

def test_the_notice_at_collection_says_what_is_collected_and_why_and_offers_the_three_entries(engine_page, doc20):
    page = open_us(engine_page, doc20)
    texts = ns.texts("en")
    # The icon loads after the layer shows (a busy machine once read it before): wait until it
    # loaded or failed; a failed one is hidden and has no natural width, which the check refuses.
    page.wait_for("() => { const i = document.querySelector('.ck-footer [data-action=choices] img'); return !!i && i.complete; }")
    shown = page.evaluate("""() => ({ text: document.querySelector('section[data-layer="1"]').textContent,
        title: document.activeElement.textContent, labels: Array.from(document.querySelectorAll('.ck-footer button')).map((b) => b.textContent.trim()),
        icon: (() => { const i = document.querySelector('.ck-footer [data-action=choices] img'); return i && i.complete && i.naturalWidth > 0 && i.getAttribute('src'); })(),
        policy: document.querySelector('.ck-policy a').href })""")
    assert shown["title"] == "How Example News uses your personal information"
    assert texts["usCollected"] in shown["text"] and texts["usPurposes"] in shown["text"]
    assert shown["labels"] == ["Do Not Sell or Share My Personal Information", "Continue", "Your Privacy Choices"]
    assert shown["icon"] == "privacy-choices.svg"
    assert shown["policy"] == doc20["publisher"]["privacyPolicyUrl"]
    assert engines.last_message(page) ["type"] == "ready" and engines.last_message(page)["layer"] == 1
    page.screenshot("us-first")


ENGLISH_STATES = ("California", "Virginia", "Colorado", "Utah", "Connecticut", "Florida", "Montana", "Oregon", "Texas", "Delaware",
                  "Iowa", "Nebraska", "New Hampshire", "New Jersey", "Tennessee", "Minnesota", "Maryland", "Indiana", "Kentucky",
                  "Rhode Island")


def law_sentence(page):
    """The first layer's sentence saying whose law gives the choices: [its text key, its text]."""
    return page.evaluate("""() => { const p = document.querySelector('section[data-layer="1"] .ck-us-law');
        return p && [p.dataset.text, p.textContent]; }""")


def test_a_california_notice_says_the_choices_are_californias_law(engine_page, doc20):
    page = open_us(engine_page, doc20)
    texts = ns.texts("en")
    assert law_sentence(page) == ["usLawState", texts["usLawState"].replace("{state}", "California")]
    assert law_sentence(page)[1].startswith("Under California law, you can opt out")
    page.screenshot("us-first-california")


@pytest.mark.parametrize("state", [None, "CA", "WA"], ids=["no-state", "in-california", "in-washington"])
def test_a_national_notice_names_no_state(engine_page, doc20, state):
    """usnat: the choices are those of the US state laws together, whatever state the visitor is in."""
    page = open_us(engine_page, doc20, section="usnat", state=state, limitSensitive=True)
    assert law_sentence(page) == ["usLawNational", ns.texts("en")["usLawNational"]]
    dialog = page.evaluate("() => document.querySelector('.ck-dialog').textContent")
    assert [name for name in ENGLISH_STATES if name in dialog] == []
    page.screenshot(f"us-first-national-{state or 'none'}")


@pytest.mark.parametrize("section,language,name", [("usva", "en", "Virginia"), ("usca", "de", "Kalifornien"), ("usnj", "ru", "Нью-Джерси"),
                                                   ("usca", "el", "Καλιφόρνια"), ("usca", "ja", "カリフォルニア")])
def test_a_state_notice_names_the_state_as_its_language_does(engine_page, doc20, section, language, name):
    page = open_us(engine_page, doc20, section=section, state=section[2:].upper(), language=language)
    assert law_sentence(page) == ["usLawState", ns.texts(language)["usLawState"].replace("{state}", name)]


def test_do_not_sell_or_share_is_one_tap_and_answers_opt_out_on_layer_one(engine_page, doc20):
    page = open_us(engine_page, doc20)
    page.click('.ck-footer [data-action="optOut"]')
    message = result(page)
    assert (message["action"], message["layer"], message["language"]) == ("optOut", 1, "en")
    assert "choices" not in message
    assert page.evaluate("() => document.querySelectorAll('[role=dialog]').length") == 0


def test_continue_answers_acknowledged_on_layer_one(engine_page, doc20):
    page = open_us(engine_page, doc20)
    page.click('.ck-footer [data-action="acknowledged"]')
    message = result(page)
    assert (message["action"], message["layer"]) == ("acknowledged", 1) and "choices" not in message


# ------------------------------------------------------------------------------------ Your Privacy Choices

def test_your_privacy_choices_shows_the_three_opt_outs_off_and_save_answers_them(engine_page, doc20):
    page = open_us(engine_page, doc20)
    open_choices(page)
    assert shown_layer(page) == [2]
    assert switches(page) == {f: [False, False] for f in OPT_OUTS}
    assert footer_actions(page) == ["save"]
    page.click('input[data-us="sharingOptOut"]')
    page.evaluate("() => document.querySelector('input[data-us=\"targetedAdvertisingOptOut\"]').focus()")
    page.press("Space")
    page.click('.ck-footer [data-action="save"]')
    message = result(page)
    assert (message["action"], message["layer"]) == ("save", 2)
    assert message["choices"] == {"us": {**ALL_OFF, "sharingOptOut": True, "targetedAdvertisingOptOut": True}}


def test_the_switches_open_on_the_present_choices_and_save_keeps_them(engine_page, doc20):
    current = {**ALL_OFF, "saleOptOut": True, "sensitiveDataLimited": True}
    page = open_us(engine_page, doc20, current=current, limitSensitive=True)
    open_choices(page)
    assert switches(page) == {"saleOptOut": [True, False], "sharingOptOut": [False, False],
                              "targetedAdvertisingOptOut": [False, False], "sensitiveDataLimited": [True, False]}
    page.click('.ck-footer [data-action="save"]')
    assert result(page)["choices"] == {"us": current}


def test_start_layer_purposes_opens_on_your_privacy_choices(engine_page, doc20):
    doc20["startLayer"] = "purposes"
    page = open_us(engine_page, doc20)
    assert shown_layer(page) == [2]
    assert engines.last_message(page)["layer"] == 2


def test_limit_the_use_of_sensitive_information_is_offered_only_with_limit_sensitive(engine_page, doc20):
    page = open_us(engine_page, doc20, limitSensitive=True)
    open_choices(page)
    assert list(switches(page)) == [*OPT_OUTS, "sensitiveDataLimited"]
    label = page.evaluate("() => document.querySelector('input[data-us=sensitiveDataLimited]').closest('label').textContent")
    assert label == "Limit the Use of My Sensitive Personal Information"
    page.click('input[data-us="sensitiveDataLimited"]')
    page.screenshot("us-choices-sensitive")
    page.click('.ck-footer [data-action="save"]')
    assert result(page)["choices"] == {"us": {**ALL_OFF, "sensitiveDataLimited": True}}


def test_without_limit_sensitive_there_is_no_limit_and_a_saved_choice_never_limits(engine_page, doc20):
    # current says limited (from another state's notice): this section does not offer it
    page = open_us(engine_page, doc20, current={**ALL_OFF, "sensitiveDataLimited": True}, limitSensitive=False)
    open_choices(page)
    assert list(switches(page)) == list(OPT_OUTS)
    assert "Sensitive" not in page.evaluate("() => document.querySelector('section[data-layer=\"2\"]').textContent")
    page.click('.ck-footer [data-action="save"]')
    assert result(page)["choices"] == {"us": ALL_OFF}


# ------------------------------------------------------------------------------------ GPC, known child

@pytest.mark.parametrize("signal,key", [("gpc", "usGpcOn"), ("knownChild", "usChildOn")])
def test_gpc_and_a_known_child_turn_the_opt_outs_on_lock_them_and_say_why(engine_page, doc20, signal, key):
    page = open_us(engine_page, doc20, limitSensitive=True, **{signal: True})
    reason = ns.texts("en")[key]
    first = page.evaluate("() => document.querySelector('section[data-layer=\"1\"] .ck-us-reason').textContent")
    assert first == reason
    # the opt-outs are already on: no "Do Not Sell or Share" to tap, "Continue" and the choices remain
    assert footer_actions(page) == ["acknowledged", "choices"]
    page.screenshot(f"us-first-{signal}")
    open_choices(page)
    assert switches(page) == {**{f: [True, True] for f in OPT_OUTS}, "sensitiveDataLimited": [False, False]}
    described = page.evaluate("""() => Array.from(document.querySelectorAll('input[data-us]:disabled'))
        .map((i) => document.getElementById(i.getAttribute('aria-describedby')).textContent)""")
    assert described == [reason] * 3
    page.screenshot(f"us-choices-{signal}")
    # a click on a locked switch's label moves nothing (a script's click: the drivers refuse to click what is disabled)
    page.evaluate("() => document.querySelector('li[data-us-choice=saleOptOut] .ck-switch span').click()")
    page.click('.ck-footer [data-action="save"]')
    assert result(page)["choices"] == {"us": {"saleOptOut": True, "sharingOptOut": True, "targetedAdvertisingOptOut": True,
                                              "sensitiveDataLimited": False}}


def test_continue_with_gpc_answers_acknowledged(engine_page, doc20):
    page = open_us(engine_page, doc20, gpc=True)
    page.click('.ck-footer [data-action="acknowledged"]')
    assert result(page)["action"] == "acknowledged"


# ------------------------------------------------------------------------------------ service provider

def test_a_service_providers_notice_has_no_opt_out_and_only_continue(engine_page, doc20):
    doc20["startLayer"] = "purposes"  # even when asked for the choices: there are none
    page = open_us(engine_page, doc20, serviceProvider=True, limitSensitive=True)
    assert shown_layer(page) == [1]
    assert footer_actions(page) == ["acknowledged"]
    assert page.evaluate("() => document.querySelectorAll('input, [data-action=optOut], [data-action=choices]').length") == 0
    said = page.evaluate("() => document.querySelector('[data-text=usServiceProvider]').textContent")
    assert said == ns.texts("en")["usServiceProvider"]
    page.screenshot("us-service-provider")
    page.click('.ck-footer [data-action="acknowledged"]')
    assert result(page)["action"] == "acknowledged"


# ------------------------------------------------------------------------------------ documents refused

@pytest.mark.parametrize("change,expected", [
    (lambda d: d.pop("us"), 'A US document needs a "us" object.'),
    (lambda d: d["us"].update(section="uspv1"), "us.section must be the API prefix of a US section"),
    (lambda d: d["us"].update(section="tcfeuv2"), "us.section must be the API prefix of a US section"),
    (lambda d: d["us"].update(state="California"), "us.state must be a two-letter state code"),
    (lambda d: d["us"].update(gpc="yes"), "us.gpc must be true or false."),
    (lambda d: d.update(current={"us": {"saleOptOut": 1}}), "current.us.saleOptOut must be true or false."),
], ids=["no-us", "uspv1", "tcfeuv2", "state", "gpc", "current"])
def test_a_us_document_without_a_valid_us_part_is_a_load_error(engine_page, doc20, change, expected):
    doc = us_document(doc20)
    change(doc)
    page = engines.open_notice(engine_page(), doc)
    message = engines.last_message(page)
    assert message["type"] == "loadError" and message["code"] == "malformed_document"
    assert message["message"].startswith(expected), message["message"]
    assert page.evaluate("() => document.querySelectorAll('[role=dialog]').length") == 0


# ------------------------------------------------------------------------------------ keyboard

@pytest.mark.parametrize("layer", (1, 2))
def test_tab_and_shift_tab_visit_every_control_of_each_us_layer(engine_page, doc20, layer):
    page = open_us(engine_page, doc20, limitSensitive=True)
    if layer == 2:
        open_choices(page)
    names = page.evaluate(CONTROLS)
    controls = page.evaluate("() => window.__ckControls.map((e) => e.dataset.action || e.dataset.us || e.getAttribute('href'))")
    expected = ([doc20["publisher"]["privacyPolicyUrl"], "optOut", "acknowledged", "choices"] if layer == 1
                else [None, *OPT_OUTS, "sensitiveDataLimited", "save"])  # None: the back button
    assert controls == expected
    walk_both_ways(page, names)


def tab_to(page, data, value, most=12):
    """Presses Tab until the focused element's data-`data` is `value` (at most `most` times)."""
    for _ in range(most):
        page.press("Tab")
        if page.evaluate("(k) => document.activeElement.dataset[k]", data) == value:
            return
    raise AssertionError(f"Tab never reached data-{data}={value}")


def focus_is_visible(page):
    """The focused control is drawn with an outline. In WebKitGTK under WebDriver and xvfb the
    window may not have the system focus (document.hasFocus() false), so neither :focus nor
    :focus-visible match there; WebKit must then have the control as its active element, one the
    keyboard focus style (`:focus-visible { outline: 3px solid }`) applies to."""
    if page.engine == "chromium":
        return page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle") == "solid"
    return page.evaluate("() => document.activeElement.matches('button, input, a[href]')")


def test_the_us_notice_is_operable_with_the_keyboard_alone(engine_page, doc20):
    """Tab to "Your Privacy Choices", Enter; Space on a switch; Tab to "Save choices", Enter; the
    focus is always visible (an outline) on the control it is on."""
    page = open_us(engine_page, doc20, limitSensitive=True)
    tab_to(page, "action", "choices")
    assert focus_is_visible(page)
    page.press("Enter")
    page.wait_for("() => document.activeElement.id === 'ck-title-2'")
    tab_to(page, "us", "saleOptOut")
    assert focus_is_visible(page)
    page.press("Space")
    tab_to(page, "action", "save")
    page.press("Enter")
    message = result(page)
    assert message["action"] == "save" and message["choices"]["us"] == {**ALL_OFF, "saleOptOut": True}


def test_escape_dismisses_a_us_notice_only_where_dismissal_is_allowed(engine_page, doc20):
    page = open_us(engine_page, doc20)
    page.press("Tab")
    page.press("Escape")
    assert engines.last_message(page)["type"] == "ready"
    doc = us_document(ns.build_document())
    doc["allowsDismissal"] = True
    page = engines.open_notice(engine_page(), doc)
    page.press("Tab")
    page.press("Escape")
    assert result(page)["action"] == "dismissed"


# ------------------------------------------------------------------------------------ axe, right to left, layouts

@pytest.mark.parametrize("variant", ["first", "choices", "gpc-choices", "service-provider", "national"])
def test_axe_finds_no_serious_or_critical_violation_in_us_mode(engine_page, doc20, variant):
    flags = {"gpc": True} if variant == "gpc-choices" else {"serviceProvider": True} if variant == "service-provider" else \
        {"section": "usnat", "state": None} if variant == "national" else {}
    page = open_us(engine_page, doc20, limitSensitive=True, **flags)
    if "choices" in variant:
        open_choices(page)
    assert axe_violations(page) == []


def test_arabic_us_notice_is_right_to_left_and_its_answers_mirror(engine_page, doc20, _doc20):
    import copy

    positions = {}
    for language, doc in (("en", doc20), ("ar", copy.deepcopy(_doc20))):
        page = open_us(engine_page, doc, language=language, limitSensitive=True)
        positions[language] = page.evaluate("""() => { const box = (s) => document.querySelector(s).getBoundingClientRect();
            const law = document.querySelector('.ck-us-law');
            return { dir: document.documentElement.dir, optOut: box('.ck-footer [data-action=optOut]').left,
                     ack: box('.ck-footer [data-action=acknowledged]').left, law: law.textContent }; }""")
        page.screenshot(f"us-rtl-{language}-first")
        open_choices(page)
        positions[language]["switch"] = page.evaluate("""() => { const r = document.querySelector('input[data-us=saleOptOut]').getBoundingClientRect(),
            l = document.querySelector('input[data-us=saleOptOut]').closest('label').getBoundingClientRect(); return r.left - l.left < l.right - r.right; }""")
        page.screenshot(f"us-rtl-{language}-choices")
    en, ar = positions["en"], positions["ar"]
    assert (en["dir"], ar["dir"]) == ("ltr", "rtl")
    assert en["optOut"] < en["ack"] and ar["optOut"] > ar["ack"]
    assert ar["law"] == ns.texts("ar")["usLawState"].replace("{state}", "كاليفورنيا")  # the state named in Arabic
    assert en["switch"] is True and ar["switch"] is False  # the switch leads its sentence, on the right in Arabic


@pytest.mark.parametrize("size", [(447, 844), (844, 390), (820, 1180), (1280, 800)], ids=["phone", "landscape", "tablet", "desktop"])
@pytest.mark.parametrize("layout", ("modal", "banner", "sheet", "fullscreen"))
def test_every_layout_shows_the_us_answers_in_view(engine_page, doc20, layout, size):
    doc20["layout"] = layout
    page = open_us(engine_page, doc20, size=size)
    boxes = page.evaluate("""() => ['optOut', 'acknowledged', 'choices'].map((a) => {
        const r = document.querySelector('.ck-footer [data-action=' + a + ']').getBoundingClientRect();
        return r.width > 0 && r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; })""")
    assert boxes == [True, True, True]
    assert page.evaluate("() => document.documentElement.dataset.layout") == layout
    names = {(447, 844): "phone", (844, 390): "landscape", (820, 1180): "tablet", (1280, 800): "desktop"}
    page.screenshot(f"us-layout-{layout}-{names[size]}")


# ------------------------------------------------------------------------------------ every language, dark mode (Chromium)

@pytest.mark.parametrize("language", ns.LANGUAGES)
def test_every_language_shows_the_us_notice_whole_in_that_language(new_page, doc20, language):
    """Both layers, with GPC and the limit, in each language the notice has: every text from the
    language's file, none missing, the right direction."""
    doc = us_document(doc20, language=language, limitSensitive=True, gpc=True)
    page = ns.open_notice(new_page(), doc)
    texts = ns.texts(language)
    first = page.locator(".ck-dialog").inner_text()
    assert page.locator(".ck-footer button").all_inner_texts() == [texts["usContinue"], texts["usChoices"]]
    page.locator('.ck-footer [data-action="choices"]').click()
    labels = page.locator("label.ck-switch").all_inner_texts()
    assert labels == [texts[k] for k in ("usSale", "usSharing", "usTargeted", "usSensitive")]
    assert texts["usGpcOn"] in first and texts["usCollected"] in first
    state = page.evaluate("NoticeUS.stateName('usca', document.documentElement.lang)")
    assert state and texts["usLawState"].replace("{state}", state) in first
    assert page.evaluate("window.ConsentKitNotice.metrics.missingTexts") is None
    assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == \
        [language, "rtl" if language in ns.RTL_LANGUAGES else "ltr"]
    if language in ("de", "ja", "el", "hi"):
        ns.screenshot(page, f"us-choices-{language}")


def test_dark_mode_draws_the_us_notice_in_the_dark_palette(new_page, doc20):
    page = ns.open_notice(new_page(color_scheme="dark"), us_document(doc20, limitSensitive=True, current={**ALL_OFF, "saleOptOut": True}))
    ns.screenshot(page, "us-first-dark")
    page.locator('.ck-footer [data-action="choices"]').click()
    colours = page.evaluate("""() => [getComputedStyle(document.querySelector('.ck-dialog')).backgroundColor,
        getComputedStyle(document.querySelector('input[data-us=saleOptOut]')).backgroundColor]""")
    dark = doc20["theme"]["dark"]
    rgb = lambda hex_: "rgb({}, {}, {})".format(*(int(hex_[i:i + 2], 16) for i in (1, 3, 5)))  # noqa: E731
    assert colours == [rgb(dark["background"]), rgb(dark["primary"])]  # an opt-out that is on: the primary colour
    ns.screenshot(page, "us-choices-dark")
