"""The console's audit log page (page-audit.js, owner): the entries of what happened, newest
first, a page of 50 at a time; axe and a screenshot. Each test runs in Chromium and WebKit."""
import pytest

import console_support as cs

pytestmark = pytest.mark.consentd


@pytest.fixture(scope="module")
def many_entries(console):
    """More than a page of entries: 60 operators made with one-time links (no password to hash)."""
    for i in range(60):
        console.consent("operators", "create", "--email", f"bulk-{i:02d}@console.test", "--role", "support", "--one-time-link")
    return 60


def audit_rows(page):
    return page.evaluate("() => [...document.querySelectorAll('main table tbody tr')].map((r) => [...r.cells].map((c) => c.textContent.trim()))")


def test_the_log_shows_the_newest_entries_first_and_pages_back(console, signed_in, many_entries):
    page = signed_in("owner", "#/audit")
    assert cs.text(page, "main h1") == "Audit log"
    rows = audit_rows(page)
    assert len(rows) == 50
    # The newest: this sign-in of the owner, from loopback.
    assert rows[0][1:3] == ["Signed in", console.operators["owner"]] and rows[0][4] == "127.0.0.1"
    times = [row[0] for row in rows]
    assert times == sorted(times, reverse=True) and all(t.endswith(" UTC") for t in times)
    # The bulk operators, newest first, made by the CLI.
    bulk = [row[2] for row in rows if row[1] == "Operator created" and row[2].startswith("bulk-")]
    assert bulk[:3] == ["bulk-59@console.test", "bulk-58@console.test", "bulk-57@console.test"]
    assert all(row[4] == "cli" for row in rows if row[1] == "Operator created")
    page.click("main .actions button")
    page.wait_for("() => document.querySelectorAll('main table tbody tr').length > 50")
    more = audit_rows(page)
    assert more[:50] == rows
    older = [row[2] for row in more[50:] if row[1] == "Operator created" and row[2].startswith("bulk-")]
    assert older and older[0] < bulk[-1]
    # Focus moves to the first new row; the count says what is shown.
    assert page.evaluate("() => document.activeElement.closest('tr') === document.querySelectorAll('main table tbody tr')[50]")
    assert cs.text(page, "main .actions p").startswith(f"{len(more)} entries shown")


def test_the_audit_page_is_axe_clean_and_pictured(signed_in):
    page = signed_in("owner", "#/audit")
    assert cs.axe_violations(page) == []
    cs.screenshot(page, "audit")
