"""Support for the consent notice's browser tests (Tests/notice) and Benchmarks/bench_notice_web.py.

- `require_browser()` skips the calling test module (with the reason) when headless Chromium or
  the Playwright package is missing.
- `build_document(...)` has the Benchmarks package's NoticeDocuments (ConsentKitUI's Swift
  builder, NoticeDocument, on consentd's demo publisher) write a document: the SDK package alone,
  no server.
- `notice_base_url()` is the /notice/ of a static server of ConsentKitUI's resources on loopback,
  with consentd's Content-Security-Policy (or env NOTICE_BASE_URL).
- `consentd()` starts the server package's consentd once per run (on GVL v3 #45, or on GVL v2
  #224 with the official 2020 translations), for the tests of what only consentd does (the
  website's CMP, /demo, the storage disclosure proxy): only tests marked `consentd` may call it.
- `open_notice(page, doc)` loads notice.html, records the page's messages and calls configure().
- `cmp_files()` / `CMP_STUB_URL` / `CMP_API_URL`: the CMP API scripts (Resources/cmp) as the tests'
  fake sites serve them (conftest's `site` fixture).
"""
from __future__ import annotations

import datetime as _dt
import functools
import http.server
import json
import os
import pathlib
import shutil
import threading

ROOT = pathlib.Path(__file__).resolve().parents[2]
NOTICE_DIR = ROOT / "Sources" / "ConsentKitUI" / "Resources" / "notice"
CMP_DIR = ROOT / "Sources" / "ConsentKitUI" / "Resources" / "cmp"
GVL_PATH = ROOT / "Fixtures" / "gvl" / "gvl-v3_vendor-list-v45_2024-03-21.json"
TRANSLATIONS_DIR = ROOT / "Fixtures" / "gvl" / "translations-v2-2020"
CHROMIUM = os.environ.get("NOTICE_CHROMIUM", "/usr/bin/chromium")
# Every language the notice has UI texts for (31), from the texts folder.
LANGUAGES = sorted(p.stem for p in (NOTICE_DIR / "texts").glob("*.json"))
# The languages the costlier browser walks outside test_notice_languages.py run in (each walk
# about 2-3 s; test_notice_languages.py already walks every layer in all 31): the source,
# long compounds and long words (de, fi, hu), French spacing, other scripts (Greek, Cyrillic,
# Chinese without spaces), plural forms few/many (pl, ru) and right to left (ar).
SAMPLE_LANGUAGES = ["en", "de", "fr", "fi", "hu", "el", "pl", "ru", "zh", "ar"]
RTL_LANGUAGES = {"ar", "he", "fa", "ur"}
NO_LI_PURPOSES = {1, 3, 4, 5, 6}
# Where the tests' screenshots go, for a human to look at (never compared, never committed).
ARTIFACTS = pathlib.Path(os.environ.get("NOTICE_ARTIFACTS", "/tmp/notice-artifacts"))


# ------------------------------------------------------------------------------------ browser

def browser_missing_reason() -> str | None:
    """Why the browser tests cannot run here, or None."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the Python package playwright is not installed (Tests/python/requirements.txt)"
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        return f"headless Chromium is not installed at {CHROMIUM} (Debian package chromium)"
    return None


def require_browser() -> None:
    """Skips the calling test module when the browser tests cannot run; in CI (CI=true) fails it."""
    import pytest

    reason = browser_missing_reason()
    if reason and os.environ.get("CI") == "true":
        pytest.fail(f"CI runs the notice's browser tests: {reason}", pytrace=False)
    if reason:
        pytest.skip(reason, allow_module_level=True)


def launch(playwright):
    return playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])


# ------------------------------------------------------------------------------------ consentd

class Consentd:
    """A consentd of the server package's debug build on a free loopback port, with its own
    SQLite database: it serves the notice's files (/notice/) and builds documents with
    ConsentKitUI's Swift builder (/demo/document), as it does for the demo page."""

    def __init__(self, *arguments: str):
        import socket
        import subprocess
        import tempfile
        import urllib.request

        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.folder = tempfile.mkdtemp(prefix="notice-consentd-")
        self.url = f"http://127.0.0.1:{port}"
        self.process = subprocess.Popen(
            [consentd_binary(), "--port", str(port), "--database", f"sqlite:{self.folder}/consentd.sqlite",
             "--secret-file", f"{self.folder}/secret", "--allow-debug-region", "true",
             "--vendor-list-updates", "false", *arguments],
            stdout=open(f"{self.folder}/log", "w"), stderr=subprocess.STDOUT)
        for _ in range(300):
            try:
                urllib.request.urlopen(self.url + "/health", timeout=1).read()
                return
            except OSError:
                if self.process.poll() is not None:
                    break
                import time
                time.sleep(0.1)
        raise RuntimeError(f"consentd did not start: {open(self.folder + '/log').read()[-2000:]}")

    def post(self, path: str, body: dict) -> dict:
        import urllib.error
        import urllib.request

        request = urllib.request.Request(self.url + path, data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as error:
            raise AssertionError(f"consentd answered {error.code} to {path}: {error.read().decode()}") from None

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)
        shutil.rmtree(self.folder, ignore_errors=True)


def built_binary(variable: str, package: str, product: str) -> str:
    """The executable `variable` names, else `product` of the debug build of the package in
    `package` (scripts/test builds it before the tests that need it)."""
    import subprocess

    if os.environ.get(variable):
        return os.environ[variable]
    folder = subprocess.run(["swift", "build", "--package-path", str(ROOT / package), "--show-bin-path"],
                            capture_output=True, text=True, check=True).stdout.strip()
    binary = os.path.join(folder, product)
    if not os.path.exists(binary):
        raise RuntimeError(f"{binary} is missing: run `swift build --package-path {package} --product {product}` first (scripts/test does)")
    return binary


def consentd_binary() -> str:
    """CONSENTD_BIN, else the server package's debug build."""
    return built_binary("CONSENTD_BIN", "Server", "consentd")


DISCLOSURE = {"disclosures": [
    {"identifier": "_test_id", "type": "cookie", "maxAgeSeconds": 31536000, "cookieRefresh": False,
     "domains": ["*.example.com"], "purposes": [1]},
    {"identifier": "test_local", "type": "web", "maxAgeSeconds": None, "domains": ["example.com"], "purposes": [1]},
]}


class DisclosureServer:
    """A vendor's server on loopback: answers every `/ds/{id}.json` with DISCLOSURE and records
    each request's path and headers (`seen`)."""

    def __init__(self):
        import http.server

        seen = self.seen = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                seen.append((self.path, {k.lower(): v for k, v in self.headers.items()}))
                body = json.dumps(DISCLOSURE).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{server.server_address[1]}"


@functools.lru_cache(maxsize=1)
def disclosure_server() -> DisclosureServer:
    return DisclosureServer()


_servers: dict[str, Consentd] = {}


# Whether the running test may start consentd: conftest sets it from the test's `consentd` mark,
# so that the tests which need the server package say so, and the others cannot come to need it.
consentd_allowed = True


def consentd(vendor_list: str = "v3") -> Consentd:
    """The consentd serving GVL v3 #45 as bundled ("v3"); GVL v2 #224 with the official 2020
    translations, which cover it ("v2"); or GVL v3 #45 whose vendors' storage disclosures are on
    `disclosure_server()` ("v3-storage", for consentd's proxy). Each started once per test run.
    Only for tests marked `consentd`."""
    if not consentd_allowed:
        raise RuntimeError("this test is not marked consentd (pytest.mark.consentd), so it must not need the server package: "
                           "build documents with build_document() and load the notice from notice_base_url()")
    if vendor_list not in _servers:
        import atexit
        import tempfile

        if vendor_list == "v3":
            arguments = []
        elif vendor_list == "v2":
            arguments = ["--vendor-list-file", str(ROOT / "Fixtures" / "gvl" / "gvl-v2_vendor-list-v224_2023-11-16.json"),
                         "--translations", str(TRANSLATIONS_DIR)]
        else:
            local = json.loads(GVL_PATH.read_text(encoding="utf-8"))
            for vendor in local["vendors"].values():
                if vendor.get("deviceStorageDisclosureUrl"):
                    vendor["deviceStorageDisclosureUrl"] = f"{disclosure_server().url}/ds/{vendor['id']}.json"
            path = pathlib.Path(tempfile.mkdtemp(prefix="notice-gvl-")) / "vendor-list.json"
            path.write_text(json.dumps(local), encoding="utf-8")
            arguments = ["--vendor-list-file", str(path)]
        server = Consentd(*arguments)
        _servers[vendor_list] = server
        atexit.register(server.stop)
    return _servers[vendor_list]


# consentd's policy for the notice's files (NoticeRoutes' assetPolicy with frame-ancestors *).
NOTICE_POLICY = ("default-src 'self'; img-src 'self' data: https:; connect-src 'self' https:; font-src 'none'; "
                 "object-src 'none'; frame-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors *")


class TwoOrigins:
    """Two HTTP servers on loopback, two origins for the tests of frames: `publisher` (the page)
    and `ads` (a frame of a third origin beside consentd's). Both answer GET with
    `respond(path)`: (text, content type), or None for a 404; nothing is cached."""

    def __init__(self, respond):
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                found = respond(self.path.split("?")[0])
                text, kind = found if found is not None else ("not found", "text/plain")
                data = text.encode()
                self.send_response(200 if found is not None else 404)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.servers = [http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler) for _ in range(2)]
        for server in self.servers:
            threading.Thread(target=server.serve_forever, daemon=True).start()
        self.publisher, self.ads = (f"http://127.0.0.1:{s.server_address[1]}" for s in self.servers)

    def stop(self):
        for server in self.servers:
            server.shutdown()
            server.server_close()


class ResourceServer:
    """ConsentKitUI's resources (Sources/ConsentKitUI/Resources) over HTTP on loopback, the
    notice's files at /notice/ as consentd serves them (same files, same Content-Security-Policy),
    and a test's own pages (`pages`: path -> HTML, e.g. a framing page; Chromium lets only pages
    from a loopback server frame loopback ones); anything else is 404."""

    def __init__(self):
        folder = str(ROOT / "Sources" / "ConsentKitUI" / "Resources")
        pages = self.pages = {}

        class Handler(http.server.SimpleHTTPRequestHandler):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, directory=folder, **kwargs)

            def do_GET(self):
                if self.path in pages:
                    body = pages[self.path].encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "text/html; charset=utf-8")
                    self.send_header("Content-Length", str(len(body)))
                    super().end_headers()
                    self.wfile.write(body)
                    return
                super().do_GET()

            def end_headers(self):
                self.send_header("Content-Security-Policy", NOTICE_POLICY)
                self.send_header("Cache-Control", "no-store")
                super().end_headers()

            def list_directory(self, path):
                self.send_error(404)

            def log_message(self, *args):
                pass

        Handler.extensions_map = {**Handler.extensions_map, ".js": "text/javascript", ".css": "text/css"}
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{server.server_address[1]}"


@functools.lru_cache(maxsize=1)
def resource_server() -> ResourceServer:
    return ResourceServer()


def notice_base_url() -> str:
    """The URL of the folder holding notice.html (ends with '/'): the resource server's /notice/,
    or NOTICE_BASE_URL."""
    base = os.environ.get("NOTICE_BASE_URL") or resource_server().url + "/notice/"
    return base if base.endswith("/") else base + "/"


def notice_origin() -> str:
    from urllib.parse import urlsplit

    parts = urlsplit(notice_base_url())
    return f"{parts.scheme}://{parts.netloc}"


# ------------------------------------------------------------------------------------ documents

class NoticeDocuments:
    """The Benchmarks package's NoticeDocuments on one vendor list, running for the whole test run:
    one line of options in, one document out."""

    def __init__(self, *arguments: str):
        import subprocess

        self.lock = threading.Lock()
        self.process = subprocess.Popen([notice_documents_binary(), *arguments], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, encoding="utf-8")

    def write(self, options: dict) -> dict:
        with self.lock:
            self.process.stdin.write(json.dumps(options) + "\n")
            self.process.stdin.flush()
            line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"NoticeDocuments ended (status {self.process.poll()}) before answering {options}")
        answer = json.loads(line)
        if "error" in answer and "protocol" not in answer:
            raise AssertionError(f"NoticeDocuments refused {options}: {answer['error']}")
        return answer

    def stop(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=10)


def notice_documents_binary() -> str:
    """NOTICE_DOCUMENTS_BIN, else the Benchmarks package's debug build."""
    return built_binary("NOTICE_DOCUMENTS_BIN", "Benchmarks", "NoticeDocuments")


_writers: dict[str, NoticeDocuments] = {}


def document_writer(vendor_list: str = "v3") -> NoticeDocuments:
    """The NoticeDocuments writing documents on GVL v3 #45 ("v3") or on GVL v2 #224 with the
    official 2020 translations ("v2"), as the consentd of the same name would."""
    if vendor_list not in _writers:
        import atexit

        if vendor_list == "v3":
            arguments = ["--vendor-list", str(GVL_PATH)]
        elif vendor_list == "v2":
            arguments = ["--vendor-list", str(ROOT / "Fixtures" / "gvl" / "gvl-v2_vendor-list-v224_2023-11-16.json"),
                         "--translations", str(TRANSLATIONS_DIR)]
        else:
            raise ValueError(f"no vendor list {vendor_list!r} for documents")
        writer = NoticeDocuments(*arguments)
        _writers[vendor_list] = writer
        atexit.register(writer.stop)
    return _writers[vendor_list]


@functools.lru_cache(maxsize=1)
def gvl() -> dict:
    return json.loads(GVL_PATH.read_text(encoding="utf-8"))


def is_deleted(vendor: dict, now: _dt.datetime | None = None) -> bool:
    """A vendor is deleted when its deletedDate is in the past."""
    deleted = vendor.get("deletedDate")
    if not deleted:
        return False
    when = _dt.datetime.fromisoformat(deleted.replace("Z", "+00:00"))
    return when <= (now or _dt.datetime.now(_dt.timezone.utc))


def live_vendors() -> list[dict]:
    return sorted((v for v in gvl()["vendors"].values() if not is_deleted(v)), key=lambda v: v["id"])


def deleted_vendor_ids() -> set[int]:
    return {v["id"] for v in gvl()["vendors"].values() if is_deleted(v)}


def texts(language: str) -> dict:
    return json.loads((NOTICE_DIR / "texts" / f"{language}.json").read_text(encoding="utf-8"))


def translation(language: str) -> dict | None:
    """The official 2020 translation of the GVL v2 texts, as in Fixtures."""
    path = TRANSLATIONS_DIR / f"purposes-{language}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def build_document(language: str = "en", vendor_count: int | None = 20, mode: str = "tcf",
                   vendor_list: str | None = None, reopen: bool = False, tc_string: str | None = None,
                   **overrides) -> dict:
    """A document built by ConsentKitUI's Swift builder (NoticeDocument), written by the
    Benchmarks package's NoticeDocuments with the options consentd's /demo takes: the demo publisher ("Example News", notice version 3, three Google ad-tech
    providers) with 20 vendors (Google among them) or all 813 of GVL v3 #45 (`vendor_count`
    None), in `language` where the list's official translation covers it (`vendor_list` "v2": GVL
    v2 #224, which the 2020 translations cover), else in English with `languageFallback`.
    `overrides` replace top-level fields afterwards (`adFree={"offered": True}` is asked of the
    builder, and so are `personalized=False`, `nonPersonalized=False` and `refusal=False`, NoticeSettings'
    offersPersonalized, offersNonPersonalized and offersRefusal, and `appIcon`). By default a document in a language other than English (TCF
    or Google: both show the list's purposes) comes from the v2 consentd, so that the official
    translation covers its list.

    Storage disclosure URLs point at consentd's proxy, relative to its origin (the page's); the
    "v3-storage" list gives the documents of "v3" (only consentd's proxy differs)."""
    if vendor_list is None:
        vendor_list = "v2" if language != "en" else "v3"
    options = {"mode": mode, "language": language, "vendors": "all" if vendor_count is None else "20", "reopen": reopen}
    if "adFree" in overrides:
        options["adFree"] = bool(overrides["adFree"].get("offered"))
    for option in ("personalized", "nonPersonalized", "refusal"):
        if option in overrides:
            options[option] = bool(overrides.pop(option))
    if "appIcon" in overrides:
        options["appIcon"] = overrides.pop("appIcon")
    if tc_string:
        options["tcString"] = tc_string
    doc = document_writer("v3" if vendor_list == "v3-storage" else vendor_list).write(options)
    doc.update(overrides)
    return doc


def document_for(language: str, **options) -> dict:
    """The document (TCF unless `mode="google"`) a test shows in `language`. No official GVL
    translation exists in a right-to-left language, so the real Arabic document is English,
    saying so (tested in test_notice_demo.py); to test the page's right-to-left layout, Arabic
    here is that English document given the Arabic UI texts and direction."""
    if language != "ar":
        return build_document(language=language, **options)
    doc = build_document(language="en", **options)
    doc.update(language="ar", direction="rtl", texts=texts("ar"), languageFallback=None)
    return doc


# ------------------------------------------------------------------------------------ page

CAPTURE_SCRIPT = """
window.__ckMessages = [];
window.addEventListener('consentkit:message', function (e) { window.__ckMessages.push(e.detail); });
"""


def load_page(page, base: str | None = None) -> None:
    """Loads notice.html from `base` (a consentd's /notice/; the default one's when None)."""
    page.add_init_script(CAPTURE_SCRIPT)
    page.goto((base or notice_base_url()) + "notice.html")


def configure(page, doc, as_string: bool = False):
    payload = json.dumps(doc) if as_string else doc
    return page.evaluate("(d) => window.ConsentKitNotice.configure(d)", payload)


def open_notice(page, doc, as_string: bool = False, base: str | None = None):
    load_page(page, base)
    configure(page, doc, as_string)
    return page


def screenshot(page, name: str) -> pathlib.Path:
    """Writes the page as ARTIFACTS/name.png (for a human to look at) and returns the path.
    Transitions are finished first (a disclosure's chevron turns in 0.15 s), so the picture shows
    where the page comes to rest, not a frame of its motion."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), animations="disabled")
    return path


def messages(page) -> list:
    return page.evaluate("window.__ckMessages")


def last_message(page):
    return page.evaluate("window.ConsentKitNotice.lastMessage")


# ------------------------------------------------------------------------------------ CMP API scripts

# Where the pages of the CMP API tests (test_tcfapi.py) load the stub and the full API from: a
# path on the page's own origin, which conftest's `site` fixture answers from cmp_files().
CMP_STUB_URL = "/cmp/tcfapi-stub.js"
CMP_API_URL = "/cmp/tcfapi.js"


def cmp_files() -> dict[str, str]:
    """Path -> source of the CMP API scripts, read from Sources/ConsentKitUI/Resources/cmp, each
    delivered as consentd's stub.js and cmp.js and an app's web view script deliver it: after
    cmp-frames.js, the mechanism the CMP APIs share."""
    def read(name):
        return (CMP_DIR / name).read_text(encoding="utf-8")
    return {CMP_STUB_URL: read("cmp-frames.js") + "\n" + read("tcfapi-stub.js"),
            CMP_API_URL: read("cmp-frames.js") + "\n" + read("tcfapi.js")}


# The contract of the IAB's own stub (@iabtcf/stub), which many publishers install instead of a
# CMP's, written here from its documented behaviour (not its code), as a page's inline script:
# __tcfapi() returns the queue; 'ping' is answered with the stub's shape; 'setGdprApplies'
# (version 2, a boolean) is kept; everything else is queued as its arguments; a hidden
# __tcfapiLocator frame; and ONE 'message' listener that answers a frame's {__tcfapiCall} by
# calling whatever window.__tcfapi is then (the CMP's once it has loaded), posting each answer back
# in the form the call came in.
IAB_STUB_CONTRACT = """<script>
(function () {
  var queue = [], gdprApplies;
  window.__tcfapi = function () {
    var args = arguments;
    if (!args.length) return queue;
    if (args[0] === 'setGdprApplies') {
      if (args.length > 3 && args[1] === 2 && typeof args[3] === 'boolean') { gdprApplies = args[3]; if (typeof args[2] === 'function') args[2]('set', true); }
    } else if (args[0] === 'ping') {
      if (typeof args[2] === 'function') args[2]({ gdprApplies: gdprApplies, cmpLoaded: false, cmpStatus: 'stub' });
    } else {
      queue.push(args);
    }
  };
  window.addEventListener('message', function (event) {
    var asString = typeof event.data === 'string', json = {};
    try { json = asString ? JSON.parse(event.data) : event.data; } catch (e) { return; }
    var payload = json && json.__tcfapiCall;
    if (!payload) return;
    window.__tcfapi(payload.command, payload.version, function (returnValue, success) {
      var reply = { __tcfapiReturn: { returnValue: returnValue, success: success, callId: payload.callId } };
      event.source.postMessage(asString ? JSON.stringify(reply) : reply, '*');
    }, payload.parameter);
  }, false);
  (function addLocator() {
    if (window.frames.__tcfapiLocator) return;
    if (!document.body) { setTimeout(addLocator, 5); return; }
    var frame = document.createElement('iframe');
    frame.style.cssText = 'display:none';
    frame.name = '__tcfapiLocator';
    document.body.appendChild(frame);
  })();
})();
</script>"""
