"""The console's configuration pages (decision record 0041): apps and websites (page-apps.js) and
API keys (page-keys.js), for editors and owners. A change made in the page reaches GET /v1/config
of the running consentd at once (no restart, a new ETag); errors show next to their field; a key's
secret is shown once. Each test runs in Chromium and WebKit; axe and screenshots."""
import json
import uuid

import pytest

import console_support as cs

pytestmark = pytest.mark.consentd

PUBLISHER = "pub-console"


def editor_request(console, method, path, body=None):
    cookie, csrf = console.session("editor")
    return console.request(method, path, body, {"Cookie": cookie, "X-CSRF-Token": csrf, "Origin": console.url})


@pytest.fixture(scope="module")
def publisher(console):
    """A publisher the pages can name, made through the console's route."""
    status, _, body = editor_request(console, "POST", "/v1/console/publishers",
                                     {"id": PUBLISHER, "name": "Console News", "vendorIds": [755, 21]})
    assert status in (201, 409), body
    return PUBLISHER


def config(console, key, etag=None):
    headers = {"Authorization": "Bearer " + key}
    if etag:
        headers["If-None-Match"] = etag
    return console.request("GET", f"/v1/config?publisherIds={PUBLISHER}", headers=headers)


def wait_row(page, text):
    page.wait_for("(t) => [...document.querySelectorAll('main table tbody tr')].some((r) => r.textContent.includes(t))", text)


def test_an_app_added_in_the_page_reaches_v1_config_without_a_restart(console, signed_in, publisher, engine):
    app = f"com.example.page-{engine}-{uuid.uuid4().hex[:6]}"
    key = console.consent("keys", "create", "--app", app, "--kind", "publishable").strip()
    status, headers, body = config(console, key)
    assert status == 403 and json.loads(body)["error"]["code"] == "publisher_not_for_app"

    page = signed_in("editor", "#/apps")
    assert cs.text(page, "main h1") == "Apps and websites"
    page.click("#cfg-add-app")
    page.wait_for("() => document.getElementById('cfg-app-form') !== null")
    assert page.evaluate("() => document.activeElement.name") == "appId"
    cs.fill(page, "#cfg-app-form input[name=appId]", app)
    page.evaluate("(p) => { document.querySelector(`#cfg-app-form input[value='${p}']`).checked = true; }", publisher)
    page.click("#cfg-app-form button[type=submit]")
    wait_row(page, app)
    assert page.evaluate("() => document.getElementById('live').textContent") in ("", f"App {app} created.")

    status, headers, body = config(console, key)
    assert status == 200, body
    answer = json.loads(body)
    assert [p["id"] for p in answer["publishers"]] == [PUBLISHER]
    assert answer["vendorIds"] == [21, 755]
    tag = headers["ETag"]
    assert config(console, key, tag)[0] == 304

    # The publisher changed through the console: the old tag gets 200, the new value and a new tag.
    status, _, _ = editor_request(console, "PUT", f"/v1/console/publishers/{PUBLISHER}",
                                  {"name": "Console News", "vendorIds": [755, 21, 32]})
    assert status == 200
    status, headers, body = config(console, key, tag)
    assert status == 200 and json.loads(body)["vendorIds"] == [21, 32, 755] and headers["ETag"] != tag
    editor_request(console, "PUT", f"/v1/console/publishers/{PUBLISHER}", {"name": "Console News", "vendorIds": [755, 21]})

    # Deleting the app in the page, after its confirmation, takes the publisher away from its keys.
    page.evaluate("(a) => [...document.querySelectorAll('main table tbody tr')].find((r) => r.textContent.includes(a))"
                  ".querySelector('.actions .actions button').click()", app)
    page.wait_for("(a) => document.activeElement.textContent === 'Delete app ' + a", app)
    page.evaluate("() => document.activeElement.click()")
    page.wait_for("(a) => ![...document.querySelectorAll('main table tbody tr')].some((r) => r.textContent.includes(a))", app)
    assert config(console, key)[0] == 403


def test_a_refused_app_shows_the_readers_error_next_to_its_field(signed_in, publisher):
    page = signed_in("editor", "#/apps")
    page.click("#cfg-add-app")
    page.wait_for("() => document.getElementById('cfg-app-form') !== null")
    cs.fill(page, "#cfg-app-form input[name=appId]", "not an app id")
    page.evaluate("(p) => { document.querySelector(`#cfg-app-form input[value='${p}']`).checked = true; }", publisher)
    page.click("#cfg-app-form button[type=submit]")
    page.wait_for("() => document.querySelector('#cfg-app-form input[name=appId]').getAttribute('aria-invalid') === 'true'")
    described = page.evaluate("""() => { const i = document.querySelector('#cfg-app-form input[name=appId]');
        return i.getAttribute('aria-describedby').split(' ').map((id) => document.getElementById(id).textContent); }""")
    assert any("is not an app id" in text for text in described)
    assert page.evaluate("() => document.activeElement.name") == "appId"
    # No publisher chosen: the error is on the publishers' group.
    cs.fill(page, "#cfg-app-form input[name=appId]", "com.example.none")
    page.evaluate("() => document.querySelectorAll('#cfg-app-form input[type=checkbox]').forEach((b) => { b.checked = false; })")
    page.click("#cfg-app-form button[type=submit]")
    page.wait_for("() => [...document.querySelectorAll('#cfg-app-form fieldset .field-error')].some((e) => !e.hidden)")
    assert "must name at least one publisher" in cs.text(page, "#cfg-app-form fieldset .field-error")


def test_a_website_added_in_the_page_is_listed_and_kept(console, signed_in, publisher, engine):
    site = f"{engine}-{uuid.uuid4().hex[:6]}.example"
    page = signed_in("owner", "#/apps")
    page.click("#cfg-add-site")
    page.wait_for("() => document.getElementById('cfg-site-form') !== null")
    cs.fill(page, "#cfg-site-form input[name=appId]", site)
    cs.fill(page, "#cfg-site-form input[name=name]", "A site")
    cs.fill(page, "#cfg-site-form input[name=privacyPolicyUrl]", "ftp://" + site)
    page.evaluate("(p) => { document.querySelector(`#cfg-site-form input[value='${p}']`).checked = true; }", publisher)
    page.click("#cfg-site-form button[type=submit]")
    page.wait_for("() => document.querySelector('#cfg-site-form input[name=privacyPolicyUrl]').getAttribute('aria-invalid') === 'true'")
    assert "must be an http(s) URL" in page.evaluate("() => document.querySelector('#cfg-site-form .field-error:not([hidden])').textContent")
    cs.fill(page, "#cfg-site-form input[name=privacyPolicyUrl]", f"https://{site}/privacy")
    page.click("#cfg-site-form button[type=submit]")
    wait_row(page, site)
    status, _, body = editor_request(console, "GET", f"/v1/console/websites/{site}")
    assert status == 200 and json.loads(body)["privacyPolicyUrl"] == f"https://{site}/privacy"
    editor_request(console, "DELETE", f"/v1/console/websites/{site}")


def test_a_key_is_created_with_its_secret_shown_once_copied_and_revoked(console, signed_in, engine):
    app = f"com.example.keys-{engine}"
    page = signed_in("editor", "#/keys")
    assert cs.text(page, "main h1") == "API keys"
    cs.fill(page, "#keys-app", app)
    page.evaluate("() => { document.getElementById('keys-kind').value = 'secret'; }")
    cs.fill(page, "#keys-label", "CRM backend")
    page.click("main form button[type=submit]")
    page.wait_for("() => document.getElementById('keys-secret') !== null")
    secret = page.evaluate("() => document.getElementById('keys-secret').value")
    assert secret.startswith("ck_sec_")
    assert page.evaluate("() => document.activeElement.id") == "keys-secret-h"
    key_id = secret.split("_")[2]
    wait_row(page, key_id)
    table = page.evaluate("() => document.querySelector('main section table').textContent")
    assert secret[-32:] not in table and "CRM backend" in table
    page.click("#keys-copy")
    page.wait_for("() => document.getElementById('keys-copied').textContent !== ''")

    # The key works; its use shows as its last use.
    assert console.request("GET", "/v1/config?publisherIds=x", headers={"Authorization": "Bearer " + secret})[0] in (400, 403, 404)
    page.goto(console.browser_url(engine) + "/console/#/apps")
    cs.wait_page(page)
    page.goto(console.browser_url(engine) + "/console/#/keys")
    cs.wait_page(page)
    wait_row(page, key_id)
    row = page.evaluate("(k) => [...document.querySelectorAll('main table tbody tr')].find((r) => r.textContent.includes(k))"
                        ".cells[5].textContent", key_id)
    assert row.endswith(" UTC")
    assert page.evaluate("() => document.getElementById('keys-secret')") is None, "the secret is gone once the page is left"

    page.evaluate("(k) => [...document.querySelectorAll('main table tbody tr')].find((r) => r.textContent.includes(k))"
                  ".querySelector('button').click()", key_id)
    page.wait_for("(k) => document.activeElement.textContent === 'Revoke ' + k + ' now'", key_id)
    page.evaluate("() => document.activeElement.click()")
    page.wait_for("(k) => [...document.querySelectorAll('main table tbody tr')].find((r) => r.textContent.includes(k))"
                  ".cells[6].textContent.startsWith('Revoked')", key_id)
    assert console.request("GET", "/v1/config?publisherIds=x", headers={"Authorization": "Bearer " + secret})[0] == 401


def test_the_configuration_pages_are_axe_clean_and_pictured(signed_in, publisher):
    page = signed_in("editor", "#/apps")
    page.click("#cfg-add-app")
    page.wait_for("() => document.getElementById('cfg-app-form') !== null")
    assert cs.axe_violations(page) == []
    cs.screenshot(page, "apps")
    page = signed_in("editor", "#/keys")
    cs.fill(page, "#keys-app", "com.example.axe")
    page.click("main form button[type=submit]")
    page.wait_for("() => document.getElementById('keys-secret') !== null")
    assert cs.axe_violations(page) == []
    cs.screenshot(page, "keys")


def test_analysts_and_support_do_not_see_the_configuration_pages(signed_in):
    for role in ("analyst", "support"):
        page = signed_in(role)
        links = page.evaluate("() => [...document.querySelectorAll('#nav-list a')].map((a) => a.getAttribute('href'))")
        assert "#/apps" not in links and "#/keys" not in links
