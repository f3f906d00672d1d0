"""The console's page "Data subjects" (docs/console.md, "Data-subject requests", decision 0042) in
Chromium and WebKit against a real consentd (SQLite, or PostgreSQL with CONSOLE_TEST_DATABASE):
a subject seeded through POST /v1/consents is looked up by a support operator, its history shows
each event's proof, its export download is the API's export, it is erased after the confirmation
dialog and the receipt shown, the audit log has the rows (naming the subject by its hash only),
it is started anew, and the app's chain verified. axe on the page; screenshots to look at."""
import json
import re
import uuid

import pytest

import console_support as cs

DSAR_APP = "com.example.dsar"


@pytest.fixture(scope="module")
def dsar_key(console):
    """A secret key of DSAR_APP: its subjects are this file's alone (the analytics tests count APP's)."""
    return console.consent("keys", "create", "--app", DSAR_APP, "--kind", "secret").strip()


def seed_subject(console, key, subject, count):
    for index in range(count):
        body = cs.event(subject, "2026-11-0%d" % (index + 2), cs.CUSTOM, "de", "web", "3", "custom")
        status, _, answer = console.request("POST", "/v1/consents", body, {"Authorization": "Bearer " + key})
        assert status == 201, answer


def look_up(page, app, subject, by="id"):
    cs.fill(page, "input[name=appId]", app)
    page.evaluate("(v) => { const s = document.querySelector('select[name=by]'); s.value = v; s.dispatchEvent(new Event('change')); }", by)
    cs.fill(page, "input[name=subject]", subject)
    page.click("form.subject-lookup button[type=submit]")


def history_rows(page):
    page.wait_for("() => document.querySelector('.history-table tbody tr')")
    return page.evaluate("""() => [...document.querySelectorAll('.history-table tbody tr')]
        .map((r) => [...r.cells].map((c) => c.textContent.replace(/\\s+/g, ' ').trim()))""")


def without_time(export):
    return {key: value for key, value in export.items() if key != "exportedAt"}


def test_support_looks_up_exports_erases_and_restarts_a_subject(engine, console, signed_in, dsar_key):
    subject = f"dsar-{engine}-{uuid.uuid4().hex[:8]}"
    seed_subject(console, dsar_key, subject, 2)
    page = signed_in("support", "#/subjects")
    assert cs.text(page, "main h1") == "Data subjects"

    look_up(page, DSAR_APP, subject)
    rows = history_rows(page)
    assert len(rows) == 2
    assert all("Holds" in row for row in rows), rows
    facts = cs.text(page, ".subject-result dl.facts")
    assert subject in facts and "Never erased" in facts
    subject_hash = page.evaluate("() => document.querySelector('.subject-result code.hash').textContent")
    assert re.fullmatch(r"[0-9a-f]{64}", subject_hash)
    assert cs.axe_violations(page) == []
    cs.screenshot(page, "subjects-found")

    # The download is the secret-key API's export, byte for byte but the time it was made.
    href = page.evaluate("() => document.querySelector('.subject-result a[download]').getAttribute('href')")
    status, text = cs.fetch_text(page, href)
    assert status == 200
    api_status, _, api_body = console.request("GET", f"/v1/subjects/{subject}/export", headers={"Authorization": "Bearer " + dsar_key})
    assert api_status == 200
    assert without_time(json.loads(text)) == without_time(json.loads(api_body))
    assert len(json.loads(text)["events"]) == 2

    # Erase: the dialog first, then the receipt.
    page.click(".subject-result button.danger")
    page.wait_for("() => document.querySelector('dialog.confirm').open")
    assert subject in cs.text(page, "dialog.confirm #erase-text")
    assert page.evaluate("() => document.activeElement.textContent") == "Cancel"
    cs.screenshot(page, "subjects-confirm")
    page.click("dialog.confirm button.danger")
    page.wait_for("() => document.querySelector('.receipt-box')")
    assert not page.evaluate("() => document.querySelector('dialog.confirm').open")
    receipt = cs.text(page, ".receipt-box")
    assert re.search(r"era_[0-9a-f-]{36}", receipt) and re.search(r"Events erased\s*2", receipt), receipt
    assert "Erased" in cs.text(page, ".subject-result dl.facts")
    assert "No event holds" in cs.text(page, ".history-table")
    assert cs.axe_violations(page) == []
    cs.screenshot(page, "subjects-receipt")

    status, _, _ = console.request("POST", "/v1/consents", cs.event(subject, "2026-11-05", cs.CUSTOM, "de", "web", "3", "custom"),
                                   {"Authorization": "Bearer " + dsar_key})
    assert status == 410

    # The audit log: the support operator's lookup, history, erasure; the subject named by its hash only.
    cookie, _ = console.session("owner")
    status, _, body = console.request("GET", "/v1/console/audit?limit=100", headers={"Cookie": cookie})
    assert status == 200
    entries = [e for e in json.loads(body)["entries"] if (e.get("target") or "").startswith(subject_hash)]
    actions = [e["action"] for e in entries]
    assert "subject_erased" in actions and "subject_looked_up" in actions and "subject_history_read" in actions, actions
    erased = next(e for e in entries if e["action"] == "subject_erased")
    assert erased["target"].startswith(f"{subject_hash} of {DSAR_APP}, receipt era_")
    assert erased["operatorId"] and erased["address"]
    assert all(subject not in (e.get("target") or "") for e in json.loads(body)["entries"])

    # Start anew: the backend may write the subject again.
    page.evaluate("() => [...document.querySelectorAll('.subject-result button')].find((b) => b.textContent === 'Start anew').click()")
    # "; not started anew" is already shown: wait for the restart's own line, not for a substring of it.
    page.wait_for("() => /; started anew \\d/.test(document.querySelector('.subject-result dl.facts').textContent)")
    status, _, answer = console.request("POST", "/v1/consents", cs.event(subject, "2026-11-06", cs.CUSTOM, "de", "web", "3", "custom"),
                                        {"Authorization": "Bearer " + dsar_key})
    assert status == 201, answer

    # The chain of the app holds.
    page.evaluate("() => [...document.querySelectorAll('main button')].find((b) => b.textContent === 'Verify the hash chain').click()")
    result = page.wait_for("() => { const p = document.querySelector('.chain-result p'); return p && p.textContent; }")
    assert re.search(r"The chain of com\.example\.dsar holds: \d+ events checked\.", result), result


def test_lookup_errors_show_next_to_the_field_or_as_an_alert(engine, console, signed_in, dsar_key):
    page = signed_in("support", "#/subjects")
    look_up(page, DSAR_APP, "not-hex", by="hash")
    message = page.wait_for("""() => { const i = document.querySelector('input[name=subject]');
        const d = i.getAttribute('aria-describedby') || '';
        const e = d.split(' ').map((id) => document.getElementById(id)).find((n) => n && n.classList.contains('field-error'));
        return i.getAttribute('aria-invalid') === 'true' && e && !e.hidden && e.textContent; }""")
    assert "subjectHash" in message
    look_up(page, DSAR_APP, f"nobody-{uuid.uuid4().hex}")
    alert = page.wait_for("() => { const a = document.querySelector('.subject-result [role=alert]'); return a && a.textContent; }")
    assert "subject_not_found" in alert
    look_up(page, "no.such.app", "someone")
    alert = page.wait_for("""() => { const a = document.querySelector('.subject-result [role=alert]');
        return a && /app_not_found/.test(a.textContent) && a.textContent; }""")
    assert "no.such.app" in alert
    assert cs.axe_violations(page) == []
    cs.screenshot(page, "subjects-errors")
