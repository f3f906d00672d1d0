"""Fixtures for the console's browser tests (docs/console.md, "The pages"): one real consentd (the
server package's debug build, or CONSENTD_BIN) on SQLite, or on a fresh database of the PostgreSQL
server CONSENTD_TEST_POSTGRES_URL names when CONSOLE_TEST_DATABASE=postgresql; an operator of each
role made with `consent operators create` (CONSENT_BIN, or the debug build); and pages in Chromium
(Playwright) and WebKitGTK (WebKitWebDriver, under xvfb-run) through Tests/notice/engines.py.
Chromium opens consentd itself (http://127.0.0.1, where it keeps the session's `Secure` cookie);
WebKit, which keeps a `Secure` cookie only over https, opens it through a TLS proxy with a
self-signed certificate (console_support.TLSProxy), as production puts TLS in front of consentd.

    def test_x(console, signed_in):
        page = signed_in("analyst")            # an engines.Page at /console/, signed in as the analyst
        page.wait_for("() => document.querySelector('main h1')")

Every test that takes `engine` runs once per engine (chromium, webkit), or only in the engines
CONSOLE_TEST_ENGINES names (comma-separated; scripts/test runs the PostgreSQL pass in Chromium
alone, since what differs between the databases is consentd's, not the page's). A page's JavaScript
errors and, in Chromium, Content-Security-Policy refusals fail the test that made the page.
Screenshots go to $NOTICE_ARTIFACTS (default /tmp/notice-artifacts), named console-*.
"""
import os
import pathlib
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "notice"))
import console_support as cs  # noqa: E402
import engines  # noqa: E402
import notice_support as ns  # noqa: E402


def pytest_configure(config):
    config.addinivalue_line("markers", "consentd: the test needs the server package's consentd (CONSENTD_BIN or its debug build)")


@pytest.fixture(scope="session")
def console():
    """The run's consentd, with its operators (cs.ROLES) and the first owner's one-time token."""
    server = cs.ConsoleServer()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser():
    ns.require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = ns.launch(p)
        yield b
        b.close()


class _WebKitSessions:
    """The run's WebKit session, started again when its web process crashed."""

    def __init__(self):
        self.session = None

    def current(self):
        if self.session is not None and not self.session.is_alive():
            try:
                self.session.close()
            except Exception:
                pass
            self.session = None
        if self.session is None:
            self.session = cs.TrustingWebKitSession()
        return self.session

    def close(self):
        if self.session is not None:
            self.session.close()


@pytest.fixture(scope="session")
def _webkit_sessions():
    engines.require("webkit")
    sessions = _WebKitSessions()
    yield sessions
    sessions.close()


def _engines() -> tuple:
    named = tuple(e for e in os.environ.get("CONSOLE_TEST_ENGINES", "").split(",") if e)
    unknown = set(named) - set(engines.ENGINES)
    if unknown:
        raise pytest.UsageError(f"CONSOLE_TEST_ENGINES names no engine {sorted(unknown)}; the engines are {engines.ENGINES}")
    return named or engines.ENGINES


@pytest.fixture(params=_engines())
def engine(request):
    """The engine the test runs in: each test that takes it runs once per engine."""
    engines.require(request.param)
    return request.param


@pytest.fixture
def console_page(request, engine, console):
    """console_page(width=1280, height=900) -> an engines.Page of `engine`, empty (no cookie),
    with the console's policy enforced (Chromium: no bypass; WebDriver scripts are not subject to it)."""
    if engine == "chromium":
        session = cs.StrictChromiumSession(request.getfixturevalue("browser"))
        request.addfinalizer(session.close)

        def make(width=1280, height=900):
            page = session.new_page(width, height)
            request.addfinalizer(lambda: cs.assert_clean(page))
            return page
        return make
    sessions = request.getfixturevalue("_webkit_sessions")

    def make_webkit(width=1280, height=900):
        page = sessions.current().new_page(width, height)
        request.addfinalizer(lambda: cs.assert_clean(page))
        return page
    return make_webkit


@pytest.fixture
def signed_in(console, console_page, engine):
    """signed_in(role, path="", width=1280, height=900) -> a page at /console/<path> signed in
    through the form as the operator of `role`, after the shell has shown the first page."""

    def make(role, path="", width=1280, height=900):
        page = console_page(width, height)
        cs.sign_in(page, console, console.operators[role], cs.PASSWORD)
        if path:
            page.goto(console.browser_url(engine) + "/console/" + path)
            cs.wait_page(page)
        return page
    return make
