"""Support for the console's browser tests (Tests/console): a consentd with operators, keys and
seeded events, sign-in through the form, waiting for a page, axe, and the HTTP side of the routes."""
from __future__ import annotations

import csv
import io
import json
import os
import pathlib
import re
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid

import engines
import notice_support as ns

ROOT = ns.ROOT
ROLES = ("owner", "editor", "analyst", "support")
PASSWORD = "console test passphrase"
# The operator the lockout test locks (no other test signs in with it).
LOCKED_EMAIL = "locked@console.test"
APP = "com.example.console"
OTHER_APP = "com.example.other"
RANGE = {"from": "2026-11-01", "to": "2026-11-30"}


def consent_binary() -> str:
    """CONSENT_BIN, else the server package's debug build of `consent`."""
    return ns.built_binary("CONSENT_BIN", "Server", "consent")


def postgres_database() -> str | None:
    """A fresh database on the PostgreSQL server of CONSENTD_TEST_POSTGRES_URL, when
    CONSOLE_TEST_DATABASE=postgresql (scripts/test runs the phase so); None for SQLite."""
    if os.environ.get("CONSOLE_TEST_DATABASE", "sqlite") != "postgresql":
        return None
    url = os.environ.get("CONSENTD_TEST_POSTGRES_URL")
    if not url:
        raise RuntimeError("CONSOLE_TEST_DATABASE=postgresql needs CONSENTD_TEST_POSTGRES_URL (scripts/postgres start DIR prints it)")
    name = "console_" + uuid.uuid4().hex[:12]
    # scripts/postgres's form: postgres+uds://USER@localhost/DIR/.s.PGSQL.5432#DATABASE (a unix socket).
    parts = urllib.parse.urlsplit(url)
    if parts.scheme == "postgres+uds":
        socket_dir = os.path.dirname(parts.path)
        command = ["psql", "-h", socket_dir, "-U", parts.username or "postgres", "-d", parts.fragment or "postgres"]
        new_url = urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path, parts.query, name))
    else:
        command = ["psql", url]
        new_url = urllib.parse.urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))
    subprocess.run(command + ["-v", "ON_ERROR_STOP=1", "-q", "-c", f"CREATE DATABASE {name}"], check=True, capture_output=True)
    return new_url


class ConsoleServer:
    """consentd on a free loopback port with its own database, the first owner's one-time token
    (from its start log), an operator per role, a secret key for APP and OTHER_APP, and the events
    of SEED recorded through POST /v1/consents."""

    def __init__(self):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.folder = tempfile.mkdtemp(prefix="console-consentd-")
        self.url = f"http://127.0.0.1:{self.port}"
        self.database = postgres_database() or f"sqlite:{self.folder}/consentd.sqlite"
        self.engine = "postgresql" if self.database.startswith("postgres") else "sqlite"
        self.log_path = f"{self.folder}/log"
        self.process = subprocess.Popen(
            [ns.consentd_binary(), "--port", str(self.port), "--database", self.database,
             "--secret-file", f"{self.folder}/secret", "--vendor-list-updates", "false",
             "--country-header", "CF-IPCountry"],
            stdout=open(self.log_path, "w"), stderr=subprocess.STDOUT)
        self._wait_healthy()
        self.tls = TLSProxy(self.port, self.folder)
        self.first_owner_token, self.first_owner_url = self._first_owner_link()
        self.operators = {role: f"{role}@console.test" for role in ROLES}
        for role, email in self.operators.items():
            self.consent("operators", "create", "--email", email, "--role", role, stdin=PASSWORD + "\n")
        self.consent("operators", "create", "--email", LOCKED_EMAIL, "--role", "analyst", stdin=PASSWORD + "\n")
        self.secret = self.consent("keys", "create", "--app", APP, "--kind", "secret").strip()
        self.other_secret = self.consent("keys", "create", "--app", OTHER_APP, "--kind", "secret").strip()
        self.seed_statuses = seed(self)

    def _wait_healthy(self):
        for _ in range(600):
            try:
                urllib.request.urlopen(self.url + "/health", timeout=1).read()
                return
            except OSError:
                if self.process.poll() is not None:
                    break
                time.sleep(0.1)
        raise RuntimeError(f"consentd did not start: {self.log()[-3000:]}")

    def _first_owner_link(self):
        """The one-time token and console URL consentd logs at start when it has no operator."""
        for _ in range(100):
            match = re.search(r"(http://\S+/console/)#/token=([A-Za-z0-9_-]+)", self.log())
            if match:
                return match.group(2), match.group(1) + "#/token=" + match.group(2)
            time.sleep(0.05)
        raise RuntimeError(f"consentd logged no first-operator link: {self.log()[-3000:]}")

    def browser_url(self, engine: str) -> str:
        """Where `engine` opens the console: consentd itself for Chromium (which keeps `Secure`
        cookies on http://127.0.0.1), the TLS proxy for WebKit (which does not)."""
        return self.url if engine == "chromium" else self.tls.url

    def log(self) -> str:
        return pathlib.Path(self.log_path).read_text(encoding="utf-8", errors="replace")

    def consent(self, *arguments: str, stdin: str | None = None) -> str:
        """Runs the `consent` tool on this consentd's database; its standard output."""
        done = subprocess.run([consent_binary(), *arguments, "--database", self.database], input=stdin, text=True,
                              capture_output=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"consent {' '.join(arguments)} failed: {done.stderr}")
        return done.stdout

    def request(self, method: str, path: str, body=None, headers=None):
        """(status, headers, body bytes) of a request to consentd."""
        data = json.dumps(body).encode() if body is not None else None
        all_headers = {"Content-Type": "application/json"} if body is not None else {}
        all_headers.update(headers or {})
        request = urllib.request.Request(self.url + path, data=data, method=method, headers=all_headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.headers, error.read()

    def session(self, role: str):
        """A console session of `role` over HTTP: (cookie header, CSRF token)."""
        status, headers, body = self.request("POST", "/v1/console/session",
                                             {"email": self.operators[role], "password": PASSWORD})
        assert status == 200, body
        cookie = headers["Set-Cookie"].split(";")[0]
        return cookie, json.loads(body)["csrfToken"]

    def stop(self):
        self.tls.stop()
        self.process.terminate()
        self.process.wait(timeout=10)
        shutil.rmtree(self.folder, ignore_errors=True)


class TLSProxy:
    """HTTPS on a free loopback port in front of consentd, as production puts TLS in front of it
    (docs/operations.md): WebKitGTK keeps a `Secure` cookie only from an https:// page, even on
    loopback, so the WebKit pages reach the console through this. A self-signed certificate for
    127.0.0.1 (made with openssl); each request goes to consentd as it came (Host and Origin
    included), each answer comes back as it went (every Set-Cookie)."""

    def __init__(self, target_port: int, folder: str):
        import http.client
        import http.server
        import ssl
        import threading

        cert, key = f"{folder}/tls.crt", f"{folder}/tls.key"
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "2",
                        "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def forward(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                upstream = http.client.HTTPConnection("127.0.0.1", target_port, timeout=60)
                headers = {k: v for k, v in self.headers.items() if k.lower() not in ("connection", "keep-alive")}
                upstream.request(self.command, self.path, body=body, headers=headers)
                answer = upstream.getresponse()
                data = answer.read()
                self.send_response(answer.status, answer.reason)
                for name, value in answer.getheaders():
                    if name.lower() not in ("connection", "keep-alive", "transfer-encoding", "content-length"):
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(data)
                upstream.close()

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = forward

        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.url = f"https://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()


# ------------------------------------------------------------------------------------ events

# A California GPP string with every opt-out (sale, sharing, targeted advertising), and one
# with none (Tests/notice/test_engines_gppapi.py: OPTED_OUT, NOT_OPTED_OUT).
GPP_OPTED_OUT = "DBABBg~BVVqAAEABgA.QA"
GPP_NOT_OPTED_OUT = "DBABBg~BVoYYYAAEABgA.QA"

MONDAY, TUESDAY, NEXT_MONDAY = "2026-11-02", "2026-11-03", "2026-11-09"

ACCEPT_ALL = {"purposeConsents": [1, 2, 3], "purposeLegitimateInterests": [2], "specialFeatureOptins": [1],
              "vendorConsents": [1, 755], "vendorLegitimateInterests": [755], "googleAdsChoice": "personalized",
              "additionalConsent": "2~89~dv.1301"}
REJECT_ALL = {"purposeConsents": [], "purposeLegitimateInterests": [], "vendorConsents": [], "vendorLegitimateInterests": [],
              "googleAdsChoice": "nonPersonalized", "additionalConsent": "2~~dv.89"}
CUSTOM = {"purposeConsents": [1], "purposeLegitimateInterests": [2], "vendorConsents": [755], "googleAdsChoice": "nonPersonalized"}

# (country header, subject, day, consent fields, language, platform, notice version, method): the
# events of APP; OTHER_APP gets one accept-all only, so a page showing it shows other figures.
SEED = [
    ("DE", "s-accept-de", MONDAY, ACCEPT_ALL, "de", "ios", "3", "acceptAll"),
    ("FR", "s-accept-fr", MONDAY, ACCEPT_ALL, "fr", "web", "3", "acceptAll"),
    ("GB", "s-reject", MONDAY, REJECT_ALL, "en", "web", "3", "rejectAll"),
    ("DE", "s-custom", MONDAY, CUSTOM, "de", "android", "2", "custom"),
    ("US-CA", "s-optout", TUESDAY, {"gppString": GPP_OPTED_OUT}, "en", "web", "1", "rejectAll"),
    ("US-CA", "s-continue", TUESDAY, {"gppString": GPP_NOT_OPTED_OUT}, "en", "web", "1", "acceptAll"),
    ("DE", "s-withdrawn", NEXT_MONDAY, {}, "de", "ios", "3", "withdrawal"),
    # A notice closed without a choice (POST /v1/analytics/closed, decision 0044): no subject, no
    # consent, counted as the outcome closed only.
    ("GB", None, MONDAY, None, "en", "ios", "2", "dismissed"),
]


def event(subject, day, consent, language, platform, version, method):
    body = {"eventId": str(uuid.uuid4()), "subjectId": subject, "collectedAt": day + "T10:00:00.000Z",
            "proof": {"noticeId": "main", "noticeVersion": version, "language": language, "sdkVersion": "1.0.0",
                      "platform": platform, "method": method}}
    body.update(consent)
    return body


def seed(server: ConsoleServer) -> list[int]:
    """Records SEED for APP (the first event twice, as a retry: it counts once; the close through
    POST /v1/analytics/closed) and one event for OTHER_APP; the statuses."""
    statuses = []
    first = None
    for country, subject, day, consent, language, platform, version, method in SEED:
        if method == "dismissed":
            close = {"noticeVersion": version, "language": language, "platform": platform, "closedAt": day + "T11:00:00.000Z"}
            status, _, answer = server.request("POST", "/v1/analytics/closed", close,
                                               {"Authorization": "Bearer " + server.secret, "CF-IPCountry": country})
            assert status == 204, answer
            statuses.append(status)
            continue
        body = event(subject, day, consent, language, platform, version, method)
        first = first or body
        status, _, answer = server.request("POST", "/v1/consents", body,
                                           {"Authorization": "Bearer " + server.secret, "CF-IPCountry": country})
        assert status == 201, answer
        statuses.append(status)
    status, _, _ = server.request("POST", "/v1/consents", first, {"Authorization": "Bearer " + server.secret, "CF-IPCountry": "DE"})
    statuses.append(status)
    status, _, answer = server.request("POST", "/v1/consents", event("o-1", MONDAY, ACCEPT_ALL, "it", "ios", "1", "acceptAll"),
                                       {"Authorization": "Bearer " + server.other_secret, "CF-IPCountry": "IT"})
    assert status == 201, answer
    statuses.append(status)
    return statuses


def csv_rows(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text)))


# ------------------------------------------------------------------------------------ browser

class StrictChromiumSession(engines.ChromiumSession):
    """Chromium pages with the page's Content-Security-Policy in force (the notice's tests bypass
    it); each page records its script errors and the policy's refusals in `errors`."""

    def new_page(self, width=1280, height=900, color_scheme="light"):
        context = self.browser.new_context(viewport={"width": width, "height": height}, color_scheme=color_scheme)
        self.contexts.append(context)
        page = context.new_page()
        wrapper = engines.ChromiumPage(page)
        wrapper.errors = []
        page.on("pageerror", lambda e: wrapper.errors.append(f"pageerror: {e}"))
        page.on("console", lambda m: wrapper.errors.append(f"console: {m.text}")
                if m.type == "error" and ("Content Security Policy" in m.text or "Refused" in m.text) else None)
        return wrapper


def assert_clean(page):
    errors = getattr(page, "errors", [])
    assert errors == [], f"errors on the page: {errors}"


def wait_page(page, timeout=20.0):
    """Waits until the shell has finished a page (or the sign-in form): main not busy, an h1."""
    page.wait_for("""() => { const m = document.getElementById('main');
        return m && m.getAttribute('aria-busy') === 'false' && m.querySelector('h1')
          && !m.querySelector('.card-body p.muted:only-child'); }""", timeout=timeout)


def fill(page, selector, value):
    page.evaluate("""(s, v) => { const e = document.querySelector(s); e.value = v;
        e.dispatchEvent(new Event('input', { bubbles: true })); }""", selector, value)


def submit_sign_in(page, email, password, token=None):
    if token is not None:
        fill(page, "input[name=token]", token)
    fill(page, "input[name=email]", email or "")
    fill(page, "input[name=password]", password)
    page.click("form.sign-in button[type=submit]")


def open_console(page, console, path=""):
    page.goto(console.browser_url(page.engine) + "/console/" + path)
    wait_page(page)


def sign_in(page, console, email, password):
    """Opens the console, signs in through the form and waits for the first page."""
    open_console(page, console)
    submit_sign_in(page, email, password)
    page.wait_for("() => document.body.dataset.state === 'signed-in'")
    wait_page(page)


def text(page, selector):
    return page.evaluate("(s) => { const e = document.querySelector(s); return e ? e.textContent.replace(/\\s+/g, ' ').trim() : null; }",
                         selector)


def table_rows(page, section_title):
    """The body rows of the table in the card titled `section_title`, as lists of cell texts."""
    return page.evaluate("""(t) => {
        const card = [...document.querySelectorAll('section.card')].find((c) => c.querySelector('h2').textContent === t);
        if (!card) return null;
        return [...card.querySelectorAll('table tbody tr')].map((r) => [...r.cells].map((c) => c.textContent.trim()));
    }""", section_title)


def fetch_text(page, path):
    """GETs `path` from the page (its cookie): [status, text]."""
    return page.evaluate("(p) => fetch(p, { credentials: 'same-origin' }).then((r) => r.text().then((t) => [r.status, t]))", path)


AXE_SOURCE = None


def axe_violations(page):
    """axe-core's serious and critical violations on the page (WCAG 2.1 A/AA and best practice)."""
    global AXE_SOURCE
    if AXE_SOURCE is None:
        import importlib.util
        spec = importlib.util.find_spec("axe_playwright_python")
        assert spec is not None, "axe-playwright-python is not installed (Tests/python/requirements.txt)"
        AXE_SOURCE = (pathlib.Path(spec.origin).parent / "axe.min.js").read_text(encoding="utf-8")
    page.evaluate("() => { " + AXE_SOURCE + "\n; window.__ckAxe = axe; }")
    results = page.evaluate("""() => window.__ckAxe.run(document, { runOnly: { type: 'tag',
        values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } })
        .then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, target: v.nodes[0].target })))""")
    return [v for v in results if v["impact"] in ("serious", "critical")]


def screenshot(page, name):
    """Writes NOTICE_ARTIFACTS/console-<name>-<engine>.png, for a person to look at."""
    return page.screenshot("console-" + name)


class TrustingWebKitSession(engines.WebKitSession):
    """engines.WebKitSession whose MiniBrowser accepts the TLS proxy's self-signed certificate
    (WebDriver's `acceptInsecureCerts`)."""

    def __init__(self):
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service

        options = Options()
        options.binary_location = engines.MINIBROWSER
        options.add_argument("--automation")
        options.accept_insecure_certs = True
        self.driver = webdriver.WebKitGTK(options=options, service=Service(executable_path=engines.WEBKIT_DRIVER))
        self.driver.set_script_timeout(30)
