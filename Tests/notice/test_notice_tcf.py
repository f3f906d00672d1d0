"""The consent notice in TCF mode, in headless Chromium: acceptance criteria 1-17 of
shared/reference/notes/consent-notice.md section 8, the result messages, and the load errors (44)."""
import copy

import pytest

import notice_support as ns

ns.require_browser()

LIVE_LI = ns.NO_LI_PURPOSES


# ------------------------------------------------------------------------------------ helpers

def layer_visible(page, n):
    return page.locator(f'section[data-layer="{n}"]').is_visible()


def footer_button(page, action):
    return page.locator(f'.ck-footer [data-action="{action}"]')


def open_layer2(page):
    footer_button(page, "manage").click()
    assert layer_visible(page, 2)


def open_vendor_list(page):
    page.locator('section:not([hidden]) [data-action="open-vendors"]').first.click()
    assert layer_visible(page, 3)


def open_li_layer(page):
    page.locator('section:not([hidden]) [data-action="open-li"]').first.click()
    assert layer_visible(page, 4)


def result(page):
    msg = ns.last_message(page)
    assert msg and msg["type"] == "result", msg
    return msg


def consent_vendors(doc, purpose):
    return sorted(v["id"] for v in doc["vendors"] if purpose in v["purposes"])


def li_vendors(doc, purpose):
    return sorted(v["id"] for v in doc["vendors"] if purpose in v["legIntPurposes"] and purpose not in ns.NO_LI_PURPOSES)


def contrast(rgb_a, rgb_b):
    def lum(rgb):
        def ch(c):
            c = c / 255
            return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
        r, g, b = (ch(c) for c in rgb)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b
    la, lb = lum(rgb_a), lum(rgb_b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def parse_rgb(css):
    inner = css[css.index("(") + 1: css.index(")")].replace("/", " ").replace(",", " ").split()
    return tuple(float(x) for x in inner[:3])


# ------------------------------------------------------------------------------------ 8.1 first layer

# Issue 27 §3 changed this item: only the full-screen layout covers the viewport; the others show
# the page behind (dimmed) but keep it out of reach all the same.
@pytest.mark.parametrize("layout", ["fullscreen", "auto", "modal", "banner"])
def test_item01_modal_covers_viewport_and_page_behind_is_inert(new_page, doc20, layout):
    page = new_page(390, 844)
    ns.load_page(page)
    page.evaluate("""() => { const d = document.createElement('div'); d.id = 'host-content';
        d.innerHTML = '<button onclick="window.hostClicked = true">host button</button>'; document.body.prepend(d); }""")
    doc20["layout"] = layout
    ns.configure(page, doc20)
    dialog = page.locator('[role="dialog"]')
    box = dialog.bounding_box()
    if layout == "fullscreen":
        assert box["width"] * box["height"] >= 0.9 * 390 * 844
    page.mouse.click(20, 10)  # where the host's button is
    assert page.evaluate("window.hostClicked") is None
    assert dialog.get_attribute("aria-modal") == "true"
    assert page.evaluate("document.getElementById('host-content').inert") is True
    assert page.get_attribute("#host-content", "aria-hidden") == "true"


def test_item02_first_layer_storage_personal_data_vendor_count_and_link(new_page, doc20):
    page = ns.open_notice(new_page(), doc20)
    texts = doc20["texts"]
    first = page.locator('section[data-layer="1"]')
    body = first.inner_text()
    assert texts["firstStorage"].split("{vendorsLink}")[0].strip() in body
    assert texts["firstStorage"].split("{vendorsLink}")[1].strip() in body
    assert texts["firstPersonalData"] in body
    link = first.locator('[data-action="open-vendors"]')
    assert int(link.get_attribute("data-count")) == len(doc20["vendors"]) == 20
    assert link.inner_text() == "20 IAB TCF vendors and 3 other ad-tech providers"  # Google's are counted too
    link.click()
    assert layer_visible(page, 3)
    assert page.locator('.ck-vendor-list li[data-vendor]').count() == 20


def test_the_first_layer_counts_googles_ad_tech_providers_with_the_vendors_and_its_link_lists_both(new_page, doc20):
    assert len(doc20["adTechProviders"]) == 3
    page = ns.open_notice(new_page(), doc20)
    link = page.locator('section[data-layer="1"] [data-action="open-vendors"]')
    assert link.inner_text() == "20 IAB TCF vendors and 3 other ad-tech providers"
    assert link.get_attribute("data-providers") == "3"
    link.click()
    assert layer_visible(page, 3)
    assert page.locator('.ck-vendor-list li[data-vendor]').count() == 20
    assert page.locator('[data-section="atp"] li[data-atp]').count() == 3


def test_a_first_layer_without_ad_tech_providers_counts_the_vendors_only(new_page, doc20):
    doc20["adTechProviders"] = []
    page = ns.open_notice(new_page(), doc20)
    link = page.locator('section[data-layer="1"] [data-action="open-vendors"]')
    assert link.inner_text() == doc20["texts"]["vendors_other"].replace("{vendorCount}", "20")


@pytest.mark.parametrize("language", ["de", "pl", "ar"])
def test_the_ad_tech_provider_count_is_worded_in_the_documents_language(new_page, language):
    doc = ns.document_for(language)
    texts = doc["texts"]
    page = ns.open_notice(new_page(), doc)
    text = page.locator('section[data-layer="1"] [data-action="open-vendors"]').inner_text()
    providers = texts["otherProviders_few" if language in ("pl", "ar") else "otherProviders_other"]
    assert providers.replace("{providerCount}", "3") in text  # 3 is "few" in Polish and Arabic
    assert text != texts["vendorsAndProviders"] and "{" not in text


@pytest.mark.parametrize("which", ["20 vendors", "all vendors"])
def test_item03_every_purpose_and_special_feature_once_by_name_or_stack(new_page, doc20, doc_all, which):
    doc = doc20 if which == "20 vendors" else doc_all
    page = ns.open_notice(new_page(), doc)
    used_p = set()
    used_sf = set()
    for v in doc["vendors"]:
        used_p |= set(v["purposes"]) | set(v["legIntPurposes"])
        used_sf |= set(v["specialFeatures"])
    first = page.locator('section[data-layer="1"]')
    stacks = [int(x) for x in first.locator("[data-stack]").evaluate_all("els => els.map(e => e.dataset.stack)")]
    by_stack = {s["id"]: s for s in doc["stacks"]}
    in_stacks_p, in_stacks_sf = [], []
    for sid in stacks:
        in_stacks_p += by_stack[sid]["purposes"]
        in_stacks_sf += by_stack[sid]["specialFeatures"]
    listed_p = [int(x) for x in first.locator("[data-purpose]").evaluate_all("els => els.map(e => e.dataset.purpose)")]
    listed_sf = [int(x) for x in first.locator("[data-special-feature]").evaluate_all("els => els.map(e => e.dataset.specialFeature)")]
    assert len(in_stacks_p) == len(set(in_stacks_p)), "a purpose in two stacks"
    assert not set(in_stacks_p) & set(listed_p), "a purpose inside and outside a stack"
    assert set(in_stacks_p) | set(listed_p) == used_p
    assert not set(in_stacks_sf) & set(listed_sf)
    assert set(in_stacks_sf) | set(listed_sf) == used_sf
    for p in listed_p:  # by standard name
        assert first.locator(f'[data-purpose="{p}"]').inner_text().strip() == doc["purposes"][str(p)]["name"]


FIRST_LAYER_GROUPS = """() => Array.from(document.querySelectorAll('section[data-layer="1"] h2')).map(h => ({
  heading: h.textContent,
  items: Array.from(h.nextElementSibling.children).map(li =>
    li.dataset.stack ? 's' + li.dataset.stack : li.dataset.purpose ? 'p' + li.dataset.purpose : 'f' + li.dataset.specialFeature)
}))"""


@pytest.mark.parametrize("which", ["20 vendors", "all vendors"])
def test_first_layer_lists_purposes_from_purpose_1_and_special_features_under_their_own_heading(new_page, doc20, doc_all, which):
    doc = doc20 if which == "20 vendors" else doc_all
    page = ns.open_notice(new_page(), doc)
    groups = page.evaluate(FIRST_LAYER_GROUPS)
    texts = doc["texts"]
    assert [g["heading"] for g in groups] == [texts["purposesHeading"], texts["specialFeaturesHeading"]]
    stacks = {f"s{s['id']}": s for s in doc["stacks"]}
    purposes, features = groups[0]["items"], groups[1]["items"]
    lowest = [min(stacks[i]["purposes"]) if i in stacks else int(i[1:]) for i in purposes]
    assert lowest == sorted(lowest) and lowest[0] == 1
    assert all(i.startswith("f") or (i in stacks and not stacks[i]["purposes"]) for i in features)
    assert all(i.startswith("p") or stacks[i]["purposes"] for i in purposes)


def test_first_layer_says_what_rejecting_means(new_page, doc20):
    page = ns.open_notice(new_page(), doc20)
    refuse = page.locator('section[data-layer="1"] [data-text="firstRefuse"]')
    assert refuse.is_visible() and refuse.inner_text() == doc20["texts"]["firstRefuse"]


def test_the_privacy_policy_link_comes_before_the_purposes(new_page, doc20):
    page = ns.open_notice(new_page(), doc20)
    link = page.locator('section[data-layer="1"] a[href="https://news.example.com/privacy"]')
    assert link.count() == 1 and link.inner_text() == doc20["texts"]["privacyPolicy"]
    assert link.evaluate("""a => !!(a.compareDocumentPosition(document.querySelector('section[data-layer="1"] h2'))
        & Node.DOCUMENT_POSITION_FOLLOWING)""")


def test_the_purposes_intro_says_the_switches_are_off_only_when_they_start_off(new_page, doc20):
    texts = doc20["texts"]
    page = ns.open_notice(new_page(), doc20)
    open_layer2(page)
    assert page.locator('[data-text="purposesIntro"]').inner_text() == texts["purposesIntro"]
    reopened = dict(doc20, startLayer="purposes", allowsDismissal=True, current={
        "purposeConsents": [1], "purposeLegitimateInterests": [], "specialFeatureOptIns": [],
        "vendorConsents": [], "vendorLegitimateInterests": [], "adTechProviderConsents": []})
    page = ns.open_notice(new_page(), reopened)
    assert page.locator('[data-text="purposesIntro"]').inner_text() == texts["purposesIntroCurrent"]
    assert "off" not in texts["purposesIntroCurrent"]


def test_the_li_layer_explains_what_an_object_switch_does(new_page, doc20):
    page = ns.open_notice(new_page(), doc20)
    open_layer2(page)
    open_li_layer(page)
    hint = page.locator('section[data-layer="4"] [data-text="liObjectHint"]')
    assert hint.is_visible() and hint.inner_text() == doc20["texts"]["liObjectHint"]


def test_item04_scope_withdraw_and_where_to_reopen(new_page, doc20):
    page = ns.open_notice(new_page(), doc20)
    texts = doc20["texts"]
    scope = page.locator('[data-text="firstScope"]')
    assert scope.is_visible()
    assert scope.inner_text() == texts["firstScope"].replace("{publisherName}", "Example News")
    withdraw = page.locator('[data-text="firstWithdraw"]')
    assert withdraw.is_visible() and "Privacy and cookie settings" in withdraw.inner_text()


def test_item05_right_to_object_sentence_and_link_to_li_layer(new_page, doc20):
    assert any(v["legIntPurposes"] for v in doc20["vendors"])
    page = ns.open_notice(new_page(), doc20)
    sentence = page.locator('section[data-layer="1"] [data-text="firstLegitimateInterest"]')
    assert sentence.is_visible()
    assert doc20["texts"]["firstLegitimateInterest"].split("{liLink}")[0].strip() in sentence.inner_text()
    sentence.locator('[data-action="open-li"]').click()
    assert layer_visible(page, 4)


def test_item05_no_li_sentence_without_legitimate_interest(new_page, doc20):
    for v in doc20["vendors"]:
        v["legIntPurposes"] = []
    page = ns.open_notice(new_page(), doc20)
    assert page.locator('[data-text="firstLegitimateInterest"]').count() == 0


def test_item06_primary_ctas_accept_reject_and_manage_third(new_page, doc20):
    page = ns.open_notice(new_page(), doc20)
    buttons = page.locator(".ck-footer button")
    assert buttons.count() == 3
    labels = buttons.all_inner_texts()
    texts = doc20["texts"]
    assert labels == [texts["acceptAll"], texts["rejectAll"], texts["manageOptions"]]
    assert "ck-btn-primary" in footer_button(page, "acceptAll").get_attribute("class")
    assert "ck-btn-primary" in footer_button(page, "rejectAll").get_attribute("class")
    assert "ck-btn-primary" not in footer_button(page, "manage").get_attribute("class")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_item07_primary_ctas_identical_text_treatment_and_contrast(new_page, doc20, scheme):
    page = ns.open_notice(new_page(color_scheme=scheme), doc20)
    styles = [footer_button(page, a).evaluate("""b => { const s = getComputedStyle(b);
        return {family: s.fontFamily, size: s.fontSize, style: s.fontStyle, weight: s.fontWeight,
                color: s.color, background: s.backgroundColor}; }""") for a in ("acceptAll", "rejectAll")]
    for key in ("family", "size", "style", "weight"):
        assert styles[0][key] == styles[1][key], key
    for s in styles:
        ratio = contrast(parse_rgb(s["color"]), parse_rgb(s["background"]))
        assert ratio >= 5, (scheme, s, ratio)
    expected_bg = doc20["theme"][scheme]["primary"]
    assert parse_rgb(styles[0]["background"]) == tuple(int(expected_bg[i:i + 2], 16) for i in (1, 3, 5))


def cta_report(page):
    return page.evaluate("""() => Array.from(document.querySelectorAll('.ck-footer button')).map(b => {
        const r = b.getBoundingClientRect();
        let opacity = 1;
        for (let e = b; e; e = e.parentElement) opacity *= parseFloat(getComputedStyle(e).opacity);
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return {action: b.dataset.action, disabled: b.disabled, opacity, top: r.top, bottom: r.bottom,
                left: r.left, right: r.right, width: r.width, height: r.height,
                onTop: hit === b || b.contains(hit), visible: b.checkVisibility()};
    })""")


@pytest.mark.parametrize("font", ["100%", "200%"])
@pytest.mark.parametrize("size", [(320, 568), (568, 320), (768, 1024), (1024, 768), (390, 844), (844, 390)])
def test_item08_ctas_visible_without_scrolling(new_page, doc20, size, font):
    width, height = size
    page = new_page(width, height)
    ns.load_page(page)
    page.evaluate("f => { document.documentElement.style.fontSize = f; }", font)
    ns.configure(page, doc20)
    for layer in (1, 2):
        if layer == 2:
            open_layer2(page)
        report = cta_report(page)
        assert len(report) == 3
        for b in report:
            assert not b["disabled"] and b["opacity"] == 1 and b["visible"], b
            assert b["top"] >= 0 and b["bottom"] <= height + 0.5, (size, font, layer, b)
            assert b["left"] >= 0 and b["right"] <= width + 0.5, (size, font, layer, b)
            assert b["onTop"], b
        accept, reject = report[0], report[1]
        if width > height:  # landscape: the two primary CTAs side by side
            assert abs(accept["top"] - reject["top"]) < 1, (size, font, report)


# ------------------------------------------------------------------------------------ 8.2 second layer, LI layer

def test_item09_second_layer_names_descriptions_and_all_illustrations(new_page, doc_all):
    page = ns.open_notice(new_page(), doc_all)
    open_layer2(page)
    section = page.locator('section[data-layer="2"]')
    for kind in ("purposes", "specialPurposes", "features", "specialFeatures"):
        assert doc_all[kind], kind
        for pid, item in doc_all[kind].items():
            card = section.locator(f'li.ck-card[data-kind="{kind}"][data-id="{pid}"]')
            assert card.count() == 1, (kind, pid)
            assert card.locator("h3").inner_text().strip() == item["name"]
            assert card.locator(".ck-desc-full").inner_text().strip() == item["description"].strip()
            shown = card.locator(".ck-illustrations li").all_inner_texts()
            assert [s.strip() for s in shown] == [x.strip() for x in item["illustrations"]]
    assert sum(len(i["illustrations"]) for i in doc_all["purposes"].values()) > 0


def test_item10_vendor_counts_per_purpose_and_lists_consent_and_li(new_page, doc20):
    page = ns.open_notice(new_page(), doc20)
    open_layer2(page)
    for pid in doc20["purposes"]:
        card = page.locator(f'section[data-layer="2"] li.ck-card[data-kind="purposes"][data-id="{pid}"]')
        expected = consent_vendors(doc20, int(pid))
        details = card.locator("details.ck-vendors-of")
        assert int(details.get_attribute("data-count")) == len(expected)
        details.locator("summary").click()
        if expected:
            details.locator("li[data-vendor]").first.wait_for()
        shown = [int(x) for x in details.locator("li[data-vendor]").evaluate_all("els => els.map(e => e.dataset.vendor)")]
        assert sorted(shown) == expected, pid
    open_li_layer(page)
    li_ids = sorted({p for v in doc20["vendors"] for p in v["legIntPurposes"]} - ns.NO_LI_PURPOSES)
    assert li_ids
    for pid in li_ids:
        card = page.locator(f'section[data-layer="4"] li.ck-card[data-kind="purposes"][data-id="{pid}"]')
        details = card.locator("details.ck-vendors-of")
        assert int(details.get_attribute("data-count")) == len(li_vendors(doc20, pid))
        details.locator("summary").click()
        details.locator("li[data-vendor]").first.wait_for()
        shown = [int(x) for x in details.locator("li[data-vendor]").evaluate_all("els => els.map(e => e.dataset.vendor)")]
        assert sorted(shown) == li_vendors(doc20, pid)


def test_item11_every_toggle_is_off_without_prior_choice(new_page, doc20):
    page = ns.open_notice(new_page(), doc20)
    open_layer2(page)
    open_vendor_list(page)
    page.locator(".ck-back").click()
    open_li_layer(page)
    states = page.evaluate("""() => Array.from(document.querySelectorAll('input[type=checkbox]'))
        .map(i => ({attr: i.hasAttribute('checked'), checked: i.checked, kind: i.dataset.kind}))""")
    kinds = {s["kind"] for s in states}
    assert {"purpose", "specialFeature", "vendor", "vendorLi", "purposeLi", "atp"} <= kinds
    assert all(not s["attr"] and not s["checked"] for s in states)
    assert "checked" not in page.locator("#ck-root").inner_html()


def test_item12_features_and_special_purposes_have_no_toggle_and_bf_notice(new_page, doc20):
    page = ns.open_notice(new_page(), doc20)
    open_layer2(page)
    section = page.locator('section[data-layer="2"]')
    for kind in ("features", "specialPurposes"):
        cards = section.locator(f'li.ck-card[data-kind="{kind}"]')
        assert cards.count() == len(doc20[kind]) > 0
        assert cards.locator("input, [role=switch], [role=checkbox]").count() == 0
    notice = section.locator('[data-text="specialPurposesNotice"]')
    assert notice.is_visible() and notice.inner_text() == doc20["texts"]["specialPurposesNotice"]


def open_vendor_details(page, vendor_id, layer=3):
    button = page.locator(f'section[data-layer="{layer}"] button.ck-disclosure[data-details="{vendor_id}"]')
    assert button.get_attribute("aria-expanded") == "false"
    button.click()
    assert button.get_attribute("aria-expanded") == "true"
    details = page.locator(f'section[data-layer="{layer}"] li[data-vendor="{vendor_id}"] .ck-vendor-detail-body')
    details.wait_for()
    assert button.get_attribute("aria-controls") == details.get_attribute("id")
    return details


def test_item13_vendor_details_fields(new_page, doc20):
    page = ns.open_notice(new_page(), doc20)
    open_vendor_list(page)
    g = next(v for v in doc20["vendors"] if v["id"] == 755)
    details = open_vendor_details(page, 755)
    text = details.inner_text()
    texts = doc20["texts"]
    for p in g["purposes"]:
        assert doc20["purposes"][str(p)]["name"] in text
    # retention per purpose: purposes[id] else std
    for p in g["purposes"] + g["legIntPurposes"]:
        days = g["retention"]["purposes"].get(str(p), g["retention"]["std"])
        spans = details.locator(f'[data-retention="purposes:{p}"]').all_inner_texts()
        assert spans and all(f"{days:,}" in s for s in spans), (p, days, spans)
    for sp in g["specialPurposes"]:
        days = g["retention"]["specialPurposes"].get(str(sp), g["retention"]["std"])
        assert f"{days:,}" in details.locator(f'[data-retention="specialPurposes:{sp}"]').inner_text()
    for sp in g["specialPurposes"]:
        assert doc20["specialPurposes"][str(sp)]["name"] in text
    for f in g["features"]:
        assert doc20["features"][str(f)]["name"] in text
    for c in g["dataCategories"]:
        assert details.locator(f'[data-category="{c}"]').inner_text() == doc20["dataCategories"][str(c)]["name"]
    assert texts["vendorLiPurposes"] in text
    max_age = details.locator('[data-field="cookieMaxAge"]').inner_text()
    assert "1 year" in max_age and "30 days" in max_age  # 34,190,000 s
    assert details.locator('[data-field="cookieRefresh"]').inner_text() == texts["cookieRefresh"].replace("{answer}", texts["no"])
    assert details.locator('[data-field="nonCookieAccess"]').is_visible()
    hrefs = details.locator("a").evaluate_all("els => els.map(a => a.getAttribute('href'))")
    assert g["privacyPolicyUrl"] in hrefs and g["legIntClaimUrl"] in hrefs


def test_item13_session_cookie_and_special_features(new_page, doc20):
    v = doc20["vendors"][0]
    v.update(usesCookies=True, cookieMaxAgeSeconds=0, cookieRefresh=True, specialFeatures=[1])
    doc20["specialFeatures"].setdefault("1", {"name": "Use precise geolocation data", "description": "d", "illustrations": []})
    page = ns.open_notice(new_page(), doc20)
    open_vendor_list(page)
    details = open_vendor_details(page, v["id"])
    texts = doc20["texts"]
    assert details.locator('[data-field="cookieMaxAge"]').inner_text() == texts["cookieMaxAge"].replace("{duration}", texts["session"])
    assert details.locator('[data-field="cookieRefresh"]').inner_text() == texts["cookieRefresh"].replace("{answer}", texts["yes"])
    assert doc20["specialFeatures"]["1"]["name"] in details.inner_text()


@pytest.mark.consentd
def test_item14_storage_details_fetched_through_consentd_without_credentials(new_page):
    server = ns.consentd("v3-storage")
    doc = ns.build_document(vendor_list="v3-storage")
    page = new_page()
    seen = []
    page.on("request", lambda r: seen.append(r) if "/v1/vendor-list/storage/" in r.url else None)
    page.context.add_cookies([{"name": "session", "value": "secret", "url": server.url}])
    ns.open_notice(page, doc, base=server.url + "/notice/")
    open_vendor_list(page)
    vendor = next(v for v in doc["vendors"] if v["storageDisclosureUrl"])
    assert vendor["storageDisclosureUrl"] == f"/v1/vendor-list/storage/{vendor['id']}"
    details = open_vendor_details(page, vendor["id"])
    details.locator('[data-action="storage-details"]').click()
    table = details.locator(".ck-storage-table")
    table.wait_for()
    rows = table.locator("tbody tr")
    assert rows.count() == 2
    first = rows.nth(0).locator("td").all_inner_texts()
    assert first[0] == "_test_id" and first[1] == "cookie" and "1 year" in first[2] and first[3] == "*.example.com"
    assert rows.nth(1).locator("td").all_inner_texts()[2] == "–"
    # The page asked consentd, without its cookie; consentd asked the vendor's server, without any.
    assert len(seen) == 1 and seen[0].url == server.url + vendor["storageDisclosureUrl"]
    assert "cookie" not in {k.lower() for k in seen[0].all_headers()}
    fetched = [headers for path, headers in ns.disclosure_server().seen if path == f"/ds/{vendor['id']}.json"]
    assert fetched and all("cookie" not in h and "authorization" not in h for h in fetched)


def test_item15_deleted_vendors_are_never_shown_or_counted(new_page, doc_all):
    deleted = ns.deleted_vendor_ids()
    assert deleted and len(doc_all["vendors"]) == 813
    assert not deleted & {v["id"] for v in doc_all["vendors"]}
    page = ns.open_notice(new_page(), doc_all)
    assert int(page.locator('section[data-layer="1"] [data-action="open-vendors"]').get_attribute("data-count")) == 813
    open_vendor_list(page)
    shown = set(int(x) for x in page.locator(".ck-vendor-list li[data-vendor]").evaluate_all("els => els.map(e => e.dataset.vendor)"))
    assert len(shown) == 813 and not shown & deleted


def test_item16_ad_tech_providers_in_a_separate_non_tcf_section(new_page, doc20):
    page = ns.open_notice(new_page(), doc20)
    open_vendor_list(page)
    section = page.locator('section[data-layer="3"] [data-section="atp"]')
    assert section.is_visible()
    assert doc20["texts"]["notTcfLabel"] in section.text_content()
    assert page.locator(".ck-vendor-list [data-atp]").count() == 0  # not mixed into the TCF list
    for atp in doc20["adTechProviders"]:
        item = section.locator(f'[data-atp="{atp["id"]}"]')
        assert item.locator("input[role=switch]").count() == 1
        assert item.locator("a").get_attribute("href") == atp["privacyPolicyUrl"]


def test_item17_no_li_control_for_purposes_1_and_3_to_6(new_page, doc20):
    # The host guarantees legIntPurposes never holds 1 or 3-6; the page must hold even if it does.
    for v in doc20["vendors"][:5]:
        v["legIntPurposes"] = sorted(set(v["legIntPurposes"]) | {1, 3, 4, 5, 6, 7})
    page = ns.open_notice(new_page(), doc20)
    open_layer2(page)
    for p in ns.NO_LI_PURPOSES:
        card = page.locator(f'section[data-layer="2"] li.ck-card[data-kind="purposes"][data-id="{p}"]')
        assert card.locator('[data-action="open-li"]').count() == 0
    open_li_layer(page)
    for p in ns.NO_LI_PURPOSES:
        assert page.locator(f'input[data-kind="purposeLi"][data-id="{p}"]').count() == 0
        assert page.locator(f'section[data-layer="4"] li.ck-card[data-kind="purposes"][data-id="{p}"]').count() == 0
    footer_button(page, "save").click()
    choices = result(page)["choices"]
    assert not set(choices["purposeLegitimateInterests"]) & ns.NO_LI_PURPOSES


# ------------------------------------------------------------------------------------ results

def test_result_accept_all_from_first_layer(new_page, doc20):
    page = ns.open_notice(new_page(), doc20)
    footer_button(page, "acceptAll").click()
    msg = result(page)
    assert msg["action"] == "acceptAll" and msg["layer"] == 1 and msg["protocol"] == 1
    assert msg["language"] == "en" and msg["noticeVersion"] == 3 and "choices" not in msg
    assert msg["timings"]["shownMs"] >= 0 and msg["timings"]["decidedMs"] >= 0
    assert page.locator('[role="dialog"]').count() == 0  # closed after the choice
    assert page.evaluate("document.activeElement === document.body")


def test_result_reject_all_from_second_layer(new_page, doc20):
    page = ns.open_notice(new_page(), doc20)
    open_layer2(page)
    footer_button(page, "rejectAll").click()
    msg = result(page)
    assert msg["action"] == "rejectAll" and msg["layer"] == 2 and "choices" not in msg


def test_result_save_choices_equal_what_was_clicked(new_page, doc20):
    page = ns.open_notice(new_page(), doc20)
    open_layer2(page)
    page.locator('input[data-kind="purpose"][data-id="1"]').check()
    page.locator('input[data-kind="purpose"][data-id="3"]').check()
    page.locator('input[data-kind="purpose"][data-id="3"]').uncheck()
    page.locator('input[data-kind="purpose"][data-id="4"]').check()
    open_vendor_list(page)
    li_vendor_ids = sorted(v["id"] for v in doc20["vendors"] if v["legIntPurposes"])
    consented = [doc20["vendors"][0]["id"], 755]
    for vid in consented:
        page.locator(f'section[data-layer="3"] input[data-kind="vendor"][data-id="{vid}"]').check()
    objected_vendor = li_vendor_ids[0]
    page.locator(f'section[data-layer="3"] input[data-kind="vendorLi"][data-id="{objected_vendor}"]').check()
    page.locator('input[data-kind="atp"][data-id="89"]').check()
    page.locator(".ck-back").click()
    open_li_layer(page)
    # the vendor objection made on layer 3 shows on layer 4 too
    assert page.locator(f'section[data-layer="4"] input[data-kind="vendorLi"][data-id="{objected_vendor}"]').is_checked()
    li_purposes = sorted({p for v in doc20["vendors"] for p in v["legIntPurposes"]} - ns.NO_LI_PURPOSES)
    page.locator(f'input[data-kind="purposeLi"][data-id="{li_purposes[0]}"]').check()
    footer_button(page, "save").click()
    msg = result(page)
    assert msg["action"] == "save" and msg["layer"] == 4
    assert msg["choices"] == {
        "purposeConsents": [1, 4],
        "purposeLegitimateInterests": li_purposes[1:],
        "specialFeatureOptIns": [],
        "vendorConsents": sorted(consented),
        "vendorLegitimateInterests": [v for v in li_vendor_ids if v != objected_vendor],
        "adTechProviderConsents": [89],
    }


def test_result_dismissed_by_close_button_and_escape(new_page, doc20):
    doc20["allowsDismissal"] = True
    page = ns.open_notice(new_page(), doc20)
    page.get_by_role("button", name=doc20["texts"]["close"]).click()
    msg = result(page)
    assert msg["action"] == "dismissed" and "choices" not in msg
    ns.configure(page, doc20)
    page.keyboard.press("Escape")
    assert result(page)["action"] == "dismissed"


def test_item44_a_render_failure_is_a_load_error_and_leaves_nothing(new_page, doc20):
    page = new_page()
    ns.load_page(page)
    page.evaluate("() => { HTMLElement.prototype.focus = function () { throw new Error('focus refused'); }; }")
    ns.configure(page, doc20)
    msg = ns.last_message(page)
    assert msg["type"] == "loadError" and msg["code"] == "malformed_document" and "focus refused" in msg["message"]
    assert page.evaluate("document.getElementById('ck-root').childElementCount") == 0


def test_escape_dismisses_even_when_focus_left_the_controls(new_page, doc20):
    doc20["allowsDismissal"] = True
    page = ns.open_notice(new_page(), doc20)
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("Escape")
    assert result(page)["action"] == "dismissed"


def test_escape_does_nothing_without_dismissal(new_page, doc20):
    page = ns.open_notice(new_page(), doc20)
    assert page.get_by_role("button", name=doc20["texts"]["close"]).count() == 0
    page.keyboard.press("Escape")
    assert page.locator('[role="dialog"]').is_visible()
    assert ns.last_message(page)["type"] == "ready"


def test_reopen_with_current_shows_present_choices(new_page, doc20):
    li_vendor_ids = sorted(v["id"] for v in doc20["vendors"] if v["legIntPurposes"])
    li_purposes = sorted({p for v in doc20["vendors"] for p in v["legIntPurposes"]} - ns.NO_LI_PURPOSES)
    current = {
        "purposeConsents": [1, 2], "purposeLegitimateInterests": li_purposes[1:],
        "specialFeatureOptIns": [], "vendorConsents": [755],
        "vendorLegitimateInterests": li_vendor_ids[1:], "adTechProviderConsents": [1051],
    }
    doc20.update(current=current, startLayer="purposes")
    page = ns.open_notice(new_page(), doc20)
    assert layer_visible(page, 2)
    assert ns.messages(page)[0] == {**ns.messages(page)[0], "type": "ready", "layer": 2}
    assert page.locator('input[data-kind="purpose"][data-id="1"]').is_checked()
    assert page.locator('input[data-kind="purpose"][data-id="2"]').is_checked()
    assert not page.locator('input[data-kind="purpose"][data-id="3"]').is_checked()
    open_vendor_list(page)
    assert page.locator('section[data-layer="3"] input[data-kind="vendor"][data-id="755"]').is_checked()
    assert page.locator(f'section[data-layer="3"] input[data-kind="vendorLi"][data-id="{li_vendor_ids[0]}"]').is_checked()
    assert page.locator('input[data-kind="atp"][data-id="1051"]').is_checked()
    footer_button(page, "save").click()
    msg = result(page)
    assert msg["layer"] == 3 and msg["choices"] == current


def test_configure_accepts_a_json_string_and_replaces_the_notice(new_page, doc20):
    page = ns.open_notice(new_page(), doc20, as_string=True)
    assert layer_visible(page, 1)
    de = ns.build_document(language="de")
    ns.configure(page, de)
    assert page.locator('[role="dialog"]').count() == 1
    assert footer_button(page, "acceptAll").inner_text() == de["texts"]["acceptAll"]
    assert page.evaluate("document.documentElement.lang") == "de"


def test_vendor_search_filters_by_name(new_page, doc20):
    page = ns.open_notice(new_page(), doc20)
    open_vendor_list(page)
    page.locator(".ck-search").fill("google")
    page.locator('.ck-vendor-list[data-query="google"]').wait_for(state="attached")
    visible = page.locator(".ck-vendor-list li[data-vendor]:not([hidden])")
    assert visible.count() >= 1
    assert all("google" in n.lower() for n in visible.locator(".ck-vendor-name").all_inner_texts())
    page.locator(".ck-search").fill("zzzz-no-such-vendor")
    page.locator('.ck-vendor-list[data-query="zzzz-no-such-vendor"]').wait_for(state="attached")
    assert page.locator(".ck-vendor-list li[data-vendor]:not([hidden])").count() == 0
    assert doc20["texts"]["noVendorsFound"] in page.locator('section[data-layer="3"]').inner_text()


def test_vendors_and_ad_tech_providers_are_listed_alphabetically(new_page, doc_all):
    page = ns.open_notice(new_page(), doc_all)
    open_layer2(page)
    open_vendor_list(page)
    names = page.locator(".ck-vendor-list .ck-vendor-name").all_text_contents()
    assert len(names) == len(doc_all["vendors"]) and names != [v["name"] for v in doc_all["vendors"]]
    out_of_order = page.evaluate("""ns => { const c = new Intl.Collator('en', {sensitivity: 'base'});
      return ns.filter((n, i) => i > 0 && c.compare(ns[i - 1], n) > 0); }""", names)
    assert out_of_order == []
    atps = page.locator('[data-section="atp"] .ck-vendor-name').all_inner_texts()
    assert atps == sorted(atps, key=str.casefold)


def test_consent_to_all_vendors_turns_every_vendor_on_and_counts_them(new_page, doc20):
    page = ns.open_notice(new_page(), doc20)
    open_layer2(page)
    open_vendor_list(page)
    everyone = page.get_by_role("switch", name=doc20["texts"]["consentAllVendors"], exact=True)
    tally = page.locator('[data-bulk-count="vendor"]')
    assert not everyone.is_checked() and tally.inner_text() == "0 of 20 on"
    everyone.click()
    rows = page.locator('section[data-layer="3"] input[data-kind="vendor"]')
    assert rows.count() == 20 and all(rows.nth(i).is_checked() for i in range(20))
    assert tally.inner_text() == "20 of 20 on"
    rows.first.click()  # one vendor off again
    page.wait_for_function("document.querySelector('[data-bulk-count=\"vendor\"]').textContent === '19 of 20 on'")
    assert not everyone.is_checked()
    footer_button(page, "save").click()
    assert len(result(page)["choices"]["vendorConsents"]) == 19


def test_object_to_all_objects_for_every_legitimate_interest_vendor_on_both_layers(new_page, doc20):
    li_ids = sorted(v["id"] for v in doc20["vendors"] if set(v["legIntPurposes"]) - ns.NO_LI_PURPOSES)
    page = ns.open_notice(new_page(), doc20)
    open_layer2(page)
    open_vendor_list(page)
    page.get_by_role("switch", name=doc20["texts"]["objectAllVendors"], exact=True).click()
    assert page.locator('[data-bulk-count="vendorLi"]').inner_text() == f"{len(li_ids)} of {len(li_ids)} on"
    page.locator(".ck-back").click()
    open_li_layer(page)
    objections = page.locator('section[data-layer="4"] input[data-kind="vendorLi"]')
    assert objections.count() == len(li_ids) and all(objections.nth(i).is_checked() for i in range(objections.count()))
    objections.first.click()
    page.locator(".ck-back").click()
    open_vendor_list(page)
    assert page.locator('[data-bulk-count="vendorLi"]').inner_text() == f"{len(li_ids) - 1} of {len(li_ids)} on"
    footer_button(page, "save").click()
    assert len(result(page)["choices"]["vendorLegitimateInterests"]) == 1


def test_vendor_search_waits_for_typing_to_pause(new_page, doc20):
    page = ns.open_notice(new_page(), doc20)
    open_vendor_list(page)
    page.evaluate("""() => { window.__queries = [];
      new MutationObserver(() => window.__queries.push(document.querySelector('.ck-vendor-list').dataset.query))
        .observe(document.querySelector('.ck-vendor-list'), {attributes: true, attributeFilter: ['data-query']}); }""")
    page.locator(".ck-search").press_sequentially("goo")
    page.locator('.ck-vendor-list[data-query="goo"]').wait_for(state="attached")
    assert page.evaluate("window.__queries") == ["goo"]  # filtered once, not per key
    assert page.locator(".ck-vendor-list li[data-vendor]:not([hidden])").count() < len(doc20["vendors"])


# ------------------------------------------------------------------------------------ 43, 44 transport and load errors

def test_item43_web_transport_without_webkit(new_page, doc20):
    page = ns.open_notice(new_page(), doc20)
    assert page.evaluate("typeof window.webkit") == "undefined"
    assert ns.messages(page)[-1]["type"] == "ready"
    assert ns.last_message(page) == ns.messages(page)[-1]
    footer_button(page, "rejectAll").click()
    assert ns.messages(page)[-1]["action"] == "rejectAll"


def test_item43_webkit_handler_used_when_it_exists(new_page, doc20):
    page = new_page()
    page.add_init_script("""window.__webkitMessages = [];
        window.webkit = {messageHandlers: {consentkit: {postMessage: m => window.__webkitMessages.push(m)}}};""")
    ns.open_notice(page, doc20)
    footer_button(page, "acceptAll").click()
    got = page.evaluate("window.__webkitMessages")
    assert [m["type"] for m in got] == ["ready", "result"]
    assert ns.messages(page)[-1] == got[-1]  # and the CustomEvent as always


def test_item43_parent_post_message_when_framed(new_page, doc20):
    page = new_page()
    parent_html = f"""<!doctype html><html><body><script>window.__parentMessages = [];
        window.addEventListener('message', e => window.__parentMessages.push(e.data));</script>
        <iframe id="f" src="{ns.notice_base_url()}notice.html" style="width:390px;height:700px"></iframe></body></html>"""
    page.route("**/__test-parent.html", lambda route: route.fulfill(status=200, content_type="text/html", body=parent_html))
    page.goto(ns.notice_origin() + "/__test-parent.html")
    frame = page.frame_locator("#f")
    frame.locator("#ck-root").wait_for(state="attached")
    child = next(f for f in page.frames if f.url.endswith("notice.html"))
    child.evaluate("d => window.ConsentKitNotice.configure(d)", doc20)
    frame.locator('.ck-footer [data-action="acceptAll"]').click()
    # postMessage is delivered asynchronously: wait for the third message, not for the click.
    # The first is `started` (notice-host.js), posted before the page's other scripts ran.
    page.wait_for_function("window.__parentMessages.length >= 3")
    got = page.evaluate("window.__parentMessages")
    assert [m["type"] for m in got] == ["started", "ready", "result"] and got[-1]["action"] == "acceptAll"
    assert got[0] == {"protocol": 1, "type": "started"}, "started says nothing but its type"


def test_item43_configured_by_a_message_it_answers_that_origin(new_page, doc20):
    # A website's CMP (another origin) configures the framed notice by message; its answers go
    # back to that origin (the configure message's), not to any.
    page = new_page()
    parent_html = f"""<!doctype html><html><body><script>window.__parentMessages = [];
        window.addEventListener('message', e => window.__parentMessages.push({{origin: e.origin, data: e.data}}));</script>
        <iframe id="f" src="{ns.notice_base_url()}notice.html" style="width:390px;height:700px"></iframe></body></html>"""
    # Another origin on loopback (Chromium keeps other origins from framing loopback ones): the
    # resource server under the name localhost.
    ns.resource_server().pages["/__test-configure-parent.html"] = parent_html
    parent = ns.resource_server().url.replace("127.0.0.1", "localhost") + "/__test-configure-parent.html"
    page.goto(parent)
    page.frame_locator("#f").locator("#ck-root").wait_for(state="attached")
    page.evaluate("d => document.getElementById('f').contentWindow.postMessage({protocol: 1, type: 'configure', document: d}, '*')", doc20)
    page.frame_locator("#f").locator('.ck-footer [data-action="acceptAll"]').click()
    page.wait_for_function("window.__parentMessages.length >= 3")
    got = page.evaluate("window.__parentMessages")
    assert [m["data"]["type"] for m in got] == ["started", "ready", "result"] and got[-1]["data"]["action"] == "acceptAll"
    assert {m["origin"] for m in got} == {ns.notice_origin()}
    child = next(f for f in page.frames if f.url.endswith("notice.html"))
    assert child.evaluate("document.title") == doc20["texts"]["noticeTitle"]


def _broken(doc, change):
    doc = copy.deepcopy(doc)
    change(doc)
    return doc


LOAD_ERRORS = {
    "unsupported_protocol": lambda d: d.update(protocol=2),
    "malformed_document/not_json": "this is not JSON",
    "malformed_document/array": [1, 2],
    "malformed_document/texts": lambda d: d.update(texts=None),
    "missing_privacy_policy_url/none": lambda d: d["publisher"].update(privacyPolicyUrl=None),
    "missing_privacy_policy_url/not_http": lambda d: d["publisher"].update(privacyPolicyUrl="javascript:alert(1)"),
    "missing_cmp_id/none": lambda d: d.pop("cmp"),
    "missing_cmp_id/one": lambda d: d["cmp"].update(id=1),
    "missing_cmp_id/too_big": lambda d: d["cmp"].update(id=4096),
    "no_vendors/tcf": lambda d: d.update(vendors=[]),
    "no_vendors/google": lambda d: d.update(mode="google", vendors=[], adTechProviders=[]),
}


@pytest.mark.parametrize("case", sorted(LOAD_ERRORS))
def test_item44_load_error_and_nothing_rendered(new_page, doc20, case):
    change = LOAD_ERRORS[case]
    page = new_page()
    ns.load_page(page)
    if isinstance(change, str):
        page.evaluate("s => window.ConsentKitNotice.configure(s)", change)
    elif isinstance(change, list):
        ns.configure(page, change)
    else:
        ns.configure(page, _broken(doc20, change))
    msg = ns.last_message(page)
    assert msg["type"] == "loadError" and msg["protocol"] == 1
    assert msg["code"] == case.split("/")[0] and msg["message"]
    assert page.evaluate("document.getElementById('ck-root').childElementCount") == 0
    assert [m["type"] for m in ns.messages(page)] == ["loadError"]


def test_item07_a_theme_below_5_to_1_falls_back_to_the_built_in_palette(new_page, doc20):
    doc20["theme"] = {"cornerRadius": 4, "light": dict(doc20["theme"]["light"], primary="#9ab0d0", onPrimary="#ffffff"),
                      "dark": doc20["theme"]["dark"]}
    page = ns.open_notice(new_page(), doc20)
    style = page.locator('.ck-footer [data-action="acceptAll"]').evaluate(
        "b => [getComputedStyle(b).color, getComputedStyle(b).backgroundColor, getComputedStyle(b).borderRadius]")
    assert contrast(parse_rgb(style[0]), parse_rgb(style[1])) >= 5
    assert parse_rgb(style[1]) == (23, 70, 162)  # the built-in light primary, not #9ab0d0
    assert style[2] == "4px"


def test_publisher_logo_from_a_data_url_only_or_https(new_page, doc20):
    pixel = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
    doc20["publisher"]["logo"] = pixel
    page = ns.open_notice(new_page(), doc20)
    logo = page.locator("img.ck-logo")
    assert logo.get_attribute("src") == pixel and logo.get_attribute("alt") == "Example News"
    doc20["publisher"]["logo"] = "javascript:alert(1)"
    ns.configure(page, doc20)
    assert page.locator("img.ck-logo").count() == 0


@pytest.mark.parametrize("width,text", [(390, "100%"), (320, "100%"), (320, "200%")])
def test_each_vendor_is_one_compact_row_whose_name_opens_its_details(new_page, doc_all, width, text):
    page = new_page(width, 700)
    ns.load_page(page)
    page.evaluate("(size) => { document.documentElement.style.fontSize = size; }", text)
    ns.configure(page, doc_all)
    page.locator('section[data-layer="1"] [data-action="open-vendors"]').click()
    page.evaluate("document.querySelector('.ck-vendor-list').scrollIntoView()")
    ns.screenshot(page, f"vendor-list-{width}-{text[:-1]}")
    rows = page.evaluate("""() => Array.from(document.querySelectorAll('.ck-vendor-list li[data-vendor]')).slice(0, 12).map(li => {
        const name = li.querySelector('.ck-disclosure').getBoundingClientRect(), sw = li.querySelector('input').getBoundingClientRect();
        return {height: li.getBoundingClientRect().height, name: name.height, sw: sw.height, sameLine: sw.top < name.bottom, panels: li.querySelectorAll('.ck-vendor-details').length};
    })""")
    assert all(r["panels"] == 0 for r in rows)  # details closed until opened
    if width >= 390 and text == "100%":  # one line on a phone: the switches beside the name
        assert all(r["sameLine"] and r["height"] < 2 * max(r["name"], r["sw"]) for r in rows), rows
    first = page.locator(".ck-vendor-list li[data-vendor]").first
    first.locator("button.ck-disclosure").click()
    assert first.locator("button.ck-disclosure").get_attribute("aria-expanded") == "true"
    first.locator(".ck-vendor-details").wait_for()
    ns.screenshot(page, f"vendor-list-{width}-{text[:-1]}-details")


def test_a_vendor_row_the_search_puts_back_shows_the_choices_made_while_it_was_off_the_list(new_page, doc20):
    page = ns.open_notice(new_page(), doc20)
    page.locator('section[data-layer="1"] [data-action="open-vendors"]').click()
    search = page.locator(".ck-search")
    search.fill("zzzz-no-such-vendor")
    page.locator('.ck-vendor-list[data-query="zzzz-no-such-vendor"]').wait_for(state="attached")
    assert page.locator(".ck-vendor-list li[data-vendor]").count() == 0
    page.locator('input[data-bulk="vendor"]').check()
    search.fill("")
    page.locator('.ck-vendor-list[data-query=""]').wait_for(state="attached")
    switches = page.locator('.ck-vendor-list input[data-kind="vendor"]')
    assert switches.count() == 20
    assert all(switches.nth(i).is_checked() for i in range(20))
