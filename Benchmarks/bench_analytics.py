#!/usr/bin/env python3
"""The consent analytics' dashboard against 10 million events' rollups (scripts/bench-analytics).

The rollup tables are seeded directly, in bulk, with the rows 10 million events spread over a
year would leave (not by appending 10 million events), spread evenly over every combination of
7 regions, 8 languages, 3 platforms, 2 notice versions and 5 methods: `analytics_choices` per day
the outcomes under `all` and per value of each dimension;
`analytics_counts` per day the bases, 11 purposes and 10 legitimate interests, 2 special
features, 600 vendors, 300 vendors' legitimate interests, 100 Google ad-tech providers, the Google
split and the US opt-outs. Then a consentd on that database answers a dashboard's queries through
`GET /v1/analytics/{report}` (HTTP, JSON), each timed over several runs after one warm-up.
Goal: every query at most 200 ms (issue 29 §3). Prints one table per database.

Usage: scripts/bench-analytics [--postgres URL] [--events N] [--runs R]
"""
from __future__ import annotations

import argparse
import io
import sqlite3
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlparse, parse_qs

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "Server" / "Tests" / "e2e"))
from common import Client, Consentd, TempDir, create_key, resolve_bin_dir, wait_for_health  # noqa: E402

APP = "com.example.bench"
FIRST_DAY = 20454  # 2026-01-01
DAYS = 365
REGIONS = ["eea", "uk", "ch", "us-ca", "us", "other", "unknown"]
LANGUAGES = ["de", "en", "fr", "es", "it", "nl", "pl", "pt"]
PLATFORMS = ["ios", "android", "web"]
NOTICE_VERSIONS = ["3", "4"]
METHODS = [("acceptAll", "acceptAll"), ("rejectAll", "rejectAll"), ("custom", "custom"), ("sync", "custom"),
           ("withdrawal", "withdrawn")]
CHOICE_COLUMNS = "app_id, dimension, day, value, outcome, events"
COUNT_COLUMNS = "app_id, kind, day, item, events"
DASHBOARD = [
    ("choices, 30 days by day", "/v1/analytics/choices?from=2026-12-02&to=2026-12-31"),
    ("choices, 30 days by region", "/v1/analytics/choices?from=2026-12-02&to=2026-12-31&by=region"),
    ("choices, 30 days by language", "/v1/analytics/choices?from=2026-12-02&to=2026-12-31&by=language"),
    ("choices, a year by week and region", "/v1/analytics/choices?from=2026-01-01&to=2026-12-31&granularity=week&by=region"),
    ("purposes, 30 days by week", "/v1/analytics/purposes?from=2026-12-02&to=2026-12-31&granularity=week"),
    ("vendors, 30 days by week (page of 1000)", "/v1/analytics/vendors?from=2026-12-02&to=2026-12-31&granularity=week"),
    ("google, 30 days by day", "/v1/analytics/google?from=2026-12-02&to=2026-12-31"),
    ("us, 30 days by day", "/v1/analytics/us?from=2026-12-02&to=2026-12-31"),
    ("choices CSV, a year by week and platform", "/v1/analytics/choices?from=2026-01-01&to=2026-12-31&granularity=week&by=platform&format=csv"),
]


def rows(events: int):
    """The rollup rows: (choices, counts), their events summing to `events`."""
    combos = [(r, l, p, v, m, o) for r in REGIONS for l in LANGUAGES for p in PLATFORMS for v in NOTICE_VERSIONS for m, o in METHODS]
    per_day = events // DAYS
    choices, counts = [], []
    for index in range(DAYS):
        day = FIRST_DAY + index
        today = per_day + (events - per_day * DAYS if index == DAYS - 1 else 0)
        share, extra = divmod(today, len(combos))
        sums: dict[tuple[str, str, str], int] = {}
        for position, (region, language, platform, version, method, outcome) in enumerate(combos):
            events_here = share + (1 if position < extra else 0)
            for dimension, value in (("all", "all"), ("region", region), ("language", language), ("platform", platform),
                                     ("noticeVersion", version), ("method", method)):
                key = (dimension, value, outcome)
                sums[key] = sums.get(key, 0) + events_here
        for (dimension, value, outcome), count in sums.items():
            choices.append((APP, dimension, day, value, outcome, count))
        tcf = today * 8 // 10
        us = today - tcf
        counts.append((APP, "events", day, "tcf", tcf))
        counts.append((APP, "events", day, "us", us))
        for kind, ids in (("purposeConsent", 11), ("purposeLegitimateInterest", 10), ("specialFeatureOptin", 2),
                          ("vendorConsent", 600), ("vendorLegitimateInterest", 300), ("additionalConsent", 100)):
            for item in range(1, ids + 1):
                counts.append((APP, kind, day, str(item), tcf * (50 + item % 40) // 100))
        for item, share in (("personalized", 55), ("nonPersonalized", 35), ("adFree", 2), ("additionalConsent", 70)):
            counts.append((APP, "google", day, item, tcf * share // 100))
        for item, share in (("saleOptOut", 20), ("sharingOptOut", 20), ("targetedAdvertisingOptOut", 15),
                            ("sensitiveDataLimit", 5), ("gpc", 8)):
            counts.append((APP, "us", day, item, us * share // 100))
    return choices, counts


def seed_sqlite(path: str, choices, counts) -> None:
    connection = sqlite3.connect(path)
    with connection:
        connection.executemany(f"INSERT INTO analytics_choices ({CHOICE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)", choices)
        connection.executemany(f"INSERT INTO analytics_counts ({COUNT_COLUMNS}) VALUES (?, ?, ?, ?, ?)", counts)
    connection.execute("ANALYZE")
    connection.close()


def psql_arguments(url: str) -> list[str]:
    """psql's connection arguments for consentd's `postgres+uds://user@host/socket-path#database`
    (or an ordinary `postgres://` URL)."""
    if url.startswith("postgres+uds://"):
        parsed = urlparse(url)
        socket_dir = str(Path(parsed.path).parent)
        return ["-h", socket_dir, "-U", parsed.username or "postgres", "-d", parsed.fragment]
    return [url]


def seed_postgres(url: str, choices, counts) -> None:
    for table, data in ((f"analytics_choices ({CHOICE_COLUMNS})", choices), (f"analytics_counts ({COUNT_COLUMNS})", counts)):
        buffer = io.StringIO()
        for row in data:
            buffer.write("\t".join(str(value) for value in row) + "\n")
        subprocess.run(["psql", *psql_arguments(url), "-q", "-c", f"\\copy {table} FROM STDIN"],
                       input=buffer.getvalue(), text=True, check=True)
    subprocess.run(["psql", *psql_arguments(url), "-q", "-c", "ANALYZE analytics_choices; ANALYZE analytics_counts"], check=True)


def clear_postgres(url: str) -> None:
    subprocess.run(["psql", *psql_arguments(url), "-q", "-c",
                    f"DELETE FROM analytics_choices WHERE app_id = '{APP}'; DELETE FROM analytics_counts WHERE app_id = '{APP}';"
                    f" DELETE FROM api_keys WHERE app_id = '{APP}'"], check=True)


def measure(server: Consentd, token: str, runs: int) -> list[tuple[str, float, float, int]]:
    client = Client.for_server(server, token)
    wait_for_health(client)
    results = []
    for name, path in DASHBOARD:
        client.request("GET", path)
        times, size = [], 0
        for _ in range(runs):
            start = time.perf_counter()
            response = client.request("GET", path)
            times.append((time.perf_counter() - start) * 1000)
            if response.status != 200:
                raise SystemExit(f"{path}: {response.status} {response.body[:300]!r}")
            size = len(response.body)
        results.append((name, statistics.median(times), max(times), size))
    client.close()
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", help="directory with consentd and consent")
    parser.add_argument("--postgres", help="a PostgreSQL database URL (consentd's form) to run on too")
    parser.add_argument("--events", type=int, default=10_000_000)
    parser.add_argument("--runs", type=int, default=7)
    arguments = parser.parse_args()
    bin_dir = resolve_bin_dir(arguments.bin)
    started = time.perf_counter()
    choices, counts = rows(arguments.events)
    total = sum(row[-1] for row in choices if row[1] == "all")
    print(f"rollups of {total:,} events over {DAYS} days: {len(choices):,} choice rows, {len(counts):,} count rows "
          f"(made in {time.perf_counter() - started:.1f} s)")
    engines = [("SQLite", None)] + ([("PostgreSQL", arguments.postgres)] if arguments.postgres else [])
    failed = False
    with TempDir("consentd-analytics-bench-") as workdir:
        for engine, url in engines:
            database = url or f"sqlite:{Path(workdir) / 'bench.sqlite'}"
            if url:
                create_key(bin_dir, "com.example.migrate", "secret", database)  # migrates
                clear_postgres(url)
            token = create_key(bin_dir, APP, "secret", database)
            started = time.perf_counter()
            if url:
                seed_postgres(url, choices, counts)
            else:
                seed_sqlite(database.removeprefix("sqlite:"), choices, counts)
            print(f"\n{engine}: seeded in {time.perf_counter() - started:.1f} s")
            server = Consentd(bin_dir, Path(workdir) / engine.lower(), database=database)
            server.start()
            try:
                results = measure(server, token, arguments.runs)
            finally:
                server.stop()
            print(f"{'query':45} {'median ms':>10} {'max ms':>8} {'bytes':>9}")
            for name, median, worst, size in results:
                mark = "" if median <= 200 else "  over 200 ms"
                failed = failed or median > 200
                print(f"{name:45} {median:10.1f} {worst:8.1f} {size:9,}{mark}")
            if url:
                clear_postgres(url)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
