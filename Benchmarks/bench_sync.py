#!/usr/bin/env python3
"""The sync client against a local consentd: enqueue cost, start cost, drain rate (scripts/bench-sync).

Runs SyncBench enqueue (decisions with consentd out of reach, so they stay queued), then
SyncBench drain against a consentd on SQLite, then consentd_load.py's append phase against the
same binary: the drain's events/s is printed beside the direct append rate, and the ratio.
Benchmark tooling only; the product never uses it.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "Server" / "Tests" / "e2e"))
from common import Client, Consentd, TempDir, create_key, resolve_bin_dir, wait_for_health  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bin", help="directory with consentd and consent")
    parser.add_argument("--sync-bench", required=True)
    parser.add_argument("--events", type=int, default=1000)
    parser.add_argument("--duration", type=float, default=10, help="seconds of the direct append phase")
    args = parser.parse_args()
    bin_dir = resolve_bin_dir(args.bin)
    with TempDir("consentd-sync-bench-") as workdir:
        server = Consentd(bin_dir, workdir / "server")
        app = f"sync-bench-{uuid.uuid4().hex[:8]}"
        publishable = create_key(bin_dir, app, "publishable", server.database)
        folder = workdir / "outbox"
        enqueue = subprocess.run([args.sync_bench, "enqueue", str(folder), "http://127.0.0.1:9", publishable, str(args.events)],
                                 capture_output=True, text=True, check=True)
        print(enqueue.stdout.rstrip())
        with server:
            url = server.start()
            wait_for_health(Client.for_server(server))
            drain = subprocess.run([args.sync_bench, "drain", str(folder), url, publishable, "--forget"],
                                   capture_output=True, text=True)
            print(drain.stdout.rstrip())
            if drain.returncode != 0:
                print(drain.stderr, file=sys.stderr)
                return 1
        rate = float(drain.stdout.split("events/s")[0].split(":")[-1])
    load = subprocess.run([sys.executable, str(HERE / "consentd_load.py"), "--bin", str(bin_dir), "--phases", "append",
                           "--duration", str(args.duration), "--json"], capture_output=True, text=True)
    if load.returncode != 0:
        print(load.stdout, load.stderr, file=sys.stderr)
        return 1
    direct = json.loads(load.stdout)["append"]["rate"]
    print(f"direct appends (consentd_load.py, {json.loads(load.stdout)['connections']} connections, same binary): {direct:.0f} events/s")
    print(f"drain / direct append rate: {100 * rate / direct:.0f} % (aim: at least 50 %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
