"""Accessibility, layout, localisation and network checks of the consent notice in headless
Chromium: acceptance criteria 47-55 of shared/reference/notes/consent-notice.md section 8, and
that the notice measures and reports its performance (the budgets are scripts/bench-notice's)."""
import re

import pytest

import notice_support as ns

ns.require_browser()


def goto_layer(page, layer):
    """From the first layer to layer 1-4 (the vendor list and LI layer via the second layer)."""
    if layer >= 2:
        page.locator('.ck-footer [data-action="manage"]').click()
    if layer == 3:
        page.locator('section[data-layer="2"] [data-action="open-vendors"]').click()
        page.locator("button.ck-disclosure").first.click()
        page.locator(".ck-vendor-detail-body").first.wait_for()
    if layer == 4:
        page.locator('section[data-layer="2"] .ck-nav [data-action="open-li"]').click()
    assert page.locator(f'section[data-layer="{layer}"]').is_visible()


# ------------------------------------------------------------------------------------ 47 axe

@pytest.mark.parametrize("layer", [1, 2, 3, 4])
@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_item47_axe_no_serious_or_critical_violation(new_page, scheme, language, layer):
    from axe_playwright_python.sync_playwright import Axe

    doc = ns.document_for(language)
    page = ns.open_notice(new_page(color_scheme=scheme), doc)
    goto_layer(page, layer)
    results = Axe().run(page, options={"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]}})
    violations = results.response["violations"]
    for v in violations:
        print(f"axe {scheme}/{language}/layer {layer}: {v['impact']} {v['id']}: {v['help']} ({len(v['nodes'])} nodes)")
    bad = [(v["id"], v["impact"], v["nodes"][0]["target"]) for v in violations if v["impact"] in ("serious", "critical")]
    assert bad == []


# ------------------------------------------------------------------------------------ 48, 49 dialog and controls

def test_item48_dialog_semantics_and_focus_moves_to_each_layer_title(new_page, doc20):
    page = ns.open_notice(new_page(), doc20)
    dialog = page.locator('[role="dialog"]')
    assert dialog.get_attribute("aria-modal") == "true"
    title_id = dialog.get_attribute("aria-labelledby")
    assert page.locator(f"#{title_id}").inner_text().startswith("Example News")
    assert page.evaluate("document.activeElement.id") == title_id
    # Tab and Shift+Tab: test_notice_keyboard.py (every control, in order, both directions)
    # on a layer change the new layer's title is the label and gets focus
    page.locator('.ck-footer [data-action="manage"]').click()
    assert dialog.get_attribute("aria-labelledby") == "ck-title-2"
    assert page.evaluate("document.activeElement.id") == "ck-title-2"
    page.locator('.ck-footer [data-action="save"]').click()
    assert page.evaluate("document.activeElement === document.body")


def test_item49_toggles_are_named_switches_and_every_control_has_a_name(new_page, doc20):
    page = ns.open_notice(new_page(), doc20)
    goto_layer(page, 2)
    page.locator('section[data-layer="2"] [data-action="open-vendors"]').click()
    page.locator(".ck-back").click()
    page.locator('section[data-layer="2"] .ck-nav [data-action="open-li"]').click()
    toggles = page.evaluate("""() => Array.from(document.querySelectorAll('input')).filter(i => i.type !== 'search')
        .map(i => ({type: i.type, role: i.getAttribute('role'), name: i.getAttribute('aria-label')}))""")
    assert len(toggles) > 40
    assert all(t["type"] == "checkbox" and t["role"] == "switch" and t["name"] for t in toggles)
    unnamed = page.evaluate("""() => Array.from(document.querySelectorAll('button, a, summary, input'))
        .filter(e => !((e.getAttribute('aria-label') || e.textContent || e.placeholder || '').trim()))
        .map(e => e.outerHTML.slice(0, 80))""")
    assert unnamed == []
    # the accessibility tree reports the switch state
    switch = page.get_by_role("switch", name=re.compile(r"^Object to legitimate interest: ")).first
    assert switch.is_checked() is False
    switch.click()
    assert switch.is_checked() is True
    assert switch.evaluate("e => e.matches(':checked')")
    assert page.evaluate("window.ConsentKitNotice.metrics.toggleMs") is not None


def accessible_names(page):
    """Every name in Chromium's accessibility tree of the page (its only frame)."""
    cdp = page.context.new_cdp_session(page)
    nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    return [n["name"]["value"] for n in nodes if isinstance(n.get("name", {}).get("value"), str)]


@pytest.mark.parametrize("language", ["en", "ar"])
def test_names_carry_no_decorative_characters(new_page, language):
    doc = ns.document_for(language)
    page = ns.open_notice(new_page(), doc)
    goto_layer(page, 3)  # the vendor list with one vendor's details open
    names = accessible_names(page)
    first = page.locator('section[data-layer="3"] .ck-vendor-name').first.inner_text()
    assert f"{doc['texts']['details']}: {first}" in names
    assert [n for n in names if "\u25b8" in n or "\u25c2" in n] == []
    page.locator(".ck-back").click()
    page.locator('section[data-layer="2"] .ck-nav [data-action="open-li"]').click()
    page.locator('section[data-layer="4"] button.ck-disclosure').first.click()
    assert [n for n in accessible_names(page) if "\u25b8" in n or "\u25c2" in n] == []


def test_a_polite_live_region_says_the_new_layer(new_page, doc20):
    page = ns.open_notice(new_page(), doc20)
    live = page.locator('[role="dialog"] [aria-live="polite"].ck-sr')
    assert live.count() == 1 and live.inner_text() == ""  # the first layer is announced by the dialog
    goto_layer(page, 2)
    assert live.text_content() == page.locator("#ck-title-2").text_content()
    page.locator('section[data-layer="2"] [data-action="open-vendors"]').click()
    assert live.text_content() == doc20["texts"]["vendorsTitle"]
    page.locator(".ck-back").click()
    assert live.text_content() == doc20["texts"]["purposesTitle"]


# ------------------------------------------------------------------------------------ 50-52 layout

@pytest.mark.parametrize("size", [(320, 568), (568, 320), (390, 844)])
def test_item50_200_percent_text_reflows_without_clipping(new_page, doc20, size):
    width, height = size
    page = new_page(width, height)
    ns.load_page(page)
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    ns.configure(page, doc20)
    for layer in (1, 2, 3):
        if layer == 2:
            page.locator('.ck-footer [data-action="manage"]').click()
        if layer == 3:
            page.locator('section[data-layer="2"] [data-action="open-vendors"]').click()
        overflow = page.evaluate("""() => {
            const scroll = document.querySelector('.ck-scroll');
            const clipped = Array.from(document.querySelectorAll('.ck-dialog button, .ck-dialog h1, .ck-dialog h2, .ck-dialog h3, .ck-dialog p'))
              .filter(e => e.checkVisibility() && e.scrollWidth > e.clientWidth + 1).map(e => e.outerHTML.slice(0, 60));
            return {page: document.documentElement.scrollWidth - window.innerWidth,
                    scroll: scroll.scrollWidth - scroll.clientWidth, clipped};
        }""")
        assert overflow == {"page": 0, "scroll": 0, "clipped": []}, (size, layer, overflow)
        # the footer is compact (Accept | Reject side by side): test_at_200_percent_text_...
        for b in page.locator(".ck-footer button").all()[:2]:
            box = b.bounding_box()
            assert box["y"] >= 0 and box["y"] + box["height"] <= height + 0.5


def open_at_text_size(new_page, doc, size, percent):
    page = new_page(*size)
    ns.load_page(page)
    page.evaluate(f"document.documentElement.style.fontSize = '{percent}%'")
    ns.configure(page, doc)
    return page


FOOTER_REPORT = """() => {
  const f = document.querySelector('.ck-footer'), box = s => document.querySelector('.ck-footer ' + s).getBoundingClientRect();
  const manage = getComputedStyle(document.querySelector('.ck-footer [data-action="manage"]'));
  const body = parseFloat(getComputedStyle(document.querySelector('section[data-layer="1"] p')).fontSize);
  return {share: f.getBoundingClientRect().height / innerHeight, compact: f.classList.contains('ck-compact'),
          accept: box('[data-action="acceptAll"]'), reject: box('[data-action="rejectAll"]'),
          manageLink: manage.textDecorationLine === 'underline' && manage.borderTopWidth === '0px',
          titleScale: parseFloat(getComputedStyle(document.querySelector('#ck-title-1')).fontSize) / body};
}"""


@pytest.mark.parametrize("size", [(390, 844), (320, 568), (1280, 800)])
def test_at_normal_text_size_the_title_scale_and_footer_stay_as_designed(new_page, doc20, size):
    report = open_at_text_size(new_page, doc20, size, 100).evaluate(FOOTER_REPORT)
    assert report["titleScale"] == pytest.approx(1.375)
    assert report["share"] <= 0.3
    if size != (320, 568):  # three stacked answers there pass 30 %: compact, as with large text
        assert not report["compact"] and not report["manageLink"]


@pytest.mark.parametrize("size", [(390, 844), (320, 568)])
def test_at_200_percent_text_the_title_shrinks_and_the_footer_turns_compact(new_page, doc20, size):
    page = open_at_text_size(new_page, doc20, size, 200)
    report = page.evaluate(FOOTER_REPORT)
    assert report["titleScale"] < 1.25
    assert report["compact"] and report["share"] <= 0.3
    assert report["accept"]["top"] == report["reject"]["top"]  # side by side, Accept first
    assert report["accept"]["right"] <= report["reject"]["left"]
    assert report["accept"]["width"] == pytest.approx(report["reject"]["width"], abs=1)
    assert report["manageLink"]
    ns.screenshot(page, f"keys-200pct-first-layer-{size[0]}x{size[1]}")


def test_the_compact_footer_follows_the_viewport(new_page, doc20):
    page = open_at_text_size(new_page, doc20, (1280, 800), 200)
    assert not page.evaluate(FOOTER_REPORT)["compact"]
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_function("document.querySelector('.ck-footer').classList.contains('ck-compact')")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_function("!document.querySelector('.ck-footer').classList.contains('ck-compact')")


@pytest.mark.parametrize("language", ["de", "en"])
def test_words_hyphenate_in_the_page_language_instead_of_breaking_anywhere(new_page, language):
    doc = ns.build_document(language=language)
    page = ns.open_notice(new_page(), doc)
    goto_layer(page, 3)
    report = page.evaluate("""() => {
      const texts = Array.from(document.querySelectorAll('.ck-dialog h1, .ck-dialog h2, .ck-dialog h3, .ck-dialog p, .ck-dialog button, .ck-vendor-name, .ck-dialog li'));
      return {lang: document.documentElement.lang,
              notHyphenated: texts.filter(e => getComputedStyle(e).hyphens !== 'auto').map(e => e.outerHTML.slice(0, 60)),
              anywhere: texts.filter(e => getComputedStyle(e).overflowWrap === 'anywhere').map(e => e.outerHTML.slice(0, 60))};
    }""")
    assert report == {"lang": doc["language"], "notHyphenated": [], "anywhere": []}


def test_item51_dark_palette_reduced_motion_and_no_fade_in(new_page, doc20):
    page = ns.open_notice(new_page(color_scheme="dark"), doc20)
    bg = page.evaluate("getComputedStyle(document.querySelector('.ck-dialog')).backgroundColor")
    dark = doc20["theme"]["dark"]["background"]
    assert bg == "rgb(%d, %d, %d)" % tuple(int(dark[i:i + 2], 16) for i in (1, 3, 5))  # theme.dark.background
    assert page.evaluate("getComputedStyle(document.querySelector('.ck-dialog')).opacity") == "1"
    assert page.evaluate("document.getAnimations().length") == 0
    # a CTA works at once after configure(): no fade-in or delay
    page2 = new_page(reduced_motion="reduce")
    ns.load_page(page2)
    hit = page2.evaluate("""d => { window.ConsentKitNotice.configure(d);
        const b = document.querySelector('.ck-footer [data-action="acceptAll"]'); const r = b.getBoundingClientRect();
        const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return {hit: top === b, opacity: getComputedStyle(b).opacity,
                transition: getComputedStyle(document.querySelector('.ck-switch input') || b).transitionDuration}; }""", doc20)
    assert hit["hit"] and hit["opacity"] == "1"
    page2.locator('.ck-footer [data-action="manage"]').click()
    durations = page2.evaluate("getComputedStyle(document.querySelector('.ck-switch input')).transitionDuration")
    assert all(float(d.strip().rstrip("s")) == 0 for d in durations.split(","))
    light = ns.open_notice(new_page(), doc20)
    light.locator('.ck-footer [data-action="manage"]').click()
    assert light.evaluate("getComputedStyle(document.querySelector('.ck-switch input')).transitionDuration") != "0s"
    assert light.evaluate("getComputedStyle(document.querySelector('.ck-dialog')).backgroundColor") == "rgb(255, 255, 255)"


def test_item52_rtl_sets_dir_and_lang_and_the_layout_mirrors(new_page):
    positions = {}
    for language in ("en", "ar"):
        doc = ns.document_for(language)
        page = ns.open_notice(new_page(), doc)
        assert page.evaluate("document.documentElement.dir") == ("rtl" if language == "ar" else "ltr")
        assert page.evaluate("document.documentElement.lang") == language
        page.locator('.ck-footer [data-action="manage"]').click()
        page.locator('section[data-layer="2"] [data-action="open-vendors"]').click()
        positions[language] = page.evaluate("""(id) => {
            const row = document.querySelector(`.ck-vendor-list li[data-vendor="${id}"] .ck-row`);
            const name = row.querySelector('.ck-vendor-name').getBoundingClientRect();
            const sw = row.querySelector('input').getBoundingClientRect();
            const back = document.querySelector('.ck-back').getBoundingClientRect();
            const accept = document.querySelector('.ck-footer [data-action=acceptAll]').getBoundingClientRect();
            const reject = document.querySelector('.ck-footer [data-action=rejectAll]').getBoundingClientRect();
            return {nameLeft: name.left, switchLeft: sw.left, backLeft: back.left, acceptLeft: accept.left,
                    rejectLeft: reject.left, width: innerWidth};
        }""", doc["vendors"][0]["id"])  # the list is alphabetical: the same vendor's row in both
    en, ar = positions["en"], positions["ar"]
    assert en["nameLeft"] < en["switchLeft"] and ar["nameLeft"] > ar["switchLeft"]
    assert en["backLeft"] < en["width"] / 2 < ar["backLeft"]
    assert en["acceptLeft"] < en["rejectLeft"] and ar["acceptLeft"] > ar["rejectLeft"]


# ------------------------------------------------------------------------------------ 53 languages

# Elements whose text comes from the document's data (GVL texts, vendor names), not from texts/*.json.
DATA_SELECTORS = ".ck-vendor-name, .ck-vendor-names, .ck-first-list, h3, .ck-desc-full, .ck-illustrations, .ck-sr, .ck-vendor-detail-body li, .ck-app-name, .ck-muted.ck-small:not(p)"


def ui_text(page):
    return page.evaluate("""sel => { const c = document.querySelector('.ck-dialog').cloneNode(true);
        c.querySelectorAll(sel).forEach(e => e.remove());
        const attrs = Array.from(c.querySelectorAll('[aria-label],[placeholder]')).map(e => (e.getAttribute('aria-label') || '') + ' ' + (e.getAttribute('placeholder') || ''));
        return c.textContent + ' ' + attrs.join(' '); }""", DATA_SELECTORS)


def data_strings(doc):
    """Every text the document brings besides `texts` (GVL texts, vendor and provider names)."""
    out = [v["name"] for v in doc["vendors"]] + [a["name"] for a in doc["adTechProviders"]]
    for kind in ("purposes", "specialPurposes", "features", "specialFeatures", "dataCategories"):
        for item in doc[kind].values():
            out += [item["name"].strip(), item["description"].strip()] + item.get("illustrations", [])
    for stack in doc["stacks"]:
        out += [stack["name"], stack["description"]]
    return sorted(out, key=len, reverse=True)


def english_fragments(language):
    en, other = ns.texts("en"), ns.texts(language)
    fragments = set()
    for key, value in en.items():
        if value == other[key]:
            continue
        for part in re.split(r"\{\w+\}", value):
            part = part.strip(" .:,()")
            if len(part) >= 4 and part not in other[key] and part.lower() not in ("details", "type"):
                fragments.add(part)
    return fragments


@pytest.mark.parametrize("language", ns.SAMPLE_LANGUAGES)
def test_item53_every_ui_text_comes_from_the_language_file(new_page, language):
    doc = ns.document_for(language)
    texts = doc["texts"]
    page = ns.open_notice(new_page(), doc)
    seen = ui_text(page)
    assert [b.strip() for b in page.locator(".ck-footer button").all_inner_texts()] == [texts["acceptAll"], texts["rejectAll"], texts["manageOptions"]]
    for layer in (2, 3, 4):
        if layer == 2:
            page.locator('.ck-footer [data-action="manage"]').click()
        if layer == 3:
            page.locator('section[data-layer="2"] [data-action="open-vendors"]').click()
            page.locator("button.ck-disclosure").first.click()
            page.locator(".ck-vendor-detail-body").first.wait_for()
        if layer == 4:
            page.locator(".ck-back").click()
            page.locator('section[data-layer="2"] .ck-nav [data-action="open-li"]').click()
        seen += " " + ui_text(page)
    for key in ("firstPersonalData", "purposesTitle", "vendorsTitle", "liTitle", "saveChoices", "searchPlaceholder"):
        assert texts[key] in seen, key
    for data in data_strings(doc) + ["Transparency and Consent Framework"]:  # a proper name
        seen = seen.replace(data, " ")
    if language != "en":
        leaked = sorted(f for f in english_fragments(language) if re.search(r"(?<!\w)" + re.escape(f) + r"(?!\w)", seen))
        assert leaked == [], f"English UI text on the {language} screen: {leaked}"
        translated = ns.translation(language)
        if translated:  # purpose names from the official translation
            names = page.locator('section[data-layer="4"] li.ck-card[data-kind="purposes"] h3').all_inner_texts()
            assert names and all(n in {p["name"].strip() for p in translated["purposes"].values()} for n in names)
    assert page.evaluate("window.ConsentKitNotice.metrics.missingTexts") is None


PLURAL_FORM = re.compile(r"^(\w+)_(zero|one|two|few|many|other)$")


def test_item53_every_text_key_is_used_by_the_page():
    script = "".join(p.read_text() for p in sorted(ns.NOTICE_DIR.glob("*.js")))
    host_only = {"loadError"}  # shown by the host when configure() answers with a loadError
    # a plural family (vendors_one, vendors_other...) is used by its name: plural('vendors', ...)
    families = {m.group(1) for k in ns.texts("en") if (m := PLURAL_FORM.match(k))}
    unused = [k for k in ns.texts("en") if not PLURAL_FORM.match(k) and k not in host_only and f"'{k}'" not in script]
    assert unused == [] and [f for f in families if f"'{f}'" not in script] == []


def test_item53_text_files_share_one_key_set_and_placeholders():
    en = ns.texts("en")
    for language in ns.LANGUAGES:
        other = ns.texts(language)
        assert set(other) == set(en), language
        for key, value in en.items():
            if PLURAL_FORM.match(key):
                continue  # a plural form may spell the number out ("one", "two" in Arabic)
            assert set(re.findall(r"\{\w+\}", value)) == set(re.findall(r"\{\w+\}", other[key])), (language, key)


# ------------------------------------------------------------------------------------ 54 network

@pytest.mark.consentd
def test_item54_no_request_to_another_origin(new_page):
    server = ns.consentd("v3-storage")
    page = new_page()
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    ns.open_notice(page, ns.build_document(vendor_list="v3-storage"), base=server.url + "/notice/")
    goto_layer(page, 3)
    page.locator('[data-action="storage-details"]').first.click()
    page.locator(".ck-storage-table").first.wait_for()
    page.locator(".ck-back").click()
    page.locator('section[data-layer="2"] .ck-nav [data-action="open-li"]').click()
    origin = server.url
    assert requests and all(u.startswith(origin + "/") or u.startswith("data:") for u in requests), requests
    assert any("/v1/vendor-list/storage/" in u for u in requests)
    # consentd's notice.html holds its style and scripts (InlinedPage): no other file of its own is fetched
    assert any(u.endswith("/notice/notice.html") for u in requests)
    assert not any(u.endswith((".js", ".css")) for u in requests), requests
    assert not any("/texts/" in u for u in requests)  # the host hands the texts over


def test_item54_page_links_nothing_from_other_origins():
    html = (ns.NOTICE_DIR / "notice.html").read_text()
    assert 'content="width=device-width, initial-scale=1, viewport-fit=cover"' in html
    assert re.findall(r'(?:src|href)="([^"]+)"', html) == [
        "data:,", "notice.css", "notice-layout.css", "notice-host.js", "notice-model.js", "notice-dom.js", "notice-google.js", "notice-us.js", "notice-details.js", "notice-vendors.js", "notice-layers.js", "notice.js"]
    for sheet in ("notice.css", "notice-layout.css"):
        css = (ns.NOTICE_DIR / sheet).read_text()
        assert "@import" not in css and "url(" not in css and "@font-face" not in css, sheet


# ------------------------------------------------------------------------------------ 55 safe areas

@pytest.mark.parametrize("size,insets", [
    ((844, 390), {"top": 0, "right": 47, "bottom": 21, "left": 47}),
    ((390, 844), {"top": 47, "right": 0, "bottom": 34, "left": 0}),
])
def test_item55_safe_area_insets_keep_ctas_and_text_clear(new_page, doc20, size, insets):
    width, height = size
    page = new_page(width, height)
    ns.load_page(page)
    page.evaluate("""i => { for (const [k, v] of Object.entries(i)) document.documentElement.style.setProperty('--ck-safe-' + k, v + 'px'); }""", insets)
    ns.configure(page, doc20)
    boxes = page.evaluate("""() => Array.from(document.querySelectorAll('.ck-footer button, .ck-dialog h1, .ck-dialog p'))
        .filter(e => e.checkVisibility()).map(e => { const r = e.getBoundingClientRect(); return {tag: e.tagName, top: r.top, bottom: r.bottom, left: r.left, right: r.right}; })""")
    for b in boxes:
        assert b["left"] >= insets["left"] and b["right"] <= width - insets["right"], b
        if b["tag"] == "BUTTON":
            assert b["top"] >= insets["top"] and b["bottom"] <= height - insets["bottom"], b
    scroll = page.evaluate("(() => { const r = document.querySelector('.ck-scroll').getBoundingClientRect(); return {top: r.top}; })()")
    assert scroll["top"] >= insets["top"]
    if width > height:  # landscape phone: both primary CTAs side by side and in view
        accept, reject = [b for b in boxes if b["tag"] == "BUTTON"][:2]
        assert abs(accept["top"] - reject["top"]) < 1


# ------------------------------------------------------------------------------------ performance

# The budgets (first layer ≤ 50 ms, vendor list ≤ 100 ms, one toggle ≤ 16 ms) are scripts/bench-notice's,
# measured and printed there: a test does not time itself on a shared machine. What is tested here is
# that the notice measures them and reports them, the same figures in its metrics and its result.


def test_the_notice_measures_its_render_the_vendor_list_and_a_toggle_and_reports_them(new_page, doc_all):
    page = ns.open_notice(new_page(), doc_all)
    ready = ns.messages(page)[0]
    assert ready["type"] == "ready" and 0 < ready["renderMs"] < 60_000, ready
    assert page.evaluate("window.ConsentKitNotice.metrics.renderMs") == ready["renderMs"]
    page.locator('section[data-layer="1"] [data-action="open-vendors"]').click()
    metrics = page.evaluate("window.ConsentKitNotice.metrics")
    assert 0 < metrics["layer3Ms"] < 60_000, metrics
    assert metrics.get("toggleMs") is None, "no toggle yet"
    page.locator('.ck-vendor-list input[data-kind=vendor]').first.click()
    toggle_ms = page.evaluate("window.ConsentKitNotice.metrics.toggleMs")
    assert isinstance(toggle_ms, (int, float)) and 0 <= toggle_ms < 60_000, toggle_ms
    page.locator('.ck-footer [data-action="save"]').click()
    timings = ns.last_message(page)["timings"]
    assert timings["layer3Ms"] == metrics["layer3Ms"] and timings["toggleMaxMs"] >= toggle_ms


# ------------------------------------------------------------------------------------ the CMP's storage duration

@pytest.mark.parametrize("layer", [3, 4])
def test_the_vendor_and_legitimate_interest_layers_say_how_long_the_choice_is_kept(new_page, doc20, layer):
    doc20["choiceStorageDays"] = 390  # the web CMP's cookies (cmp-start.js)
    page = ns.open_notice(new_page(), doc20)
    goto_layer(page, layer)
    said = page.locator(f'section[data-layer="{layer}"] [data-text="choiceStorage"]').inner_text()
    assert said == doc20["texts"]["cmpStorageFor"].replace("{duration}", "13 months")


def test_without_a_number_of_days_the_notice_says_the_choice_stays_until_it_changes(new_page, doc20):
    assert doc20["choiceStorageDays"] is None  # an app's document, as the builder writes it
    page = ns.open_notice(new_page(), doc20)
    goto_layer(page, 4)
    assert page.locator('section[data-layer="4"] [data-text="choiceStorage"]').inner_text() == doc20["texts"]["cmpStorage"]


def test_the_storage_duration_is_worded_in_the_documents_language(new_page):
    doc = ns.document_for("de")
    doc["choiceStorageDays"] = 390
    page = ns.open_notice(new_page(), doc)
    goto_layer(page, 4)
    said = page.locator('section[data-layer="4"] [data-text="choiceStorage"]').inner_text()
    assert said == doc["texts"]["cmpStorageFor"].replace("{duration}", "13 Monate")


def test_serbian_numbers_and_durations_are_in_the_latin_script_of_its_texts(new_page, doc20):
    """The notice's Serbian is Latin (decision 0021); the browser's Intl writes a bare 'sr' in
    Cyrillic, so the page asks Intl for 'sr-Latn'. The English document is given the Serbian texts
    (no official translation of the list is in Serbian), as document_for does for Arabic."""
    doc20.update(language="sr", texts=ns.texts("sr"), languageFallback=None, choiceStorageDays=390)
    page = ns.open_notice(new_page(), doc20)
    goto_layer(page, 4)
    said = page.locator('section[data-layer="4"] [data-text="choiceStorage"]').inner_text()
    assert said == doc20["texts"]["cmpStorageFor"].replace("{duration}", "13 meseci")
    assert not re.search("[\u0400-\u04ff]", said), said
