"""Fixtures for the consent notice's browser tests: one headless Chromium per run, a fresh
browser context per page (which lets Playwright evaluate scripts despite consentd's
Content-Security-Policy), and documents built by ConsentKitUI's Swift builder through consentd
(see notice_support.build_document)."""
import copy
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import notice_support as ns  # noqa: E402


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
