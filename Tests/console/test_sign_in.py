"""The console's shell (console.js): sign-in with a password and with a one-time token, the
messages of a wrong password and of a lockout, each role's navigation and a route it is refused,
sign-out, keyboard and axe on the sign-in form. Each test runs in Chromium and WebKit."""
import json

import pytest

import console_support as cs

pytestmark = pytest.mark.consentd


def nav_labels(page):
    return page.evaluate("() => [...document.querySelectorAll('#nav-list a')].map((a) => a.textContent)")


@pytest.mark.parametrize("role", cs.ROLES)
def test_each_role_sees_its_pages_is_refused_the_others_and_signs_out(console, signed_in, role):
    page = signed_in(role)
    labels = nav_labels(page)
    assert ("Analytics" in labels) == (role in ("owner", "analyst"))
    assert ("Audit log" in labels) == (role == "owner")
    assert cs.text(page, "#who-email") == console.operators[role]
    assert cs.text(page, "#who-role") == role
    # Focus is on the page's heading after sign-in.
    assert page.evaluate("() => document.activeElement && document.activeElement.tagName") == "H1"

    # A route of the owner alone: refused by consentd, and the page says it is not for the role.
    status, _ = cs.fetch_text(page, "/v1/console/audit")
    assert status == (200 if role == "owner" else 403)
    page.evaluate("() => { location.hash = '#/audit'; }")
    cs.wait_page(page)
    heading = cs.text(page, "main h1")
    assert heading == ("Audit log" if role == "owner" else "Not for your role")
    if role in ("editor", "support"):
        status, body = cs.fetch_text(page, f"/v1/console/analytics/choices?app={cs.APP}")
        assert status == 403 and json.loads(body)["error"]["code"] == "forbidden"

    page.click("#sign-out")
    page.wait_for("() => document.body.dataset.state === 'signed-out' && document.querySelector('form.sign-in')")
    assert cs.text(page, "main h1") == "Sign in"
    assert page.evaluate("() => document.getElementById('nav').hidden && document.getElementById('who').hidden")
    status, _ = cs.fetch_text(page, "/v1/console/me")
    assert status == 401
    page.wait_for("() => document.getElementById('live').textContent === 'Signed out.'")


def test_a_one_time_token_link_signs_in_and_sets_the_password(console, console_page, engine):
    page = console_page()
    if engine == "chromium":
        # The first owner's link, as consentd printed it at start (one use: this engine's).
        url, email, role = console.first_owner_url, "first-owner@console.test", "owner"
    else:
        email, role = f"linked-{engine}@console.test", "editor"
        token = console.consent("operators", "create", "--email", email, "--role", role, "--one-time-link").strip()
        url = console.browser_url(engine) + "/console/#/token=" + token
    page.goto(url)
    cs.wait_page(page)
    assert cs.text(page, "main h1") == "Sign in with a one-time token"
    # The token leaves the address bar at once.
    assert "token" not in page.evaluate("() => location.href")
    assert page.evaluate("() => document.querySelector('input[name=token]').value") != ""
    password = "a new passphrase for " + engine
    cs.fill(page, "input[name=email]", email)
    cs.fill(page, "input[name=password]", password)
    page.click("form.sign-in button[type=submit]")
    page.wait_for("() => document.body.dataset.state === 'signed-in'")
    cs.wait_page(page)
    assert cs.text(page, "#who-email") == email and cs.text(page, "#who-role") == role
    # The token was used: the password works, the link does not any more.
    status, _, _ = console.request("POST", "/v1/console/session", {"email": email, "password": password})
    assert status == 200
    token = url.split("#/token=")[1]
    status, _, body = console.request("POST", "/v1/console/session", {"token": token, "password": password})
    assert status == 401 and json.loads(body)["error"]["code"] == "link_invalid"


def test_a_wrong_password_says_so_and_five_lock_the_email(console, console_page, engine):
    email = f"lock-{engine}@console.test"
    console.consent("operators", "create", "--email", email, "--role", "support", stdin=cs.PASSWORD + "\n")
    page = console_page()
    cs.open_console(page, console)
    cs.submit_sign_in(page, email, "not the password at all")
    page.wait_for("() => document.querySelector('.form-error').textContent !== ''")
    assert cs.text(page, ".form-error") == "The e-mail or the password is wrong."
    assert page.evaluate("() => document.querySelector('.form-error').getAttribute('role')") == "alert"
    assert page.evaluate("() => document.body.dataset.state") == "signed-out"
    for _ in range(4):
        status, _, _ = console.request("POST", "/v1/console/session", {"email": email, "password": "still not it!"})
        assert status == 401
    # Locked: the right password is refused too, with the time to wait.
    cs.submit_sign_in(page, email, cs.PASSWORD)
    page.wait_for("() => document.querySelector('.form-error').textContent.includes('Too many')")
    assert cs.text(page, ".form-error") == "Too many failed sign-ins for this e-mail. Try again in 15 minutes."
    assert page.evaluate("() => document.body.dataset.state") == "signed-out"


def test_a_missing_field_is_named_next_to_it(console, console_page):
    page = console_page()
    cs.open_console(page, console)
    cs.submit_sign_in(page, "", "")
    page.wait_for("() => !document.querySelector('.field-error').hidden")
    email_error = page.evaluate("""() => { const i = document.querySelector('input[name=email]');
        return [i.getAttribute('aria-invalid'), document.getElementById(i.getAttribute('aria-describedby').split(' ').pop()).textContent]; }""")
    assert email_error == ["true", "Enter your e-mail."]
    assert page.evaluate("() => document.activeElement.name") == "email"


def test_the_sign_in_form_is_axe_clean_and_reached_by_tab(console, console_page, engine):
    page = console_page(390, 844)
    cs.open_console(page, console)
    assert cs.axe_violations(page) == []
    cs.screenshot(page, "sign-in-phone")
    # From the first control of the page (the skip link), Tab walks the form in order.
    page.evaluate("() => document.getElementById('skip').focus()")
    reached = []
    for _ in range(4):
        page.press("Tab")
        reached.append(page.evaluate("() => { const e = document.activeElement; return e.name || e.id || e.textContent.trim(); }"))
    assert reached == ["email", "password", "Sign in", "I have a one-time token"]


def test_the_console_answers_with_its_policy_and_validators(console):
    status, headers, body = console.request("GET", "/console/")
    assert status == 200 and b'<script src="console.js" defer></script>' in body
    assert headers["Content-Security-Policy"] == (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        "frame-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
    assert headers["X-Frame-Options"] == "DENY" and headers["Cache-Control"] == "no-cache"
    status, _, _ = console.request("GET", "/console/console.js", headers={"If-None-Match": headers["ETag"]})
    assert status == 200  # another file's ETag
    status, js_headers, _ = console.request("GET", "/console/console.js")
    status, _, _ = console.request("GET", "/console/console.js", headers={"If-None-Match": js_headers["ETag"]})
    assert status == 304
    status, _, _ = console.request("GET", "/console/nothing.js")
    assert status == 404
