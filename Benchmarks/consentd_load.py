#!/usr/bin/env python3
"""Load benchmark of consentd: durable appends and subject reads over HTTP.

Builds nothing: pass a release build with --bin DIR (or $CONSENTD_BIN; the default is
`swift build --package-path Server -c release --show-bin-path`). Starts consentd on SQLite in a
temporary directory (or --database URL for PostgreSQL) with rate limits off, creates keys, then

  (a) appends: CONNECTIONS concurrent keep-alive clients POST unique consent events
      (spread over --subjects subjects) to /v1/consents for DURATION seconds;
  (b) reads: after creating --read-subjects subjects (one event each, in a second app),
      CONNECTIONS clients GET /v1/subjects/{id} with the secret key for DURATION seconds;

and reports requests/s, p50 and p99 latency and the non-2xx count of each. The clients are wrk
with Benchmarks/consentd_append.lua when wrk is installed (`apt-get install -y wrk`), else
Python processes (which, on a 2-core machine, may be the bottleneck rather than the server;
--client python forces them). Afterwards `consent chain verify` must hold for the append app
and count the stored events: no fewer than the 2xx answers (a lost acknowledged write), and no
more than that plus the requests still in flight when the clients stopped.

    python3 Benchmarks/consentd_load.py --bin DIR [--database URL] [--connections 32]
        [--duration 10] [--client auto|wrk|python] [--json]

Benchmark tooling only; the product never uses it. Exits 1 when a check fails.
"""
from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import shutil
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "Server" / "Tests" / "e2e"))
from common import (  # noqa: E402
    Client,
    Consentd,
    E2EError,
    TempDir,
    chain_verify,
    create_key,
    make_event,
    percentile,
    resolve_bin_dir,
    utc_now_iso,
    wait_for_health,
)

LUA_SCRIPT = HERE / "consentd_append.lua"


# --------------------------------------------------------------------------- wrk clients


def run_wrk(url: str, mode: str, token: str, run: str, subjects: int, connections: int,
            duration: float, threads: int) -> dict:
    command = [
        "wrk", f"-t{threads}", f"-c{connections}", f"-d{max(1, round(duration))}s", "--timeout", "10s",
        "-s", str(LUA_SCRIPT), url, "--", mode, token, run, str(subjects),
    ]
    process = subprocess.run(command, capture_output=True, text=True, timeout=duration + 120)
    if process.returncode != 0:
        raise E2EError(f"wrk exited {process.returncode}:\n{process.stdout}{process.stderr}")
    for line in process.stdout.splitlines():
        if line.startswith("WRK_JSON "):
            raw = json.loads(line[len("WRK_JSON "):])
            break
    else:
        raise E2EError(f"wrk printed no WRK_JSON line:\n{process.stdout}{process.stderr}")
    seconds = raw["duration_us"] / 1e6
    failures = raw["status_errors"]
    transport = raw["connect_errors"] + raw["read_errors"] + raw["write_errors"] + raw["timeouts"]
    return {
        "client": f"wrk -t{threads}",
        "seconds": round(seconds, 3),
        "requests": raw["requests"],
        "ok": raw["requests"] - failures,
        "non_2xx": failures,
        "transport_errors": transport,
        "rate": round(raw["requests"] / seconds, 1) if seconds else 0.0,
        "p50_ms": raw["p50_us"] / 1000,
        "p90_ms": raw["p90_us"] / 1000,
        "p99_ms": raw["p99_us"] / 1000,
        "max_ms": raw["max_us"] / 1000,
        # wrk stops with up to one request per connection unanswered; those may still commit.
        "in_flight_at_end": connections,
    }


# --------------------------------------------------------------------------- Python clients


def _python_worker(host: str, port: int, mode: str, token: str, run: str, subjects: int,
                   threads: int, duration: float, start_at: float, results) -> None:
    import random

    lock = threading.Lock()
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    counters = {"transport_errors": 0, "in_flight_at_end": 0}

    def loop(index: int) -> None:
        rng = random.Random()
        client = Client(host, port, token=token, timeout=10)
        local_latencies = []
        local_statuses: dict[int, int] = {}
        while time.time() < start_at:
            time.sleep(0.001)
        end = start_at + duration
        while time.time() < end:
            if mode == "append":
                body = make_event(f"{run}-append-{rng.randrange(subjects)}", event_id=str(uuid.uuid4()),
                                  collected_at=utc_now_iso())
                method, path = "POST", "/v1/consents"
            else:
                body = None
                method, path = "GET", f"/v1/subjects/{run}-read-{rng.randrange(subjects)}"
            began = time.perf_counter()
            try:
                response = client.request(method, path, body)
            except (OSError, http.client.HTTPException):
                with lock:
                    counters["transport_errors"] += 1
                continue
            local_latencies.append(time.perf_counter() - began)
            local_statuses[response.status] = local_statuses.get(response.status, 0) + 1
        client.close()
        with lock:
            latencies.extend(local_latencies)
            for status, count in local_statuses.items():
                statuses[status] = statuses.get(status, 0) + count

    workers = [threading.Thread(target=loop, args=(i,)) for i in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    results.put({"latencies": latencies, "statuses": statuses, **counters})


def run_python_clients(host: str, port: int, mode: str, token: str, run: str, subjects: int,
                       connections: int, duration: float, processes: int) -> dict:
    processes = max(1, min(processes, connections))
    per_process = [connections // processes + (1 if i < connections % processes else 0) for i in range(processes)]
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    start_at = time.time() + 1.0
    workers = [context.Process(target=_python_worker,
                               args=(host, port, mode, token, run, subjects, n, duration, start_at, results))
               for n in per_process]
    for worker in workers:
        worker.start()
    collected = [results.get(timeout=duration + 120) for _ in workers]
    for worker in workers:
        worker.join()
    latencies = sorted(l for part in collected for l in part["latencies"])
    statuses: dict[int, int] = {}
    for part in collected:
        for status, count in part["statuses"].items():
            statuses[status] = statuses.get(status, 0) + count
    requests = sum(statuses.values())
    ok = sum(count for status, count in statuses.items() if 200 <= status < 300)
    return {
        "client": f"python x{processes}",
        "seconds": duration,
        "requests": requests,
        "ok": ok,
        "non_2xx": requests - ok,
        "statuses": statuses,
        "transport_errors": sum(part["transport_errors"] for part in collected),
        "rate": round(requests / duration, 1),
        "p50_ms": round(percentile(latencies, 0.50) * 1000, 3),
        "p90_ms": round(percentile(latencies, 0.90) * 1000, 3),
        "p99_ms": round(percentile(latencies, 0.99) * 1000, 3),
        "max_ms": round(latencies[-1] * 1000, 3) if latencies else 0.0,
        "in_flight_at_end": 0,  # every Python client waits for its last answer
    }


# --------------------------------------------------------------------------- set-up


def create_read_subjects(server: Consentd, token: str, run: str, count: int, threads: int = 8) -> None:
    """One event for each of `count` subjects RUN-read-0 … RUN-read-(count-1)."""
    errors: list[str] = []
    next_index = iter(range(count))
    lock = threading.Lock()

    def work() -> None:
        client = Client.for_server(server, token=token)
        while True:
            with lock:
                index = next(next_index, None)
            if index is None:
                break
            response = client.post_event(make_event(f"{run}-read-{index}"))
            if response.status != 201:
                with lock:
                    errors.append(f"{response.status} {response.body[:200]!r}")
        client.close()

    workers = [threading.Thread(target=work) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    if errors:
        raise E2EError(f"creating the read subjects: {len(errors)} failures, e.g. {errors[:3]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--bin", metavar="DIR", help="directory with a release build of consentd and consent")
    parser.add_argument("--database", metavar="URL", help="database URL; default sqlite:<temp dir>/db.sqlite")
    parser.add_argument("--connections", "-c", type=int, default=32, help="concurrent keep-alive clients (default 32)")
    parser.add_argument("--duration", "-d", type=float, default=10, help="seconds per phase (default 10)")
    parser.add_argument("--subjects", type=int, default=1000, help="subjects the appends are spread over (default 1000)")
    parser.add_argument("--read-subjects", type=int, default=1000, help="subjects created for the reads (default 1000)")
    parser.add_argument("--client", choices=["auto", "wrk", "python"], default="auto",
                        help="load generator (default: wrk when installed)")
    parser.add_argument("--wrk-threads", type=int, default=2, help="wrk threads (default 2)")
    parser.add_argument("--python-processes", type=int, default=4, help="processes of the Python client (default 4)")
    parser.add_argument("--phases", default="append,read", help="comma-separated: append, read (default both)")
    parser.add_argument("--json", action="store_true", help="print one JSON document instead of the table")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = parser.parse_args()
    phases = [p.strip() for p in args.phases.split(",") if p.strip()]
    if not set(phases) <= {"append", "read"} or not phases:
        parser.error("--phases takes append and/or read")
    client_kind = args.client
    if client_kind == "auto":
        client_kind = "wrk" if shutil.which("wrk") else "python"
    elif client_kind == "wrk" and not shutil.which("wrk"):
        parser.error("wrk is not installed (apt-get install -y wrk)")

    log = (lambda *a: print(*a, file=sys.stderr)) if args.json else print
    try:
        bin_dir = resolve_bin_dir(args.bin, release=True)
        temp = TempDir("consentd-load-", args.keep)
        with temp as workdir:
            server = Consentd(bin_dir, workdir, database=args.database)
            run = uuid.uuid4().hex[:8]
            append_app, read_app = f"bench-{run}", f"bench-{run}-read"
            append_key = create_key(bin_dir, append_app, "secret", server.database)
            read_writer = create_key(bin_dir, read_app, "secret", server.database)
            read_secret = create_key(bin_dir, read_app, "secret", server.database)
            failures: list[str] = []
            result: dict = {
                "binaries": str(bin_dir),
                "database": server.database.split(":", 1)[0] if "://" not in server.database else
                server.database.split("://", 1)[0],
                "connections": args.connections,
                "duration": args.duration,
                "cpus": os.cpu_count(),
                "client": client_kind,
            }
            with server:
                server.start()
                wait_for_health(Client.for_server(server))
                log(f"consentd {bin_dir} at {server.url} (pid {server.pid}), database {server.database}; "
                    f"client {client_kind}, {args.connections} connections, {args.duration:g} s per phase")

                def drive(mode: str, token: str, subjects: int) -> dict:
                    if client_kind == "wrk":
                        return run_wrk(server.url, mode, token, run, subjects, args.connections,
                                       args.duration, args.wrk_threads)
                    return run_python_clients(server.host, server.port, mode, token, run, subjects,
                                              args.connections, args.duration, args.python_processes)

                if "append" in phases:
                    log("appends …")
                    result["append"] = drive("append", append_key, args.subjects)
                if "read" in phases:
                    log(f"creating {args.read_subjects} subjects for the reads …")
                    create_read_subjects(server, read_writer, run, args.read_subjects)
                    log("reads …")
                    result["read"] = drive("read", read_secret, args.read_subjects)
                if not server.alive():
                    failures.append(f"consentd died during the run\n{server.stderr_tail()}")
            # Verified with the server stopped, so every answered request has finished.
            if "append" in phases:
                append = result["append"]
                holds, stored, output = chain_verify(bin_dir, append_app, server.database)
                append["stored_events"] = stored
                append["chain"] = output
                if not holds or stored is None:
                    failures.append(f"consent chain verify failed: {output}")
                elif stored < append["ok"]:
                    failures.append(f"{append['ok']} appends were acknowledged but only {stored} events are stored")
                elif stored > append["ok"] + append["in_flight_at_end"]:
                    failures.append(f"{stored} events are stored but only {append['ok']} appends were acknowledged "
                                    f"(+{append['in_flight_at_end']} possibly in flight)")
                if append["non_2xx"]:
                    failures.append(f"{append['non_2xx']} appends were answered with a non-2xx status")
            if "read" in phases and result["read"]["non_2xx"]:
                failures.append(f"{result['read']['non_2xx']} reads were answered with a non-2xx status")
            result["failures"] = failures
            if failures:
                temp.keep = True

        if args.json:
            print(json.dumps(result, indent=2))
        else:
            print()
            print(f"{'phase':<8} {'req/s':>10} {'p50 ms':>9} {'p90 ms':>9} {'p99 ms':>9} {'max ms':>9} "
                  f"{'requests':>9} {'non-2xx':>8} {'io err':>7}")
            for phase in ("append", "read"):
                if phase in result:
                    r = result[phase]
                    print(f"{phase:<8} {r['rate']:>10.1f} {r['p50_ms']:>9.2f} {r['p90_ms']:>9.2f} {r['p99_ms']:>9.2f} "
                          f"{r['max_ms']:>9.2f} {r['requests']:>9} {r['non_2xx']:>8} {r['transport_errors']:>7}")
            if "append" in result:
                print(f"stored events (consent chain verify): {result['append']['stored_events']} for "
                      f"{result['append']['ok']} acknowledged appends — {result['append']['chain']}")
        for failure in failures:
            print(f"FAIL: {failure}", file=sys.stderr)
        return 1 if failures else 0
    except E2EError as error:
        print(f"FAIL: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
