#!/usr/bin/env python3
"""The SDK's outbox under kill -9: a client killed in the middle of a drain loses and doubles nothing.

Starts consentd (SQLite in a temporary directory) and creates an app's keys. The SDK's
SyncBench (Benchmarks/, built by scripts/test) makes 1,000 decisions with consentd out of
reach, so they wait in its outbox; then drains them to consentd three times, each drain killed
with SIGKILL after a random 0.1-0.8 s, and a fourth time to the end. consentd must then hold
exactly the outbox's event ids, once each, in the order the decisions were made, and the
app's hash chain must verify.

    python3 Server/Tests/e2e/sync_crash_test.py --bin DIR --sync-bench PATH [--events 1000]

Exits 1 when a check fails.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import Client, Consentd, E2EError, TempDir, chain_verify, create_key, resolve_bin_dir, wait_for_health  # noqa: E402


def outbox_order(folder: Path) -> list[str]:
    """The pending event ids of the outbox file, in order."""
    data = (folder / "outbox.jsonl").read_bytes().split(b"\0", 1)[0]
    added: list[str] = []
    sent: set[str] = set()
    for line in data.splitlines():
        record = json.loads(line)
        if "add" in record:
            added.append(record["add"]["event"]["eventId"])
        sent.update(record.get("sent", []))
    return [event_id for event_id in added if event_id not in sent]


def stored_events(server: Consentd, secret: str, subject: str) -> list[str]:
    client = Client.for_server(server, token=secret)
    ids: list[str] = []
    cursor = None
    while True:
        path = f"/v1/subjects/{subject}/events?limit=100" + (f"&cursor={cursor}" if cursor else "")
        response = client.request("GET", path)
        if response.status != 200:
            raise E2EError(f"GET {path}: {response.status} {response.body[:200]!r}")
        page = json.loads(response.body)
        ids += [event["eventId"] for event in page["events"]]
        cursor = page.get("nextCursor")
        if not cursor:
            return ids


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", help="directory with consentd and consent (default: swift's debug bin path)")
    parser.add_argument("--sync-bench", required=True, help="the SyncBench executable")
    parser.add_argument("--events", type=int, default=1000)
    parser.add_argument("--kills", type=int, default=3)
    args = parser.parse_args()
    bin_dir = resolve_bin_dir(args.bin)
    bench = Path(args.sync_bench)
    with TempDir("consentd-sync-crash-") as workdir:
        server = Consentd(bin_dir, workdir / "server")
        app = f"sync-crash-{uuid.uuid4().hex[:8]}"
        publishable = create_key(bin_dir, app, "publishable", server.database)
        secret = create_key(bin_dir, app, "secret", server.database)
        folder = workdir / "outbox"
        made = subprocess.run([str(bench), "enqueue", str(folder), "http://127.0.0.1:9", publishable, str(args.events)],
                              capture_output=True, text=True, timeout=600)
        if made.returncode != 0:
            raise E2EError(f"SyncBench enqueue failed:\n{made.stdout}{made.stderr}")
        order = outbox_order(folder)
        if len(order) != args.events or len(set(order)) != args.events:
            raise E2EError(f"the outbox holds {len(order)} events ({len(set(order))} distinct), expected {args.events}")
        with server:
            url = server.start()
            wait_for_health(Client.for_server(server))
            drain = [str(bench), "drain", str(folder), url, publishable, "--quiet"]
            for attempt in range(args.kills):
                process = subprocess.Popen(drain, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                time.sleep(random.uniform(0.1, 0.8))
                if process.poll() is None:
                    os.kill(process.pid, signal.SIGKILL)
                    process.wait()
                    print(f"drain {attempt + 1}: killed with SIGKILL; {len(outbox_order(folder))} events still in the outbox")
                else:
                    print(f"drain {attempt + 1}: finished before the kill: {process.stdout.read().strip()}")
            final = subprocess.run(drain + ["--forget"], capture_output=True, text=True, timeout=600)
            if final.returncode != 0:
                raise E2EError(f"the last drain left events:\n{final.stdout}{final.stderr}")
            subject = final.stdout.split()[0]
            stored = stored_events(server, secret, subject)
        holds, count, output = chain_verify(bin_dir, app, server.database)
        failures = []
        if stored != order:
            missing = set(order) - set(stored)
            doubled = len(stored) - len(set(stored))
            failures.append(f"consentd holds {len(stored)} events ({len(missing)} missing, {doubled} doubled); "
                            f"in order: {stored == sorted(stored, key=order.index) if not missing else 'n/a'}")
        if not holds:
            failures.append(f"chain verify: {output}")
        if failures:
            print("FAIL: " + "; ".join(failures))
            return 1
        print(f"PASS: {len(stored)} events, each once and in order, after {args.kills} kill -9 mid-drain; chain holds ({count} events)")
        return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except E2EError as error:
        print(f"FAIL: {error}")
        sys.exit(1)
