"""End to end through consentd's /demo: the notice shown in the demo page's frame, the user's clicks,
the result checked and decided by ConsentKitUI in consentd, stored as a consent event, and the TC
string read back by ConsentKit's own decoder (the `decoded` field of consentd's answer).

Items 18-20 and 25 of section 8, Google's three choices, reopening with the present choices, and
the language rule (official translations whole, else English whole, saying so). Needs consentd
(marked `consentd`): the server package's build, or CONSENTD_BIN."""
import re

import pytest

import notice_support as ns

ns.require_browser()
pytestmark = pytest.mark.consentd


def open_demo(new_page, mode="tcf", language="en", vendors="20", ad_free=False, vendor_list="v3"):
    page = new_page(width=1280, height=900)
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    page.requests = requests
    page.goto(ns.consentd(vendor_list).url + "/demo/playground")
    notice = page.frame_locator("#notice")
    page.wait_for_function("document.getElementById('status').textContent.startsWith('The notice is open')")
    if (mode, language, vendors, ad_free) != ("tcf", "en", "20", False):
        # The first-run notice (TCF, English, 20 vendors) is replaced by the one asked for.
        page.evaluate("document.getElementById('status').textContent = ''")
        page.select_option("#mode", mode)
        page.select_option("#language", language)
        page.select_option("#vendors", vendors)
        if ad_free:
            page.check("#adfree")
        page.click("#open")
        page.wait_for_function("document.getElementById('status').textContent.startsWith('The notice is open')")
    return page, notice


def recorded(page):
    page.wait_for_selector("#recorded:not([hidden])")
    return {
        "status": page.inner_text("#status"), "tcString": page.inner_text("#tc-string"),
        "ac": page.inner_text("#ac-string"), "google": page.inner_text("#google"),
    }


def decode(page):
    """The decoded fields the demo shows, parsed back ("name: 1, 2, 3 [3]" per line)."""
    fields = {}
    for line in page.inner_text("#decoded").splitlines():
        name, _, value = line.partition(": ")
        if value.endswith("]"):
            items = value.rsplit(" [", 1)[0]
            fields[name] = [] if items == "(none)" else [int(x) for x in items.split(", ")]
        else:
            fields[name] = value
    return fields


def shown_vendor_ids(vendors="20", vendor_list="v3"):
    return [v["id"] for v in ns.build_document(vendor_count=None if vendors == "all" else 20, vendor_list=vendor_list)["vendors"]]


def test_item18_accept_all_consents_every_disclosed_vendor_and_used_purpose(new_page):
    page, notice = open_demo(new_page)
    notice.locator('.ck-footer [data-action="acceptAll"]').click()
    result = recorded(page)
    fields = decode(page)
    doc = ns.build_document()
    shown = [v["id"] for v in doc["vendors"]]
    assert fields["disclosedVendors"] == shown
    with_consent = [v["id"] for v in doc["vendors"] if v["purposes"] or v["specialFeatures"]]
    assert fields["vendorConsents"] == with_consent
    assert set(int(p) for p in doc["purposes"]) <= set(fields["purposeConsents"])
    assert set(fields["specialFeatureOptins"]) == set(int(f) for f in doc["specialFeatures"])
    assert fields["consentScreen"] == "1" and fields["consentLanguage"] == "EN"
    assert re.fullmatch(r"2~[0-9.]*~dv\.[0-9.]*", result["ac"]) and result["ac"] == "2~89.1051.2677~dv."
    assert result["google"].startswith("personalized")
    assert all(u.startswith(ns.consentd().url + "/") for u in page.requests), page.requests  # item 54, end to end


def test_item19_reject_all_keeps_disclosed_vendors_and_nothing_else(new_page):
    page, notice = open_demo(new_page)
    notice.locator('.ck-footer [data-action="rejectAll"]').click()
    result = recorded(page)
    fields = decode(page)
    assert fields["disclosedVendors"] == shown_vendor_ids()
    for name in ("purposeConsents", "vendorConsents", "specialFeatureOptins", "purposeLegitimateInterests"):
        assert fields[name] == [], name
    # TCF 2.3: a vendor whose only legitimate interest is a special purpose, which nobody can
    # object to, keeps its bit after "Reject all"; every other vendor's is cleared.
    doc = ns.build_document()
    untouchable = [v["id"] for v in doc["vendors"] if v["legitimateInterest"] and not v["legIntPurposes"]]
    assert untouchable, "the demo's 20 vendors include one with special purposes only on legitimate interest"
    assert fields["vendorLegitimateInterests"] == untouchable
    assert result["ac"] == "2~~dv.89.1051.2677"  # item 25: nothing consented on reject all
    assert result["google"].startswith("non_personalized")


def test_custom_choices_are_exactly_what_was_clicked(new_page):
    page, notice = open_demo(new_page)
    notice.locator('.ck-footer [data-action="manage"]').click()
    for purpose in (1, 3, 4):
        notice.locator(f'section[data-layer="2"] input[data-kind="purpose"][data-id="{purpose}"]').check()
    notice.locator('section[data-layer="2"] [data-action="open-vendors"]').click()
    notice.locator('input[data-kind="vendor"][data-id="755"]').check()
    notice.locator('input[data-kind="atp"][data-id="1051"]').check()
    notice.locator('.ck-footer [data-action="save"]').click()
    result = recorded(page)
    fields = decode(page)
    assert fields["purposeConsents"] == [1, 3, 4]
    assert fields["vendorConsents"] == [755]
    assert fields["specialFeatureOptins"] == []
    assert fields["consentScreen"] == "3"  # saved on the vendor list
    assert fields["disclosedVendors"] == shown_vendor_ids()
    assert result["ac"] == "2~1051~dv.89.2677"


def test_item20_string_fields_describe_the_notice_shown(new_page):
    page, notice = open_demo(new_page)
    notice.locator('.ck-footer [data-action="acceptAll"]').click()
    tc = recorded(page)["tcString"]
    answer = ns.consentd().post("/demo/document", {"tcString": tc, "reopen": True})
    assert answer["current"]["vendorConsents"]  # the string reads back as the present choices
    fields = decode(page)
    assert fields["cmpId"] == str(answer["cmp"]["id"]) and fields["vendorListVersion"] == "45"
    event_line = page.inner_text("#event")
    # The subject the playground's page key made (consentd's id), written with its token from then on.
    assert event_line.startswith("event ") and "of subject sub_" in event_line


def test_reopened_from_privacy_settings_shows_the_present_choices(new_page):
    page, notice = open_demo(new_page)
    notice.locator('.ck-footer [data-action="manage"]').click()
    notice.locator('section[data-layer="2"] input[data-kind="purpose"][data-id="2"]').check()
    notice.locator('.ck-footer [data-action="save"]').click()
    recorded(page)
    page.click("#settings")
    layer2 = notice.locator('section[data-layer="2"]')
    layer2.wait_for()
    assert layer2.is_visible()
    assert notice.locator('section[data-layer="2"] input[data-kind="purpose"][data-id="2"]').is_checked()
    assert not notice.locator('section[data-layer="2"] input[data-kind="purpose"][data-id="1"]').is_checked()


@pytest.mark.parametrize("choice", ["personalized", "nonPersonalized", "adFree"])
def test_google_form_choices_record_google_status_npa_and_ad_free(new_page, choice):
    page, notice = open_demo(new_page, mode="google", ad_free=True)
    if choice == "personalized":
        notice.locator('[data-action="acceptAll"]').click()
    elif choice == "nonPersonalized":
        notice.locator('[data-action="nonPersonalized"]').click()  # one tap (issue 27 §2; there was an explainer)
    else:
        notice.locator('[data-action="adFree"]').click()
    result = recorded(page)
    fields = decode(page)
    if choice == "personalized":
        assert result["google"] == "personalized" and 755 in fields["vendorConsents"]
    elif choice == "nonPersonalized":
        assert result["google"] == "non_personalized, npa=1"
        assert not {3, 4}.intersection(fields["purposeConsents"]) and 755 in fields["vendorConsents"]
    else:  # item 60: no positive signal, the preference recorded, the purchase left to the app
        assert "prefers the ad-free version" in result["google"]
        assert fields["purposeConsents"] == [] and fields["vendorConsents"] == [] and fields["specialFeatureOptins"] == []


@pytest.mark.parametrize("language", [l for l in ns.SAMPLE_LANGUAGES if l not in ("en", "ar")])
def test_languages_with_an_official_translation_render_whole(new_page, language):
    """GVL v2 #224 with the 2020 translations: the UI texts and every purpose name in `language`."""
    page, notice = open_demo(new_page, language=language, vendor_list="v2")
    notice.locator('.ck-footer [data-action="manage"]').click()
    names = notice.locator('section[data-layer="2"] li.ck-card[data-kind="purposes"] h3').all_inner_texts()
    official = {p["name"].strip() for p in ns.translation(language)["purposes"].values()}
    assert names and all(n.strip() in official for n in names), names
    texts = ns.texts(language)
    assert notice.locator('.ck-footer [data-action="save"]').inner_text().strip() == texts["saveChoices"]
    notice.locator('.ck-footer [data-action="acceptAll"]').click()
    result = recorded(page)
    assert "English" not in result["status"]
    assert decode(page)["consentLanguage"] == language.upper()


@pytest.mark.parametrize("language", ["de", "ar"])
def test_a_list_the_translation_does_not_cover_falls_back_whole_to_english(new_page, language):
    """GVL v3 #45: the 2020 translations lack purpose 11 and the data categories; Arabic has none."""
    page, notice = open_demo(new_page, language=language)
    assert notice.locator("html").get_attribute("lang") == "en"
    assert notice.locator("html").get_attribute("dir") == "ltr"
    assert notice.locator('.ck-footer [data-action="acceptAll"]').inner_text().strip() == ns.texts("en")["acceptAll"]
    notice.locator('.ck-footer [data-action="acceptAll"]').click()
    result = recorded(page)
    assert "shown in English" in result["status"] and decode(page)["consentLanguage"] == "EN"


def test_googles_form_in_a_language_the_list_lacks_is_whole_in_english(new_page):
    """Google's form shows the list's purposes and special features, so like the TCF notice it
    is in Arabic only on a list translated into Arabic, which the IAB does not publish."""
    page, notice = open_demo(new_page, mode="google", language="ar")
    assert notice.locator("html").get_attribute("lang") == "en"
    assert notice.locator("html").get_attribute("dir") == "ltr"
    assert notice.locator('[data-action="acceptAll"]').inner_text().strip() == ns.texts("en")["googleYes"]
    notice.locator('[data-action="acceptAll"]').click()
    result = recorded(page)
    assert result["google"] == "personalized" and "shown in English" in result["status"]
    assert decode(page)["consentLanguage"] == "EN"
