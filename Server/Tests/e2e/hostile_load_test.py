#!/usr/bin/env python3
"""consentd under hostile load from several local addresses at once, with every limit at its
default (issue 24): while it lasts, an honest client's requests must all succeed within the
stated latency, and consentd's resident memory must stay within the stated bound.

The hostile clients, each on loopback addresses of its own (127.0.0.0/8 is all this machine's):
- floods of `POST /v1/web/session` with a website's page key and the worst TC string of the
  security review (`hostile_tc.tc()`: every vendor range, 64 restriction purposes, 637 characters),
  from several addresses, two keep-alive connections each;
- idle connections on every port consentd opens (the main port and the demo's ad-frame port),
  more than one address may hold and more than the ports' caps;
- slow readers: connections with a 4 KB receive buffer that pipeline vendor-list requests and
  never read (consentd runs with `--write-timeout 5` here, so they are seen closed in the test's
  time, and with `--allow-debug-region true`, so the flood's `debugRegion: eea` makes every
  session build the worst string's TCData; every other limit is at its default).

- the console (decision 0042): a brute-force flood of `POST /v1/console/session` with a new
  unknown e-mail and a wrong password each time (each costs a password check: the most a sign-in
  can cost), and a signed-in support operator flooding `GET /v1/console/subjects` and
  `POST /v1/console/chain/verify` (with its CSRF token), each from addresses of their own.

The honest client (127.0.0.1, the same page key as the flood) opens a new connection for each
request, as a new visitor would: `GET /health`, `GET /v1/config`, `POST /v1/web/session` (no
string yet), the demo port's `GET /demo/frame.html`, and, signed in as an owner, the console's
`GET /v1/console/me` and `GET /v1/console/subjects` (a subject's lookup), ten times a second.

    python3 Server/Tests/e2e/hostile_load_test.py [--bin DIR] [--seconds 20] [--string worst|small]
        [--p99-ms 1000] [--rss-bound-mb 400]

`--string small` floods with a short valid string instead of the worst one (for a build whose
TCData is not yet bounded to the vendor list, where the worst string takes seconds of CPU each).
Linux only (it reads /proc/PID/status). Loopback only; at most about 60 s.
"""
from __future__ import annotations

import argparse
import json
import socket
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402
from hostile_tc import small_tc, tc  # noqa: E402

PUBLISHERS = common.REPO_ROOT / "Server" / "config" / "publishers.example.yaml"
WEBSITE_APP = "com.example.news.web"
APP = "com.example.news"
FLOOD_ADDRESSES = [f"127.0.10.{i}" for i in range(1, 5)]
IDLE_ADDRESSES = [f"127.0.20.{i}" for i in range(1, 21)]
SLOW_ADDRESSES = [f"127.0.30.{i}" for i in range(1, 5)]
HONEST_ADDRESS = "127.0.0.1"
# The console's hostile clients: sign-in brute force, and a signed-in operator's flood.
BRUTE_ADDRESSES = [f"127.0.40.{i}" for i in range(1, 3)]
SIGNED_IN_ADDRESSES = [f"127.0.41.{i}" for i in range(1, 3)]
CONSOLE_PASSWORD = "hostile load passphrase"
SUBJECT = "hostile-load-subject"


# --------------------------------------------------------------------------- raw HTTP


def connect(port: int, source: str, receive_buffer: int | None = None, timeout: float = 10) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if receive_buffer:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.bind((source, 0))
    sock.settimeout(timeout)
    sock.connect(("127.0.0.1", port))
    return sock


def request_bytes(method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"]
    for name, value in (headers or {}).items():
        lines.append(f"{name}: {value}")
    if body is not None:
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + (body or b"")


def read_response(sock: socket.socket) -> tuple[int, bytes]:
    """One response with a Content-Length body; raises on a closed connection or a timeout."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed before a response")
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(rest) < length:
        chunk = sock.recv(max(65536, length - len(rest)))
        if not chunk:
            raise ConnectionError("closed mid-body")
        rest += chunk
    return status, rest[:length]


def demo_frame_port(port: int) -> int:
    sock = connect(port, HONEST_ADDRESS)
    try:
        sock.sendall(request_bytes("GET", "/demo"))
        status, body = read_response(sock)
    finally:
        sock.close()
    page = body.decode()
    end = page.index("/demo/frame.html")
    start = page.rindex("http://", 0, end)
    return int(page[start:end].rsplit(":", 1)[1])


# --------------------------------------------------------------------------- the clients


class Tally:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.counts: dict[str, int] = {}

    def add(self, key: str) -> None:
        with self.lock:
            self.counts[key] = self.counts.get(key, 0) + 1


def flood(port: int, source: str, body: bytes, stop: threading.Event, tally: Tally) -> None:
    sock = None
    while not stop.is_set():
        try:
            if sock is None:
                sock = connect(port, source, timeout=30)
            sock.sendall(request_bytes("POST", "/v1/web/session", body, {"Content-Type": "text/plain"}))
            status, _ = read_response(sock)
            tally.add(str(status))
        except (OSError, ConnectionError, ValueError):
            tally.add("closed")
            if sock:
                sock.close()
            sock = None
            time.sleep(0.05)
    if sock:
        sock.close()


def brute_force(port: int, source: str, stop: threading.Event, tally: Tally) -> None:
    """Sign-ins with a new unknown e-mail and a wrong password each, on one keep-alive connection."""
    sock, count = None, 0
    while not stop.is_set():
        count += 1
        body = json.dumps({"email": f"guess-{source}-{count}@example.com", "password": "wrong password guess"}).encode()
        try:
            if sock is None:
                sock = connect(port, source, timeout=30)
            sock.sendall(request_bytes("POST", "/v1/console/session", body, {"Content-Type": "application/json"}))
            status, _ = read_response(sock)
            tally.add(f"sign-in {status}")
        except (OSError, ConnectionError, ValueError):
            tally.add("sign-in closed")
            if sock:
                sock.close()
            sock = None
            time.sleep(0.05)
    if sock:
        sock.close()


def signed_in_flood(port: int, source: str, session: dict[str, str], stop: threading.Event, tally: Tally) -> None:
    """A signed-in operator's lookups and chain verifications, back to back on one connection."""
    requests = [
        request_bytes("GET", f"/v1/console/subjects?appId={APP}&subjectId={SUBJECT}", headers={"Cookie": session["Cookie"]}),
        request_bytes("POST", f"/v1/console/chain/verify?appId={APP}", headers={**session, "Content-Length": "0"}),
    ]
    sock, index = None, 0
    while not stop.is_set():
        raw = requests[index % len(requests)]
        index += 1
        try:
            if sock is None:
                sock = connect(port, source, timeout=30)
            sock.sendall(raw)
            status, _ = read_response(sock)
            tally.add(f"console {status}")
        except (OSError, ConnectionError, ValueError):
            tally.add("console closed")
            if sock:
                sock.close()
            sock = None
            time.sleep(0.05)
    if sock:
        sock.close()


def honest(main_port: int, frame_port: int, app_key: str, site_key: str, stop: threading.Event,
           latencies: list, failures: list, slowest: dict, console: dict[str, str]) -> None:
    session = json.dumps({"credential": site_key}).encode()
    requests = [
        (main_port, request_bytes("GET", "/health")),
        (main_port, request_bytes("GET", "/v1/config?publisherIds=pub-0000000000000001", headers={"Authorization": f"Bearer {app_key}"})),
        (main_port, request_bytes("POST", "/v1/web/session", session, {"Content-Type": "text/plain"})),
        (frame_port, request_bytes("GET", "/demo/frame.html")),
        (main_port, request_bytes("GET", "/v1/console/me", headers={"Cookie": console["Cookie"]})),
        (main_port, request_bytes("GET", f"/v1/console/subjects?appId={APP}&subjectId={SUBJECT}", headers={"Cookie": console["Cookie"]})),
    ]
    index = 0
    while not stop.is_set():
        port, raw = requests[index % len(requests)]
        index += 1
        started = time.monotonic()
        try:
            sock = connect(port, HONEST_ADDRESS, timeout=10)
            try:
                sock.sendall(raw)
                status, _ = read_response(sock)
            finally:
                sock.close()
            if status != 200:
                failures.append(f"{raw.split(b' ', 2)[1].decode()}: {status}")
        except (OSError, ConnectionError, ValueError) as error:
            failures.append(f"{raw.split(b' ', 2)[1].decode()}: {error!r}")
        latencies.append(time.monotonic() - started)
        slowest[raw.split(b' ', 2)[1].decode()] = max(slowest.get(raw.split(b' ', 2)[1].decode(), 0), latencies[-1])
        time.sleep(max(0.0, 0.1 - (time.monotonic() - started)))


def hold_idle(ports: list[int], per_address: int) -> tuple[list[socket.socket], int]:
    """Opens idle connections from every idle address to every port; returns them and the
    count the kernel refused (none expected: consentd accepts, then closes what is over a cap)."""
    held, refused = [], 0
    for source in IDLE_ADDRESSES:
        for port in ports:
            for _ in range(per_address):
                try:
                    held.append(connect(port, source, timeout=5))
                except OSError:
                    refused += 1
    return held, refused


def slow_readers(main_port: int, frame_port: int) -> list[socket.socket]:
    """Connections that pipeline 16 requests of the vendor list (918 KB each, uncompressed) and
    read nothing."""
    held = []
    for source in SLOW_ADDRESSES:
        sock = connect(main_port, source, receive_buffer=4096)
        sock.sendall(request_bytes("GET", "/v1/vendor-list.json", headers={"Accept-Encoding": "identity"}) * 16)
        held.append(sock)
    return held


def closed_by_server(sock: socket.socket, silence: float = 2) -> bool:
    """Reads what the server sent until it closes (True) or is silent for `silence` s (False)."""
    sock.settimeout(silence)
    try:
        while sock.recv(1 << 20):
            pass
        return True
    except socket.timeout:
        return False
    except OSError:
        return True


def descriptors(pid: int) -> int:
    return len(list(Path(f"/proc/{pid}/fd").iterdir()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    common.add_common_arguments(parser)
    parser.add_argument("--seconds", type=float, default=20, help="how long the load lasts (default 20)")
    parser.add_argument("--string", choices=["worst", "small"], default="worst", help="the flood's TC string (default worst)")
    parser.add_argument("--p99-ms", type=float, default=1000, help="the honest client's allowed p99 latency (default 1000 ms)")
    parser.add_argument("--rss-bound-mb", type=float, default=400, help="consentd's allowed peak RSS (default 400 MB)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = parser.parse_args()
    started = time.monotonic()
    try:
        bin_dir = common.resolve_bin_dir(args.bin)
        tc_string = tc() if args.string == "worst" else small_tc()
        with common.TempDir("consentd-hostile-", args.keep) as workdir:
            server = common.Consentd(bin_dir, workdir, database=args.database, publishers=PUBLISHERS, rate_limits_off=False,
                                     # --allow-debug-region: the flood's debugRegion eea is honoured, so every
                                     # session builds the worst string's TCData (the worst case for H1).
                                     extra_args=["--write-timeout", "5", "--allow-debug-region", "true"])
            site_key = common.create_key(bin_dir, WEBSITE_APP, "publishable", server.database)
            app_key = common.create_key(bin_dir, APP, "publishable", server.database)
            secret_key = common.create_key(bin_dir, APP, "secret", server.database)
            common.create_operator(bin_dir, "honest-owner@example.com", "owner", CONSOLE_PASSWORD, server.database)
            common.create_operator(bin_dir, "flooding-support@example.com", "support", CONSOLE_PASSWORD, server.database)
            with server:
                server.start()
                client = common.Client.for_server(server)
                common.wait_for_health(client)
                seeded = client.post_event(common.make_event(SUBJECT), token=secret_key)
                if seeded.status != 201:
                    raise common.E2EError(f"seeding the console's subject answered {seeded!r}")
                honest_console = common.console_sign_in(client, "honest-owner@example.com", CONSOLE_PASSWORD)
                flooding_console = common.console_sign_in(client, "flooding-support@example.com", CONSOLE_PASSWORD)
                client.close()
                main_port = server.port
                frame_port = demo_frame_port(main_port)
                rss_before = common.status_kb(server.pid, "VmRSS")
                body = json.dumps({"credential": site_key, "tcString": tc_string, "addtlConsent": "2~89~dv.",
                                   "debugRegion": "eea"}).encode()
                print(f"flood string: {args.string}, {len(tc_string)} characters ({len(body)}-byte body); "
                      f"ports: main {main_port}, demo frame {frame_port}; RSS at start {rss_before / 1024:.0f} MB")

                stop = threading.Event()
                tally, latencies, failures, slowest = Tally(), [], [], {}
                threads = [threading.Thread(target=flood, args=(main_port, source, body, stop, tally), daemon=True)
                           for source in FLOOD_ADDRESSES for _ in range(2)]
                threads += [threading.Thread(target=brute_force, args=(main_port, source, stop, tally), daemon=True)
                            for source in BRUTE_ADDRESSES]
                threads += [threading.Thread(target=signed_in_flood, args=(main_port, source, flooding_console, stop, tally), daemon=True)
                            for source in SIGNED_IN_ADDRESSES]
                threads.append(threading.Thread(target=honest, args=(main_port, frame_port, app_key, site_key, stop, latencies, failures, slowest,
                                                                     honest_console),
                                                daemon=True))
                for thread in threads:
                    thread.start()
                idle, refused = hold_idle([main_port, frame_port], per_address=40)
                slow = slow_readers(main_port, frame_port)
                print(f"console: sign-in brute force from {len(BRUTE_ADDRESSES)} addresses, a signed-in operator's flood from "
                      f"{len(SIGNED_IN_ADDRESSES)}")
                print(f"hostile clients: {len(FLOOD_ADDRESSES) * 2} flooding connections from {len(FLOOD_ADDRESSES)} addresses; "
                      f"{len(idle)} idle connections from {len(IDLE_ADDRESSES)} addresses on both ports ({refused} refused by the kernel); "
                      f"{len(slow)} slow readers")
                peak_rss = 0
                end = time.monotonic() + args.seconds
                while time.monotonic() < end:
                    peak_rss = max(peak_rss, common.status_kb(server.pid, "VmRSS"))
                    time.sleep(0.25)
                slow_left = sum(not closed_by_server(sock) for sock in slow)
                open_descriptors = descriptors(server.pid)
                stop.set()
                for thread in threads:
                    thread.join(timeout=15)
                hwm = common.status_kb(server.pid, "VmHWM")
                for sock in idle + slow:
                    sock.close()

        ordered = sorted(latencies)
        count = len(ordered)
        p50 = ordered[count // 2] * 1000 if count else 0
        p99 = ordered[min(count - 1, int(count * 0.99))] * 1000 if count else 0
        worst = ordered[-1] * 1000 if count else 0
        print(f"flood answers: {dict(sorted(tally.counts.items()))}")
        print(f"after {args.seconds:g} s: consentd held {open_descriptors} descriptors; {slow_left} of {len(slow)} slow readers still open "
              f"(write timeout 5 s)")
        print(f"honest client: {count} requests, {len(failures)} failed; latency p50 {p50:.0f} ms, p99 {p99:.0f} ms, "
              f"max {worst:.0f} ms (bound p99 {args.p99_ms:g} ms); slowest by route: "
              + ", ".join(f"{path.split('?')[0]} {seconds * 1000:.0f} ms" for path, seconds in sorted(slowest.items())))
        print(f"consentd RSS: {rss_before / 1024:.0f} MB at start, peak sampled {peak_rss / 1024:.0f} MB, VmHWM {hwm / 1024:.0f} MB "
              f"(bound {args.rss_bound_mb:g} MB); whole test {time.monotonic() - started:.0f} s")
        problems = []
        if count == 0:
            problems.append("the honest client made no request")
        if failures:
            problems.append(f"{len(failures)} honest requests failed, e.g. {failures[:3]}")
        if p99 > args.p99_ms:
            problems.append(f"the honest client's p99 latency {p99:.0f} ms is over {args.p99_ms:g} ms")
        if hwm / 1024 > args.rss_bound_mb:
            problems.append(f"consentd's peak RSS {hwm / 1024:.0f} MB is over {args.rss_bound_mb:g} MB")
        if not any(key.startswith("sign-in 4") for key in tally.counts):
            problems.append("the sign-in brute force was never answered 4xx")
        if not any(key.startswith("console ") and key[8:].isdigit() for key in tally.counts):
            problems.append("the signed-in console flood was never answered")
        if slow_left:
            problems.append(f"{slow_left} slow readers were not closed")
        if problems:
            raise common.E2EError("; ".join(problems))
        print("hostile load test passed")
        return 0
    except common.E2EError as error:
        print(f"FAIL: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
