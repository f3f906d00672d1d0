#!/usr/bin/env python3
"""Shared helpers for consentd's end-to-end scripts (crash_test.py, schema_fuzz.py) and
Benchmarks/consentd_load.py: start and stop a real consentd, create keys with the `consent`
tool, post consent events over keep-alive connections, page a subject's history.

Standard library only. The binaries come from `--bin DIR`, else $CONSENTD_BIN, else
`swift build --package-path Server --show-bin-path` run from the repository root.

Run directly for a smoke test: start a server, append one event, read it back, verify the chain.

    python3 Server/Tests/e2e/common.py [--bin DIR] [--database URL]
"""
from __future__ import annotations

import argparse
import datetime as _dt
import http.client
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[3]
SERVER_PACKAGE = REPO_ROOT / "Server"
LISTENING_PREFIX = "consentd listening on "


class E2EError(Exception):
    """A check or a step of an end-to-end script failed."""


# --------------------------------------------------------------------------- binaries


def add_common_arguments(parser: argparse.ArgumentParser, release: bool = False) -> None:
    """--bin and --database, as every script takes them."""
    parser.add_argument(
        "--bin",
        metavar="DIR",
        help="directory holding consentd and consent (default: $CONSENTD_BIN, else "
        f"`swift build --package-path Server{' -c release' if release else ''} --show-bin-path`)",
    )
    parser.add_argument(
        "--database",
        metavar="URL",
        help="database URL (postgres://…, postgres+uds://…); default: sqlite:<temp dir>/db.sqlite",
    )


def status_kb(pid: int, field: str) -> int:
    """A `kB` field of /proc/PID/status (VmRSS, VmHWM)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise E2EError(f"/proc/{pid}/status has no {field}")


def resolve_bin_dir(explicit: str | None, release: bool = False) -> Path:
    """The directory with consentd and consent: --bin, $CONSENTD_BIN, or swift's bin path."""
    chosen = explicit or os.environ.get("CONSENTD_BIN")
    if not chosen:
        command = ["swift", "build", "--package-path", "Server"]
        if release:
            command += ["-c", "release"]
        command.append("--show-bin-path")
        try:
            chosen = subprocess.run(
                command, cwd=REPO_ROOT, check=True, capture_output=True, text=True, timeout=120
            ).stdout.strip().splitlines()[-1]
        except (OSError, subprocess.SubprocessError, IndexError) as error:
            # No swift here, or it waited on another build's lock: SwiftPM's usual place.
            fallback = SERVER_PACKAGE / ".build" / ("release" if release else "debug")
            if not fallback.is_dir():
                raise E2EError(f"cannot find the binaries (pass --bin DIR or set CONSENTD_BIN): {error}") from error
            chosen = str(fallback)
    directory = Path(chosen).resolve()
    for name in ("consentd", "consent"):
        if not os.access(directory / name, os.X_OK):
            raise E2EError(f"{directory / name} is missing or not executable; build it or pass --bin DIR")
    return directory


# --------------------------------------------------------------------------- the `consent` tool


def run_consent(bin_dir: Path, *args: str, check: bool = True, timeout: float = 120) -> subprocess.CompletedProcess:
    """Runs `consent ARGS…` and returns the finished process (text output)."""
    process = subprocess.run(
        [str(bin_dir / "consent"), *args], capture_output=True, text=True, timeout=timeout
    )
    if check and process.returncode != 0:
        raise E2EError(
            f"consent {' '.join(args)} exited {process.returncode}:\n{process.stdout}{process.stderr}"
        )
    return process


def create_key(bin_dir: Path, app: str, kind: str, database: str) -> str:
    """Creates a publishable or secret key for `app` and returns its text."""
    process = run_consent(bin_dir, "keys", "create", "--app", app, "--kind", kind, "--database", database)
    lines = [line for line in process.stdout.splitlines() if line.strip()]
    if len(lines) != 1:
        raise E2EError(f"consent keys create printed {process.stdout!r}, expected one line")
    return lines[0].strip()


def create_operator(bin_dir: Path, email: str, role: str, password: str, database: str) -> None:
    """Creates a console operator with `consent operators create` (the password on standard input)."""
    process = subprocess.run(
        [str(bin_dir / "consent"), "operators", "create", "--email", email, "--role", role, "--database", database],
        input=password + "\n", capture_output=True, text=True, timeout=120,
    )
    if process.returncode != 0:
        raise E2EError(f"consent operators create exited {process.returncode}:\n{process.stdout}{process.stderr}")


def console_sign_in(client: "Client", email: str, password: str) -> dict[str, str]:
    """Signs in to the console; returns the headers of a signed-in state-changing request
    (`Cookie` with the session, `X-CSRF-Token`)."""
    response = client.request("POST", "/v1/console/session", {"email": email, "password": password}, token="")
    if response.status != 200:
        raise E2EError(f"console sign-in of {email} answered {response!r}")
    cookie = response.headers.get("set-cookie", "").split(";", 1)[0]
    if not cookie.startswith("consentkit_console="):
        raise E2EError(f"console sign-in of {email} set no session cookie: {response.headers}")
    return {"Cookie": cookie, "X-CSRF-Token": response.json()["csrfToken"]}


def chain_verify(bin_dir: Path, app: str, database: str) -> tuple[bool, int | None, str]:
    """Runs `consent chain verify`; returns (holds, events counted, output)."""
    process = run_consent(bin_dir, "chain", "verify", "--app", app, "--database", database, check=False, timeout=600)
    output = (process.stdout + process.stderr).strip()
    count = None
    marker = "holds: "
    if marker in process.stdout:
        tail = process.stdout.split(marker, 1)[1].split()
        if tail and tail[0].isdigit():
            count = int(tail[0])
    return process.returncode == 0, count, output


# --------------------------------------------------------------------------- the server


class Consentd:
    """One consentd process in a working directory of its own.

    stdout is read for the "consentd listening on URL" line; stderr goes to `stderr.log` in the
    working directory (a pipe nobody reads would block the server once full).
    """

    def __init__(
        self,
        bin_dir: Path,
        workdir: Path,
        database: str | None = None,
        publishers: Path | None = None,
        rate_limits_off: bool = True,
        log_level: str | None = None,
        extra_args: list[str] | None = None,
    ) -> None:
        self.bin_dir = Path(bin_dir)
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.database = database or f"sqlite:{self.workdir / 'db.sqlite'}"
        self.secret_file = self.workdir / "secret"
        self.publishers = publishers
        self.rate_limits_off = rate_limits_off
        self.log_level = log_level
        self.extra_args = list(extra_args or [])
        self.process: subprocess.Popen | None = None
        self.url: str | None = None
        self.host: str | None = None
        self.port: int | None = None
        self.starts = 0
        self._stderr_file = None

    @property
    def stderr_path(self) -> Path:
        return self.workdir / f"stderr-{self.starts}.log"

    def command(self) -> list[str]:
        command = [
            str(self.bin_dir / "consentd"),
            "--port", "0",
            "--database", self.database,
            "--secret-file", str(self.secret_file),
            # Tests never reach the internet: the bundled vendor list only.
            "--vendor-list-updates", "false",
        ]
        if self.publishers:
            command += ["--publishers", str(self.publishers)]
        if self.rate_limits_off:
            # Load and durability tests: every rate limit and the anonymous subjects' daily quota
            # off (a sync test's one installation sends 1,000 events; a real user sends a few).
            command += ["--rate-limit-key", "0", "--rate-limit-ip", "0", "--rate-limit-public-key", "0",
                        "--rate-limit-subject-creation", "0", "--anonymous-quota", "0/0"]
        if self.log_level:
            command += ["--log-level", self.log_level]
        return command + self.extra_args

    def start(self, timeout: float = 60) -> str:
        """Starts the server and waits for its "listening on" line; returns the base URL."""
        if self.process and self.process.poll() is None:
            raise E2EError("consentd is already running")
        self.starts += 1
        self._stderr_file = open(self.stderr_path, "wb")
        environment = dict(os.environ)
        # The command line decides; a DATABASE_URL in the caller's environment must not.
        environment.pop("DATABASE_URL", None)
        self.process = subprocess.Popen(
            self.command(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=self._stderr_file,
            cwd=self.workdir,
            env=environment,
        )
        lines: queue.Queue = queue.Queue()

        def pump(stream) -> None:
            # Keeps draining stdout for the life of the process so it never blocks on a full pipe.
            for raw in iter(stream.readline, b""):
                lines.put(raw.decode("utf-8", "replace").rstrip("\n"))
            lines.put(None)

        threading.Thread(target=pump, args=(self.process.stdout,), daemon=True).start()
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.kill()
                raise E2EError(f"consentd printed no 'listening on' line within {timeout:.0f} s\n{self.stderr_tail()}")
            try:
                line = lines.get(timeout=min(remaining, 0.5))
            except queue.Empty:
                if self.process.poll() is not None and lines.empty():
                    break
                continue
            if line is None:
                break
            if line.startswith(LISTENING_PREFIX):
                self.url = line[len(LISTENING_PREFIX):].split()[0].rstrip("/")
                parsed = urllib.parse.urlsplit(self.url)
                self.host, self.port = parsed.hostname, parsed.port
                return self.url
        code = self.process.wait(timeout=10)
        raise E2EError(f"consentd exited with status {code} before listening\n{self.stderr_tail()}")

    def stderr_tail(self, limit: int = 4000) -> str:
        try:
            text = self.stderr_path.read_text(errors="replace")
        except OSError:
            return "(no stderr)"
        return "consentd stderr:\n" + (text[-limit:] if text else "(empty)")

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, as a crash or the OOM killer would."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=30)
        self._close_log()

    def stop(self, timeout: float = 15) -> int | None:
        """SIGTERM, then SIGKILL after `timeout` seconds; returns the exit status."""
        if not self.process:
            return None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=30)
        self._close_log()
        return self.process.returncode

    def _close_log(self) -> None:
        if self._stderr_file:
            self._stderr_file.close()
            self._stderr_file = None

    def __enter__(self) -> "Consentd":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


class TempDir:
    """A temporary directory removed on exit unless `keep` is set (then its path is printed)."""

    def __init__(self, prefix: str, keep: bool = False) -> None:
        self.path = Path(tempfile.mkdtemp(prefix=prefix))
        self.keep = keep

    def __enter__(self) -> Path:
        return self.path

    def __exit__(self, exc_type, *exc) -> None:
        # A run stopped from outside (SIGTERM through sys.exit, Ctrl-C) leaves nothing to look at.
        if self.keep or (exc_type is not None and not issubclass(exc_type, (SystemExit, KeyboardInterrupt))):
            print(f"kept working directory {self.path}", file=sys.stderr)
        else:
            shutil.rmtree(self.path, ignore_errors=True)


# --------------------------------------------------------------------------- HTTP


class Response:
    def __init__(self, status: int, headers: dict[str, str], body: bytes) -> None:
        self.status = status
        self.headers = headers
        self.body = body

    def json(self):
        return json.loads(self.body) if self.body else None

    def __repr__(self) -> str:
        return f"<{self.status} {self.body[:300]!r}>"


class Client:
    """One keep-alive HTTP/1.1 connection to consentd (http.client), reconnecting when dropped.

    Not thread-safe: give each thread its own client.
    """

    def __init__(self, host: str, port: int, token: str | None = None, timeout: float = 30) -> None:
        self.host = host
        self.port = port
        self.token = token
        self.timeout = timeout
        self.connection: http.client.HTTPConnection | None = None

    @classmethod
    def for_server(cls, server: Consentd, token: str | None = None, timeout: float = 30) -> "Client":
        assert server.host and server.port
        return cls(server.host, server.port, token, timeout)

    def close(self) -> None:
        if self.connection:
            self.connection.close()
            self.connection = None

    def request(
        self,
        method: str,
        path: str,
        body=None,
        token: str | None = None,
        headers: dict[str, str] | None = None,
        retry: bool = False,
    ) -> Response:
        """Sends one request; `body` (if not bytes) is sent as JSON. Raises OSError /
        http.client.HTTPException on a connection failure unless `retry` (then one reconnect)."""
        all_headers = {"Accept": "application/json"}
        credential = token if token is not None else self.token
        if credential:
            all_headers["Authorization"] = f"Bearer {credential}"
        payload = None
        if body is not None:
            payload = body if isinstance(body, bytes) else json.dumps(body, separators=(",", ":")).encode()
            all_headers["Content-Type"] = "application/json"
        all_headers.update(headers or {})
        attempts = 2 if retry else 1
        for attempt in range(attempts):
            if self.connection is None:
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            try:
                self.connection.request(method, path, body=payload, headers=all_headers)
                response = self.connection.getresponse()
                data = response.read()
                result = Response(response.status, {k.lower(): v for k, v in response.getheaders()}, data)
                if response.will_close:
                    self.close()
                return result
            except (OSError, http.client.HTTPException):
                self.close()
                if attempt + 1 == attempts:
                    raise
        raise AssertionError("unreachable")

    def post_event(self, event: dict, token: str | None = None) -> Response:
        return self.request("POST", "/v1/consents", event, token=token)


def utc_now_iso(offset_seconds: float = 0) -> str:
    """Now (plus an offset) as ISO 8601 UTC with milliseconds: 2026-11-23T10:15:30.250Z."""
    moment = _dt.datetime.now(_dt.timezone.utc) + _dt.timedelta(seconds=offset_seconds)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def parse_time_ms(text: str) -> int:
    """Milliseconds since the epoch of an ISO 8601 timestamp."""
    moment = _dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    return int(round(moment.timestamp() * 1000))


def make_event(subject_id: str | None, event_id: str | None = None, collected_at: str | None = None,
               purposes=(1, 2, 3), vendors=(755,)) -> dict:
    """A valid consent event body."""
    event = {
        "eventId": event_id or str(uuid.uuid4()),
        "collectedAt": collected_at or utc_now_iso(),
        "purposeConsents": list(purposes),
        "vendorConsents": list(vendors),
        "proof": {
            "noticeId": "main",
            "noticeVersion": "1",
            "language": "en",
            "sdkVersion": "1.0",
            "platform": "ios",
            "method": "acceptAll",
        },
    }
    if subject_id is not None:
        event["subjectId"] = subject_id
    return event


def quote(segment: str) -> str:
    return urllib.parse.quote(segment, safe="")


def list_events(client: Client, subject_id: str, limit: int = 500, token: str | None = None) -> list[dict]:
    """Every stored event of a subject, oldest first, following `nextCursor`. A subject with no
    events (404) is an empty list."""
    events: list[dict] = []
    cursor = None
    seen_cursors = set()
    while True:
        path = f"/v1/subjects/{quote(subject_id)}/events?limit={limit}"
        if cursor is not None:
            path += f"&cursor={quote(str(cursor))}"
        response = client.request("GET", path, token=token, retry=True)
        if response.status == 404 and cursor is None:
            return []
        if response.status != 200:
            raise E2EError(f"GET {path} answered {response.status}: {response.body[:500]!r}")
        page = response.json()
        events.extend(page["events"])
        cursor = page.get("nextCursor")
        if cursor is None:
            return events
        if cursor in seen_cursors:
            raise E2EError(f"GET {path}: nextCursor {cursor!r} repeats")
        seen_cursors.add(cursor)


def wait_for_health(client: Client, timeout: float = 30) -> dict:
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            last = client.request("GET", "/health", retry=True)
            if last.status == 200:
                return last.json()
        except (OSError, http.client.HTTPException) as error:
            last = error
        time.sleep(0.2)
    raise E2EError(f"/health did not answer 200 within {timeout} s: {last!r}")


def percentile(sorted_values: list[float], fraction: float) -> float:
    """Nearest-rank percentile of already sorted values (0 for none)."""
    if not sorted_values:
        return 0.0
    rank = max(0, min(len(sorted_values) - 1, int(round(fraction * len(sorted_values) + 0.5)) - 1))
    return sorted_values[rank]


def run_id() -> str:
    return uuid.uuid4().hex[:10]


# --------------------------------------------------------------------------- smoke test


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_common_arguments(parser)
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = parser.parse_args()
    try:
        bin_dir = resolve_bin_dir(args.bin)
        with TempDir("consentd-smoke-", args.keep) as workdir:
            server = Consentd(bin_dir, workdir, database=args.database)
            app = f"smoke-{run_id()}"
            secret = create_key(bin_dir, app, "secret", server.database)
            with server:
                print(f"consentd at {server.start()} (pid {server.pid})")
                client = Client.for_server(server)
                print("health:", wait_for_health(client))
                event = make_event(f"{app}-user-1")
                first = client.post_event(event, token=secret)
                again = client.post_event(event, token=secret)
                print("append:", first.status, "retry:", again.status)
                if (first.status, again.status) != (201, 200):
                    raise E2EError(f"expected 201 then 200, got {first!r} and {again!r}")
                state = client.request("GET", f"/v1/subjects/{quote(event['subjectId'])}", token=secret)
                if state.status != 200 or state.json()["eventId"] != event["eventId"]:
                    raise E2EError(f"subject state: {state!r}")
                events = list_events(client, event["subjectId"], token=secret)
                if [e["eventId"] for e in events] != [event["eventId"]]:
                    raise E2EError(f"history: {events!r}")
            holds, count, output = chain_verify(bin_dir, app, server.database)
            print("chain verify:", output)
            if not holds or count != 1:
                raise E2EError("chain verification failed")
        print("smoke test passed")
        return 0
    except E2EError as error:
        print(f"FAIL: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
