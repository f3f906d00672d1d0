"""The consent notice in Google mode (modelled on Google's legacy Consent SDK form), in headless
Chromium: the three choices, the explainer, the partner list and the non-personalized-only form."""
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
    assert labels == [texts["googleYes"], texts["googleNo"], texts["googleAdFree"]]
    assert ns.messages(page)[0]["type"] == "ready" and ns.messages(page)[0]["layer"] == 1


def test_google_yes_is_accept_all(new_page):
    page = ns.open_notice(new_page(), google_doc())
    button(page, "acceptAll").click()
    msg = ns.last_message(page)
    assert msg["type"] == "result" and msg["action"] == "acceptAll" and msg["layer"] == 1 and "choices" not in msg


def test_google_no_opens_explainer_back_and_agree_is_non_personalized(new_page):
    doc = google_doc()
    page = ns.open_notice(new_page(), doc)
    button(page, "nonPersonalizedInfo").click()
    explainer = page.locator('section[data-layer="g2"]')
    assert explainer.is_visible() and doc["texts"]["googleExplainer"] in explainer.inner_text()
    button(page, "back").click()
    assert page.locator('section[data-layer="g1"]').is_visible()
    button(page, "nonPersonalizedInfo").click()
    button(page, "nonPersonalized").click()
    msg = ns.last_message(page)
    assert msg["action"] == "nonPersonalized" and msg["layer"] == 2


def test_google_pay_for_ad_free(new_page):
    page = ns.open_notice(new_page(), google_doc())
    button(page, "adFree").click()
    assert ns.last_message(page)["action"] == "adFree"


def test_google_no_ad_free_button_when_not_offered(new_page):
    page = ns.open_notice(new_page(), google_doc(adFree={"offered": False}))
    assert button(page, "adFree").count() == 0


def test_google_non_personalized_only(new_page):
    doc = google_doc(google={"personalizedOffered": False})
    page = ns.open_notice(new_page(), doc)
    assert button(page, "acceptAll").count() == 0 and button(page, "nonPersonalizedInfo").count() == 0
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
    assert doc["google"] == {"personalizedOffered": False, "nonPersonalizedOffered": True}
    page = ns.open_notice(new_page(), doc)
    ns.screenshot(page, "001-12-google-without-personalized")
    assert [b.get_attribute("data-action") for b in page.locator(".ck-footer button").all()] == ["nonPersonalized"]
    assert doc["texts"]["googleNpaOnly"] in page.locator('section[data-layer="g1"]').inner_text()
    button(page, "nonPersonalized").click()
    assert ns.last_message(page)["action"] == "nonPersonalized"


def test_001_12_google_form_without_non_personalized_ads_offers_personalized_ones_and_ad_free(new_page):
    doc = ns.build_document(mode="google", nonPersonalized=False, adFree={"offered": True})
    assert doc["google"] == {"personalizedOffered": True, "nonPersonalizedOffered": False}
    page = ns.open_notice(new_page(), doc)
    ns.screenshot(page, "001-12-google-without-non-personalized")
    labels = page.locator(".ck-footer button").all_inner_texts()
    assert labels == [doc["texts"]["googleYes"], doc["texts"]["googleAdFree"]]
    assert button(page, "nonPersonalizedInfo").count() == 0 and button(page, "nonPersonalized").count() == 0
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
