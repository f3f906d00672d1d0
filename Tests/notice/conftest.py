"""Fixtures for the consent notice's browser tests: one headless Chromium per run, a fresh
browser context per page (which lets Playwright evaluate scripts despite the notice's
Content-Security-Policy), and documents built by ConsentKitUI's Swift builder, written by the
Benchmarks package's NoticeDocuments (see notice_support.build_document).

Tests of what only consentd does (the website's CMP, /demo, the storage proxy) are marked
`consentd`; the others cannot start it (notice_support.consentd refuses), so
`pytest Tests/notice -m "not consentd"` needs no server package build."""
import copy
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import engines  # noqa: E402
import notice_support as ns  # noqa: E402


def pytest_configure(config):
    config.addinivalue_line("markers", "consentd: the test needs the server package's consentd (CONSENTD_BIN or its debug build)")


@pytest.fixture(autouse=True)
def _consentd_only_when_marked(request):
    ns.consentd_allowed = request.node.get_closest_marker("consentd") is not None
    yield
    ns.consentd_allowed = True


@pytest.fixture(scope="session")
def browser():
    ns.require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = ns.launch(p)
        yield b
        b.close()


@pytest.fixture
def new_page(browser):
    """new_page(width, height, color_scheme, reduced_motion) -> a page in a fresh context; the page's
    JavaScript errors are collected in page.ck_errors and must stay empty."""
    contexts, pages = [], []

    def make(width=390, height=844, color_scheme="light", reduced_motion="no-preference"):
        ctx = browser.new_context(viewport={"width": width, "height": height}, color_scheme=color_scheme,
                                  reduced_motion=reduced_motion, bypass_csp=True)
        contexts.append(ctx)
        page = ctx.new_page()
        page.ck_errors = []
        page.on("pageerror", lambda e: page.ck_errors.append(str(e)))
        pages.append(page)
        return page

    yield make
    for page in pages:
        assert page.ck_errors == [], f"JavaScript errors on the page: {page.ck_errors}"
    for ctx in contexts:
        ctx.close()


@pytest.fixture(scope="session")
def _doc20():
    return ns.build_document()


@pytest.fixture(scope="session")
def _doc_all():
    return ns.build_document(vendor_count=None)


@pytest.fixture
def doc20(_doc20):
    """A 20-vendor publisher's document (English); a copy the test may change."""
    return copy.deepcopy(_doc20)


@pytest.fixture
def doc_all(_doc_all):
    """Every live vendor of GVL v3 #45 (813); a copy the test may change."""
    return copy.deepcopy(_doc_all)


PUBLISHER_ORIGIN = "http://publisher.test"
ADS_ORIGIN = "http://ads.test"


@pytest.fixture
def site(new_page):
    """site(pages, path="/", init_script=None) -> a page showing `path` of a site served without a
    server: `pages` maps a URL ("http://publisher.test/x.html", or "http://ads.test/..." for a
    cross-origin frame; a bare path means the publisher) to its HTML, and both origins also serve
    the CMP API scripts at notice_support.CMP_STUB_URL and CMP_API_URL. `init_script` runs at
    document start in every frame (as an app's injected script would, if it checks for the top)."""

    def open_site(pages, path="/", init_script=None):
        page = new_page()
        files = ns.cmp_files()
        bodies = {}
        for url, html in pages.items():
            bodies[url if url.startswith("http") else PUBLISHER_ORIGIN + url] = ("text/html", html)
        for origin in (PUBLISHER_ORIGIN, ADS_ORIGIN):
            for path_, source in files.items():
                bodies[origin + path_] = ("application/javascript", source)

        def handle(route):
            url = route.request.url.split("#")[0].split("?")[0]
            if url in bodies:
                content_type, body = bodies[url]
                route.fulfill(status=200, content_type=content_type, body=body)
            else:
                route.fulfill(status=404, content_type="text/plain", body="not found")

        for origin in (PUBLISHER_ORIGIN, ADS_ORIGIN):
            page.context.route(origin + "/**", handle)
        if init_script:
            page.add_init_script(init_script)
        page.goto(PUBLISHER_ORIGIN + path)
        return page

    return open_site


# ------------------------------------------------------------------------------------ both engines

class _WebKitSessions:
    """The run's WebKit session, started again when its web process crashed ("page crash or
    hang", WebKitGTK's own failure), so the tests after a crash get a working browser."""

    def __init__(self):
        self.session = None

    def current(self) -> engines.WebKitSession:
        if self.session is not None and not self.session.is_alive():
            try:
                self.session.close()
            except Exception:
                pass
            self.session = None
        if self.session is None:
            self.session = engines.WebKitSession()
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


@pytest.fixture(params=engines.ENGINES)
def engine(request):
    """The engine a cross-engine test (test_engines_*.py) runs in: each such test runs once per engine."""
    engines.require(request.param)
    return request.param


@pytest.fixture
def engine_page(request, engine):
    """engine_page(width, height) -> an engines.Page of `engine`, emptied (see engines.py)."""
    if engine == "chromium":
        session = engines.ChromiumSession(request.getfixturevalue("browser"))
        request.addfinalizer(session.close)
    else:
        session = request.getfixturevalue("_webkit_sessions").current()
    return session.new_page
