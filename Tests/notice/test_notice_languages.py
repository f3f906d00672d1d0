"""Issue 27 §4: the notice in every language it has texts for, whole in one language on every layer.

Documents come from the Swift builder on GVL v2 #224 with the IAB's official 2020 translations
(Fixtures), so a language with a translation is shown whole in that language, and a language
without one (Irish, Arabic) whole in English, saying so. Google's form shows the list's purposes
and special features too, so it follows the same rule as the TCF notice."""

import re

import pytest

import notice_support as ns

LANGUAGES = ns.LANGUAGES
TRANSLATED = sorted(p.stem[len("purposes-"):] for p in ns.TRANSLATIONS_DIR.glob("purposes-*.json"))
# The first layer of these is kept as a screenshot (long words, other scripts, the count's case).
SCREENSHOTS = {"fi", "el", "ga", "mt", "zh", "bg", "hu", "cs", "lt"}


def screen_text(page) -> str:
    """The dialog's text, with the accessible names and placeholders its controls carry."""
    return page.evaluate("""() => { const d = document.querySelector('.ck-dialog');
        const attrs = Array.from(d.querySelectorAll('[aria-label],[placeholder]'))
            .map(e => (e.getAttribute('aria-label') || '') + ' ' + (e.getAttribute('placeholder') || ''));
        return d.textContent + ' ' + attrs.join(' '); }""")


def document_strings(doc) -> list[str]:
    """What the document brings besides its UI texts: GVL texts, vendor and provider names."""
    out = [v["name"] for v in doc["vendors"]] + [a["name"] for a in doc["adTechProviders"]]
    for kind in ("purposes", "specialPurposes", "features", "specialFeatures", "dataCategories"):
        for item in doc[kind].values():
            out += [item["name"].strip(), item["description"].strip()] + item.get("illustrations", [])
    out += [s["name"] for s in doc["stacks"]] + [s["description"] for s in doc["stacks"]]
    out += [doc["publisher"]["name"], doc["publisher"]["appName"]]
    out += ["Transparency and Consent Framework", "Transparency & Consent Framework"]  # a proper name
    return sorted(out, key=len, reverse=True)


def english_only(language: str) -> set[str]:
    """Pieces (4+ characters) of English UI texts that the language's file does not contain."""
    english, own = ns.texts("en"), ns.texts(language)
    pieces = set()
    for key, text in english.items():
        for piece in re.split(r"\{\w+\}", text):
            piece = piece.strip(" .:,()“”")
            if len(piece) >= 4 and piece not in own[key] and piece.lower() not in ("details", "type", "session"):
                pieces.add(piece)
    return pieces


def leaked_english(language: str, doc: dict, seen: str) -> list[str]:
    for data in document_strings(doc):
        seen = seen.replace(data, " ")
    return sorted(p for p in english_only(language) if re.search(r"(?<!\w)" + re.escape(p) + r"(?!\w)", seen))


def walk_tcf_layers(page) -> str:
    """The text of the first layer, the purposes, the vendors (one vendor's details open) and the
    legitimate interests."""
    seen = screen_text(page)
    page.locator('.ck-footer [data-action="manage"]').click()
    seen += " " + screen_text(page)
    page.locator('section[data-layer="2"] [data-action="open-vendors"]').click()
    page.locator("button.ck-disclosure").first.click()
    page.locator(".ck-vendor-detail-body").first.wait_for()
    seen += " " + screen_text(page)
    page.locator(".ck-back").click()
    page.locator('section[data-layer="2"] .ck-nav [data-action="open-li"]').click()
    return seen + " " + screen_text(page)


def test_the_notice_has_texts_for_the_eu_languages_and_every_official_translation():
    eu = {"bg", "cs", "da", "de", "el", "en", "es", "et", "fi", "fr", "ga", "hr", "hu", "it", "lt", "lv", "mt", "nl",
          "pl", "pt", "ro", "sk", "sl", "sv"}
    assert len(TRANSLATED) == 25
    assert (eu | set(TRANSLATED)) - set(LANGUAGES) == set()


def open_in_one_language(new_page, language, mode):
    """The `mode` document asked for in `language` on GVL v2 #224: in that language where the list
    has its official translation, else English saying so; opened, its <html lang> the one shown.
    Returns (document, the language shown, page)."""
    doc = ns.build_document(language=language, mode=mode, vendor_list="v2")
    if language in TRANSLATED:
        assert doc["language"] == language and doc.get("languageFallback") is None
    else:
        assert doc["language"] == "en" and doc["languageFallback"]["requested"] == language
    shown = doc["language"]
    assert doc["texts"] == ns.texts(shown)
    page = ns.open_notice(new_page(), doc)
    assert page.evaluate("document.documentElement.lang") == shown
    return doc, shown, page


@pytest.mark.parametrize("language", [l for l in LANGUAGES if l != "en"])
def test_a_tcf_notice_is_whole_in_one_language_on_every_layer(new_page, language):
    doc, shown, page = open_in_one_language(new_page, language, "tcf")
    assert page.evaluate("document.documentElement.dir") == ("rtl" if shown in ns.RTL_LANGUAGES else "ltr")
    if language in SCREENSHOTS:
        ns.screenshot(page, f"language-{language}-first-layer")
    first = page.locator(".ck-dialog").inner_text()
    # The first layer counts the IAB TCF vendors (with Google's ad-tech providers beside them when
    # the document has some: "20 IAB TCF vendors and 3 other ad-tech providers").
    n = len(doc["vendors"])
    family = "tcfVendors_" if doc["adTechProviders"] else "vendors_"
    form = doc["texts"][family + page.evaluate("([l, n]) => new Intl.PluralRules(l).select(n)", [shown, n])] \
        .replace("{vendorCount}", page.evaluate("([l, n]) => new Intl.NumberFormat(l).format(n)", [shown, n]))
    assert form in first, f"the vendor count in the language's plural form: {form}"
    seen = walk_tcf_layers(page)
    for key in ("firstPersonalData", "purposesTitle", "vendorsTitle", "liTitle", "saveChoices"):
        assert doc["texts"][key] in seen, key
    if shown != "en":
        assert leaked_english(shown, doc, seen) == [], f"English UI text on the {shown} screens"
        official = {p["name"].strip() for p in ns.translation(shown)["purposes"].values()}
        names = page.locator('section[data-layer="4"] li.ck-card[data-kind="purposes"] h3').all_inner_texts()
        assert names and all(n in official for n in names), "purpose names from the official translation"
    assert page.evaluate("window.ConsentKitNotice.metrics.missingTexts") is None


@pytest.mark.parametrize("language", [l for l in LANGUAGES if l != "en"])
def test_googles_form_is_whole_in_one_language(new_page, language):
    doc, shown, page = open_in_one_language(new_page, language, "google")
    seen = screen_text(page)
    assert doc["texts"]["googleQuestion"] in seen
    if shown != "en":
        assert leaked_english(shown, doc, seen) == [], f"English UI text on the {shown} Google form"
        official = {p["name"].strip() for p in ns.translation(shown)["purposes"].values()}
        names = page.locator(".ck-google-purposes [data-purpose] span[dir]").all_inner_texts()
        assert names and all(n in official for n in names), "purpose names from the official translation"
    if language in SCREENSHOTS:
        ns.screenshot(page, f"language-{language}-google-form")


@pytest.fixture(scope="module")
def plural_numbers(browser):
    """For every language, the numbers 0 to 1000 by the category the browser's Intl.PluralRules
    gives them (the rules the notice picks `vendors_<category>` with), from one page for all."""
    context = browser.new_context()
    page = context.new_page()
    by_language = page.evaluate("""(languages) => Object.fromEntries(languages.map(l => {
        const r = new Intl.PluralRules(l), by = {};
        for (let n = 0; n <= 1000; n++) (by[r.select(n)] = by[r.select(n)] || []).push(n);
        return [l, by]; }))""", LANGUAGES)
    context.close()
    return by_language


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_vendor_count_uses_a_plural_form_of_the_language_for_every_count(plural_numbers, language):
    """The page picks `vendors_<category>` with Intl.PluralRules; every category the language has
    is written, and each form holds the count unless it spells it out, which only a form for a
    single number may do (Arabic's and Hebrew's one and two; not Russian's one, which is also 21)."""
    numbers = plural_numbers[language]
    assert numbers, language
    texts = ns.texts(language)
    for category, ns_of_category in numbers.items():
        form = texts[f"vendors_{category}"]
        assert form.strip() and ("{vendorCount}" in form or len(ns_of_category) == 1), (language, category, ns_of_category[:5])
