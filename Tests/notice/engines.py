"""One small driver over two browser engines, so that a test runs unchanged in both:

- "chromium": Debian's Chromium through Playwright (the browser of the other notice tests);
- "webkit": Debian's WebKitGTK through Selenium: `WebKitWebDriver` (package webkit2gtk-driver)
  drives the `MiniBrowser` that libwebkit2gtk-4.1-0 installs, started with `--automation`, on the
  X display of `xvfb-run` (scripts/test runs the WebKit half so). It is the engine of WKWebView.

    page = session.new_page(width, height)   # a page of one engine (see the `engine_page` fixture)
    page.goto(url)
    page.evaluate("(a, b) => a + b", 1, 2)   # a JavaScript function and its arguments (JSON);
                                             # a returned promise is awaited
    page.wait_for("() => document.querySelector('x')")   # until the function returns truthy
    page.press("Tab"); page.press("Shift+Tab"); page.press("Escape")
    page.click("css selector")               # a real click on the element's centre
    frame = page.frame("iframe[title=...]")  # the same API inside a frame
    page.screenshot("name")                  # NOTICE_ARTIFACTS/name-<engine>.png

`missing_reason(engine)` says why an engine cannot run here (None when it can); `require(engine)`
skips the test with that reason, or fails it in CI (CI=true), where both engines must run.
"""
from __future__ import annotations

import json
import os
import shutil
import time

import notice_support as ns

ENGINES = ("chromium", "webkit")
WEBKIT_DRIVER = os.environ.get("NOTICE_WEBKIT_DRIVER", "/usr/bin/WebKitWebDriver")
MINIBROWSER = os.environ.get("NOTICE_MINIBROWSER", "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser")


def missing_reason(engine: str) -> str | None:
    """Why `engine` cannot run here, or None."""
    if engine == "chromium":
        return ns.browser_missing_reason()
    try:
        import selenium.webdriver  # noqa: F401
    except ImportError:
        return "the Python package selenium is not installed (Tests/python/requirements.txt)"
    if not (os.path.exists(WEBKIT_DRIVER) or shutil.which(WEBKIT_DRIVER)):
        return f"WebKitWebDriver is not installed at {WEBKIT_DRIVER} (Debian package webkit2gtk-driver)"
    if not os.path.exists(MINIBROWSER):
        return f"WebKitGTK's MiniBrowser is not at {MINIBROWSER} (Debian package libwebkit2gtk-4.1-0)"
    if not os.environ.get("DISPLAY"):
        return "no X display for WebKitGTK: run the tests under xvfb-run (Debian package xvfb), as scripts/test does"
    return None


def require(engine: str) -> None:
    """Skips the calling test when `engine` cannot run here; in CI (CI=true) fails it."""
    import pytest

    reason = missing_reason(engine)
    if reason and os.environ.get("CI") == "true":
        pytest.fail(f"CI runs the notice's tests in {engine}: {reason}", pytrace=False)
    if reason:
        pytest.skip(f"{engine}: {reason}")


# Keys by the names Playwright uses, as Selenium's.
def _selenium_key(name: str) -> str:
    from selenium.webdriver.common.keys import Keys

    return {"Tab": Keys.TAB, "Escape": Keys.ESCAPE, "Enter": Keys.ENTER, "Space": Keys.SPACE, " ": Keys.SPACE,
            "ArrowDown": Keys.ARROW_DOWN, "ArrowUp": Keys.ARROW_UP, "Shift": Keys.SHIFT}.get(name, name)


class Page:
    """A page (or a frame in it) of one engine. Subclasses implement the primitives."""

    engine = ""

    def goto(self, url: str) -> None:
        raise NotImplementedError

    def evaluate(self, function: str, *args):
        raise NotImplementedError

    def press(self, key: str) -> None:
        raise NotImplementedError

    def click(self, selector: str) -> None:
        raise NotImplementedError

    def frame(self, selector: str) -> "Page":
        raise NotImplementedError

    def _screenshot(self, path: str) -> None:
        raise NotImplementedError

    def wait_for(self, function: str, *args, timeout: float = 15.0):
        """Calls `function(*args)` until it returns something truthy, which it returns."""
        import time

        deadline = time.monotonic() + timeout
        while True:
            value = self.evaluate(function, *args)
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.engine}: timed out after {timeout} s waiting for {function} {list(args)}")
            time.sleep(0.05)

    def screenshot(self, name: str):
        """Writes the page as NOTICE_ARTIFACTS/<name>-<engine>.png (to look at) and returns the path."""
        ns.ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ns.ARTIFACTS / f"{name}-{self.engine}.png"
        # A picture taken straight after a click caught a switch halfway through its transition.
        # Animations that never end (none today) are not waited for.
        self.wait_for("""() => document.getAnimations().every((a) => a.playState !== 'running'
            || (a.effect && a.effect.getComputedTiming().endTime === Infinity))""", timeout=5.0)
        self._screenshot(str(path))
        return path


class ChromiumPage(Page):
    engine = "chromium"

    def __init__(self, page, frame=None):
        self.page = page          # the Playwright page
        self.target = frame or page

    def goto(self, url):
        self.page.goto(url)

    def evaluate(self, function, *args):
        return self.target.evaluate(f"(args) => ({function})(...args)", list(args))

    def press(self, key):
        self.page.keyboard.press(key)

    def click(self, selector):
        self.target.locator(selector).first.click()

    def frame(self, selector):
        element = self.target.locator(selector).first.element_handle()
        return ChromiumPage(self.page, element.content_frame())

    def _screenshot(self, path):
        self.page.screenshot(path=path)


# Runs a function with its arguments in WebDriver's asynchronous form, so that a promise is awaited.
_WEBDRIVER_CALL = """
var done = arguments[arguments.length - 1];
var args = Array.prototype.slice.call(arguments, 0, arguments.length - 1);
Promise.resolve().then(function () { return (FUNCTION).apply(null, args); }).then(
  function (value) { done({ ok: value === undefined ? null : value }); },
  function (error) { done({ error: String(error && error.stack || error) }); });
"""


class WebKitPage(Page):
    engine = "webkit"

    def __init__(self, driver, frames=()):
        self.driver = driver
        self.frames = tuple(frames)  # CSS selectors of the frames, from the top

    def _enter(self):
        from selenium.webdriver.common.by import By

        self.driver.switch_to.default_content()
        for selector in self.frames:
            self.driver.switch_to.frame(self.driver.find_element(By.CSS_SELECTOR, selector))

    def goto(self, url):
        self.driver.switch_to.default_content()
        self.driver.get(url)

    def evaluate(self, function, *args):
        self._enter()
        answer = self.driver.execute_async_script(_WEBDRIVER_CALL.replace("FUNCTION", function), *json.loads(json.dumps(list(args))))
        if answer is None or "error" in answer:
            raise AssertionError(f"webkit: {function} threw {answer and answer['error']}")
        return answer["ok"]

    def press(self, key):
        from selenium.webdriver.common.action_chains import ActionChains

        self._enter()
        actions = ActionChains(self.driver)
        *modifiers, last = key.split("+") if key != "+" else ["+"]
        for modifier in modifiers:
            actions.key_down(_selenium_key(modifier))
        actions.send_keys(_selenium_key(last))
        for modifier in reversed(modifiers):
            actions.key_up(_selenium_key(modifier))
        actions.perform()

    def click(self, selector):
        from selenium.webdriver.common.by import By

        self._enter()
        self.driver.find_element(By.CSS_SELECTOR, selector).click()

    def frame(self, selector):
        return WebKitPage(self.driver, self.frames + (selector,))

    def _screenshot(self, path):
        self.driver.switch_to.default_content()
        self.driver.save_screenshot(path)


class WebKitSession:
    """One MiniBrowser under WebKitWebDriver for the whole test run (starting one takes seconds);
    each new page is the same window, emptied: about:blank, cookies of the last origin removed."""

    def __init__(self):
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service

        options = Options()
        options.binary_location = MINIBROWSER
        options.add_argument("--automation")
        self.driver = webdriver.WebKitGTK(options=options, service=Service(executable_path=WEBKIT_DRIVER))
        self.driver.set_script_timeout(30)

    def new_page(self, width=390, height=844) -> WebKitPage:
        driver = self.driver
        driver.switch_to.default_content()
        try:
            driver.delete_all_cookies()
        except Exception:  # about:blank has no cookies to delete
            pass
        driver.get("about:blank")
        self._size_viewport(width, height)
        return WebKitPage(driver)

    def _size_viewport(self, width, height):
        """Sizes the window so the page gets width x height. The window's size includes
        MiniBrowser's own frame, and WebKitGTK applies a new size asynchronously: the page may
        still report the last size for a moment, which once made the frame's width come out
        negative ("Invalid width value"). So: wait for the size the page reports to settle,
        take the frame from it, and try again until the page is the size asked for.

        MiniBrowser's window is never narrower than its toolbar (447 CSS pixels here): a page
        asked for narrower gets that minimum, which is still a phone's layout (below 600 px);
        the 320 and 390 px widths themselves are Chromium's to test."""
        driver = self.driver
        frame = (0, 0)
        inner = None
        for _ in range(4):
            outer = (width + frame[0], height + frame[1])
            driver.set_window_size(*outer)
            inner = self._settled_inner_size()
            if inner == (width, height):
                return
            if inner[1] == height and inner[0] > width and driver.get_window_size()["width"] > outer[0]:
                return  # the window's minimum width
            frame = (max(0, outer[0] - inner[0]), max(0, outer[1] - inner[1]))
        raise AssertionError(f"webkit: the page is {inner[0]}x{inner[1]}, not the {width}x{height} asked for")

    def _settled_inner_size(self):
        last = None
        for _ in range(20):
            inner = tuple(self.driver.execute_script("return [innerWidth, innerHeight]"))
            if inner == last:
                return inner
            last = inner
            time.sleep(0.05)
        return last

    def is_alive(self):
        """Whether the driver still answers (WebKitGTK's web process can crash: "page crash or hang")."""
        try:
            self.driver.execute_script("return 1")
            return True
        except Exception:
            return False

    def close(self):
        self.driver.quit()


class ChromiumSession:
    """Pages of the run's Playwright Chromium (conftest's `browser`), each in a fresh context."""

    def __init__(self, browser):
        self.browser = browser
        self.contexts = []

    def new_page(self, width=390, height=844) -> ChromiumPage:
        context = self.browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
        self.contexts.append(context)
        page = context.new_page()
        return ChromiumPage(page)

    def close(self):
        for context in self.contexts:
            context.close()
        self.contexts = []


# ------------------------------------------------------------------------------------ the notice

CAPTURE = """() => { window.__ckMessages = [];
  window.addEventListener('consentkit:message', function (e) { window.__ckMessages.push(e.detail); }); }"""


def open_notice(page: Page, doc: dict, base: str | None = None) -> Page:
    """Loads notice.html (the resource server's, or `base`), records the page's messages in
    window.__ckMessages and configures the notice with `doc`."""
    page.goto((base or ns.notice_base_url()) + "notice.html")
    page.evaluate(CAPTURE)
    page.evaluate("(d) => { window.ConsentKitNotice.configure(d); }", doc)
    return page


def last_message(page: Page):
    return page.evaluate("() => window.ConsentKitNotice.lastMessage")
