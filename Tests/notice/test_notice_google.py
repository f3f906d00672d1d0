"""The consent notice in Google mode (modelled on Google's legacy Consent SDK form, honest under the
TCF: decision record 0017), in headless Chromium: every answer one tap away with what it records on
the same card, "Manage options" into the TCF layers, the partner list with Google's ad-tech
providers set apart, and the non-personalized-only form."""
import pytest

import notice_support as ns

ns.require_browser()


def google_doc(**overrides):
    doc = ns.build_document(mode="google", adFree={"offered": True})
    doc.update(overrides)
    return doc


def button(page, action):
    return page.locator(f'.ck-footer [data-action="{action}"]')


def test_google_main_screen_texts_and_three_choices(new_page):
    doc = google_doc()
    page = ns.open_notice(new_page(), doc)
    texts = doc["texts"]
    body = page.locator('section[data-layer="g1"]').inner_text()
    assert "Example News" in body and texts["googleIntro"] in body and texts["googleQuestion"] in body
    assert texts["googleChangeAnytime"].replace("{appName}", "Example News") in body
    policy = page.get_by_role("link", name=texts["privacyPolicy"])
    assert policy.get_attribute("href") == doc["publisher"]["privacyPolicyUrl"]
    labels = page.locator(".ck-footer button").all_inner_texts()
    assert labels == [texts["googleYes"], texts["googleNo"], texts["googleRefuse"], texts["googleAdFree"], texts["manageOptions"]]
    assert ns.messages(page)[0]["type"] == "ready" and ns.messages(page)[0]["layer"] == 1


def test_google_yes_is_accept_all(new_page):
    page = ns.open_notice(new_page(), google_doc())
    button(page, "acceptAll").click()
    msg = ns.last_message(page)
    assert msg["type"] == "result" and msg["action"] == "acceptAll" and msg["layer"] == 1 and "choices" not in msg


def test_google_no_is_one_tap_and_non_personalized(new_page):
    # Issue 27 §2 changes this: "No" went to an explainer screen, then "Agree"; now one tap, as "Yes".
    doc = google_doc()
    page = ns.open_notice(new_page(), doc)
    assert doc["texts"]["googleExplainer"] in page.locator('section[data-layer="g1"]').inner_text()
    button(page, "nonPersonalized").click()
    msg = ns.last_message(page)
    assert msg["action"] == "nonPersonalized" and msg["layer"] == 1 and "choices" not in msg


def test_google_do_not_consent_is_one_tap_and_reject_all(new_page):
    page = ns.open_notice(new_page(), google_doc(adFree={"offered": False}))
    button(page, "rejectAll").click()
    msg = ns.last_message(page)
    assert msg["action"] == "rejectAll" and msg["layer"] == 1 and "choices" not in msg


def test_google_form_shows_what_each_answer_records_before_any_button(new_page):
    doc = ns.build_document(mode="google")
    page = ns.open_notice(new_page(), doc)
    card = page.locator('section[data-layer="g1"]')
    texts = doc["texts"]
    answers = card.locator("[data-answer]")
    assert [a.get_attribute("data-answer") for a in answers.all()] == ["acceptAll", "nonPersonalized", "rejectAll"]
    assert answers.nth(0).inner_text().startswith(texts["googleYes"])
    assert answers.nth(2).inner_text().startswith(texts["googleRefuse"])
    purposes = card.locator("[data-purpose]")
    assert sorted(int(p.get_attribute("data-purpose")) for p in purposes.all()) == sorted(int(k) for k in doc["purposes"])
    for key, purpose in doc["purposes"].items():
        item = card.locator(f'[data-purpose="{key}"]')
        assert purpose["name"].strip() in item.inner_text()
        assert (item.locator(".ck-google-mark").count() == 1) == (int(key) in (3, 4, 5, 6))
    assert doc["specialFeatures"], "the demo's vendors use special features"
    assert card.locator("[data-special-feature]").count() == len(doc["specialFeatures"])
    assert texts["googleSpecialFeatures"].replace("{manageOptions}", texts["manageOptions"]) in card.inner_text()
    assert card.locator('[data-text="googleLegitimateInterest"]').count() == 1
    count = card.locator('[data-text="googlePartnersCount"]')
    assert int(count.get_attribute("data-count")) == len(doc["vendors"]) + len(doc["adTechProviders"])
    assert f'{len(doc["vendors"])} vendors' in count.inner_text() and f': {len(doc["adTechProviders"])}.' in count.inner_text()


def test_google_manage_options_opens_the_tcf_layers_and_saves_what_the_switches_say(new_page):
    doc = ns.build_document(mode="google")
    page = ns.open_notice(new_page(), doc)
    button(page, "manage").click()
    assert page.locator('section[data-layer="2"]').is_visible()
    feature = next(iter(doc["specialFeatures"]))
    page.locator(f'section[data-layer="2"] input[data-kind="specialFeature"][data-id="{feature}"]').check()
    page.locator('section[data-layer="2"] input[data-kind="purpose"][data-id="1"]').check()
    button(page, "save").click()
    msg = ns.last_message(page)
    assert msg["action"] == "save" and msg["layer"] == 2
    assert msg["choices"]["specialFeatureOptIns"] == [int(feature)] and msg["choices"]["purposeConsents"] == [1]


def test_google_manage_options_back_returns_to_the_form(new_page):
    page = ns.open_notice(new_page(), google_doc())
    button(page, "manage").click()
    page.locator(".ck-back").click()
    assert page.locator('section[data-layer="g1"]').is_visible() and button(page, "acceptAll").is_visible()


def test_google_form_is_a_card_with_the_app_icon(new_page):
    icon = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkaPhfDwAE/wH+qR2W2gAAAABJRU5ErkJggg=="
    doc = ns.build_document(mode="google", appIcon=icon)
    assert doc["google"]["appIcon"] == icon
    page = ns.open_notice(new_page(), doc)
    img = page.locator('section[data-layer="g1"] .ck-google-head img.ck-app-icon')
    assert img.get_attribute("src") == icon and img.get_attribute("alt") == ""
    card = page.locator('section[data-layer="g1"]')
    assert card.evaluate("e => getComputedStyle(e).borderTopStyle") == "solid"
    ns.screenshot(page, "google-card-with-icon")


def test_google_pay_for_ad_free(new_page):
    page = ns.open_notice(new_page(), google_doc())
    button(page, "adFree").click()
    assert ns.last_message(page)["action"] == "adFree"


def test_google_no_ad_free_button_when_not_offered(new_page):
    page = ns.open_notice(new_page(), google_doc(adFree={"offered": False}))
    assert button(page, "adFree").count() == 0


def test_google_non_personalized_only(new_page):
    doc = google_doc(google={"personalizedOffered": False, "nonPersonalizedOffered": True, "refusalOffered": True})
    page = ns.open_notice(new_page(), doc)
    assert button(page, "acceptAll").count() == 0 and button(page, "rejectAll").count() == 1
    assert button(page, "nonPersonalized").inner_text() == doc["texts"]["googleAgree"]
    assert doc["texts"]["googleNpaOnly"] in page.locator('section[data-layer="g1"]').inner_text()
    button(page, "nonPersonalized").click()
    msg = ns.last_message(page)
    assert msg["action"] == "nonPersonalized" and msg["layer"] == 1


def test_google_partners_list_with_policy_links(new_page):
    doc = google_doc()
    page = ns.open_notice(new_page(), doc)
    link = page.locator('[data-action="open-partners"]')
    assert link.inner_text() == doc["texts"]["googleLearnMore"].replace("{appName}", "Example News")
    link.click()
    partners = page.locator('section[data-layer="g3"] [data-partner]')
    assert partners.count() == len(doc["vendors"]) + len(doc["adTechProviders"])
    # Google's ad-tech providers apart from the IAB TCF vendors, under their own heading, each list alphabetical.
    vendors = page.locator('section[data-layer="g3"] [data-partners="vendor"] [data-partner]')
    atps = page.locator('section[data-layer="g3"] .ck-atp [data-partners="atp"] [data-partner]')
    assert vendors.count() == len(doc["vendors"]) and atps.count() == len(doc["adTechProviders"])
    assert page.locator('section[data-layer="g3"] .ck-atp h2').inner_text() == doc["texts"]["googleAtpHeading"]
    for names in (vendors.all_inner_texts(), atps.all_inner_texts()):
        assert names == sorted(names, key=str.casefold)
    for atp in doc["adTechProviders"]:
        assert page.locator(f'[data-partner="atp:{atp["id"]}"] a').get_attribute("href") == atp["privacyPolicyUrl"]
    how = page.get_by_role("link", name=doc["texts"]["googleHowAppUses"].replace("{appName}", "Example News"))
    assert how.get_attribute("href") == doc["publisher"]["privacyPolicyUrl"]
    page.locator(".ck-back").click()
    assert page.locator('section[data-layer="g1"]').is_visible()


def test_google_dismissed(new_page):
    doc = google_doc(allowsDismissal=True)
    page = ns.open_notice(new_page(), doc)
    page.get_by_role("button", name=doc["texts"]["close"]).click()
    assert ns.last_message(page)["action"] == "dismissed"


def test_google_mode_with_only_ad_tech_providers(new_page):
    page = ns.open_notice(new_page(), google_doc(vendors=[]))
    assert ns.last_message(page)["type"] == "ready"


# 001-12: Google's shouldOfferPersonalizedAds / shouldOfferNonPersonalizedAds / shouldOfferAdFree,
# as NoticeSettings' offersPersonalized / offersNonPersonalized / offersAdFree, through the Swift builder.

def test_001_12_google_form_without_personalized_ads_offers_non_personalized_ones_only(new_page):
    doc = ns.build_document(mode="google", personalized=False, adFree={"offered": False})
    assert doc["google"] == {"personalizedOffered": False, "nonPersonalizedOffered": True, "refusalOffered": True, "appIcon": None}
    page = ns.open_notice(new_page(), doc)
    ns.screenshot(page, "001-12-google-without-personalized")
    assert [b.get_attribute("data-action") for b in page.locator(".ck-footer button").all()] == ["nonPersonalized", "rejectAll", "manage"]
    assert doc["texts"]["googleNpaOnly"] in page.locator('section[data-layer="g1"]').inner_text()
    button(page, "nonPersonalized").click()
    assert ns.last_message(page)["action"] == "nonPersonalized"


def test_001_12_google_form_without_non_personalized_ads_offers_personalized_ones_and_ad_free(new_page):
    doc = ns.build_document(mode="google", nonPersonalized=False, adFree={"offered": True})
    assert doc["google"] == {"personalizedOffered": True, "nonPersonalizedOffered": False, "refusalOffered": True, "appIcon": None}
    page = ns.open_notice(new_page(), doc)
    ns.screenshot(page, "001-12-google-without-non-personalized")
    labels = page.locator(".ck-footer button").all_inner_texts()
    assert labels == [doc["texts"]["googleYes"], doc["texts"]["googleRefuse"], doc["texts"]["googleAdFree"], doc["texts"]["manageOptions"]]
    assert button(page, "nonPersonalized").count() == 0
    button(page, "adFree").click()
    assert ns.last_message(page)["action"] == "adFree"


def test_001_12_google_form_offering_no_kind_of_ads_is_refused_by_the_builder_and_the_page(new_page):
    with pytest.raises(AssertionError, match="no kind of ads"):
        ns.build_document(mode="google", personalized=False, nonPersonalized=False, adFree={"offered": True})
    doc = google_doc(google={"personalizedOffered": False, "nonPersonalizedOffered": False})
    page = ns.open_notice(new_page(), doc)
    message = ns.last_message(page)
    assert message["type"] == "loadError" and message["code"] == "malformed_document"
    assert page.locator(".ck-footer button").count() == 0


def test_google_form_offering_no_refusal_is_refused_by_the_builder_and_the_page(new_page):
    with pytest.raises(AssertionError, match="no way to refuse"):
        ns.build_document(mode="google", refusal=False, adFree={"offered": False})
    doc = ns.build_document(mode="google", refusal=False, adFree={"offered": True})
    assert doc["google"]["refusalOffered"] is False
    page = ns.open_notice(new_page(), google_doc(google=dict(doc["google"]), adFree={"offered": True}))
    assert button(page, "rejectAll").count() == 0 and button(page, "adFree").count() == 1
    page = ns.open_notice(new_page(), google_doc(google=dict(doc["google"]), adFree={"offered": False}))
    message = ns.last_message(page)
    assert message["type"] == "loadError" and message["code"] == "malformed_document"
    assert page.locator(".ck-footer button").count() == 0
