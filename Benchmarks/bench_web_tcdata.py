#!/usr/bin/env python3
"""The web CMP's TCData under the security review's hostile TC strings (issue 24, H1): answer size,
time and consentd's memory for POST /v1/web/session and /v1/web/choices (scripts/bench-web-tcdata).

Starts a consentd (release by default: --bin or $CONSENTD_BIN to choose) on SQLite on loopback,
reads the demo page's publishable key from GET /demo, and sends each hostile body REPEAT times in
turn; prints per route and string the answer's bytes, the median / p95 / max time, and consentd's
resident memory before, after, and at its peak (VmHWM). Budget: every answer <= 1 MB and <= 100 ms
(release), and no memory growth from one round to the next.
Benchmark tooling only; the product never uses it.
"""
from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "Server" / "Tests" / "e2e"))
from common import REPO_ROOT, Client, Consentd, TempDir, create_key, resolve_bin_dir, status_kb, wait_for_health  # noqa: E402
from hostile_tc import every_form, old_worst, tc  # noqa: E402


def memory(pid: int) -> tuple[int, int]:
    """consentd's resident and peak resident memory, in MB."""
    return status_kb(pid, "VmRSS") // 1024, status_kb(pid, "VmHWM") // 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bin", help="directory with consentd and consent (default: the release build)")
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    bin_dir = resolve_bin_dir(args.bin, release=True)
    strings = {
        "review (637 chars)": tc(),
        "every type x 64 purposes, single ids and ranges": every_form(),
        "1,845 restrictions (old worst case)": old_worst(),
    }
    print(f"consentd: {bin_dir}")
    with TempDir("consentd-web-tcdata-") as workdir:
        # The page pretends to be in the EEA (allowed explicitly, as in a test setup); the app's
        # hand-over comes with the app's own subject token, minted by its backend's secret key.
        server = Consentd(bin_dir, workdir / "server", publishers=REPO_ROOT / "Server" / "config" / "publishers.example.yaml",
                          extra_args=["--allow-debug-region", "true"])
        with server:
            server.start()
            client = Client.for_server(server, timeout=120)
            wait_for_health(client)
            page = client.request("GET", "/demo").body.decode()
            key = re.search(r'data-key="([^"]+)"', page).group(1)
            app_secret = create_key(bin_dir, "com.example.news", "secret", server.database)
            minted = client.request("POST", "/v1/subjects/app-user-1/tokens", token=app_secret)
            app_token = minted.json()["token"]
            headers = {"Content-Type": "text/plain;charset=UTF-8", "Origin": "https://news.example.com"}
            rss, _ = memory(server.pid)
            print(f"consentd RSS at start: {rss} MB")
            failed = False
            for label, text in strings.items():
                bodies = {
                    "/v1/web/session": {"credential": key, "tcString": text, "addtlConsent": "2~89.1051.2677~dv.", "debugRegion": "eea"},
                    "/v1/web/choices": {"credential": key, "appConsent": {"tcString": text, "subjectToken": app_token, "subjectId": "app-user-1"}},
                }
                for path, body in bodies.items():
                    payload = json.dumps(body, separators=(",", ":")).encode()
                    times, sizes = [], set()
                    for _ in range(args.repeat):
                        start = time.perf_counter()
                        response = client.request("POST", path, body=payload, headers=headers)
                        times.append((time.perf_counter() - start) * 1000)
                        sizes.add(len(response.body))
                        if response.status not in (200, 201):
                            print(f"  {path}: {response.status} {response.body[:200]!r}")
                            failed = True
                            break
                    has_tcdata = isinstance(response.json().get("tcData"), dict)
                    rss, peak = memory(server.pid)
                    times.sort()
                    p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
                    print(f"{label:48} {path:16} request {len(payload):6} B  answer {max(sizes):8} B  tcData {'yes' if has_tcdata else 'no '}"
                          f"  median {statistics.median(times):6.1f} ms  p95 {p95:6.1f} ms  max {times[-1]:6.1f} ms  RSS {rss} MB (peak {peak} MB)")
                    failed = failed or max(sizes) > 1_000_000
            return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
