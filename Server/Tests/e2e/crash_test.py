#!/usr/bin/env python3
"""Durability under kill -9: no acknowledged consent event may be lost.

Starts consentd (SQLite in a temporary directory, or --database URL) with rate limits off,
runs WRITERS threads appending unique events spread over SUBJECTS subjects as fast as they
can, and records every event id answered 201/200. After KILL_AFTER seconds it sends SIGKILL
to the server while writes are in flight, restarts it on the same database and checks:

  * every acknowledged event id is in its subject's history (GET /v1/subjects/{id}/events,
    paged with the secret key);
  * no event appears that was never sent, none appears twice;
  * each subject's current state (GET /v1/subjects/{id}) is the newest of its stored events
    by (collectedAt, eventId);
  * `consent chain verify` holds and counts exactly the events found.

With --rounds R the kill/restart cycle is repeated R times on the same database, and all the
checks run after each restart. Exits 1 on any failure.

    python3 Server/Tests/e2e/crash_test.py [--bin DIR] [--database URL] [--writers 8]
        [--subjects 50] [--kill-after 3] [--rounds 1] [--keep]
"""
from __future__ import annotations

import argparse
import http.client
import random
import sys
import threading
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import (  # noqa: E402
    Client,
    Consentd,
    E2EError,
    TempDir,
    add_common_arguments,
    chain_verify,
    create_key,
    list_events,
    make_event,
    parse_time_ms,
    quote,
    resolve_bin_dir,
    run_id,
    utc_now_iso,
    wait_for_health,
)


class Ledger:
    """What the writers sent and what the server answered, shared across threads."""

    def __init__(self) -> None:
        # A condition, so the main thread can wait for acknowledgements; `with ledger.lock` locks it.
        self.lock = threading.Condition()
        self.acknowledged: dict[str, str] = {}  # event id -> subject id (201 or 200)
        self.sent: dict[str, str] = {}  # every event id whose request was started
        self.in_flight_at_kill: dict[str, str] = {}  # sent, no answer: the connection died
        self.refused: dict[int, int] = {}  # non-2xx status -> count
        self.refused_samples: list[str] = []
        self.created = 0
        self.retried = 0


def writer(index: int, server: Consentd, token: str, subjects: list[str], ledger: Ledger,
           stop: threading.Event, seed: int) -> None:
    rng = random.Random(seed * 1000 + index)
    client = Client.for_server(server, token=token, timeout=30)
    try:
        while not stop.is_set():
            subject = rng.choice(subjects)
            event_id = str(uuid.UUID(int=rng.getrandbits(128), version=4))
            event = make_event(subject, event_id=event_id, collected_at=utc_now_iso(),
                               purposes=sorted(rng.sample(range(1, 11), 3)), vendors=[rng.randint(1, 1000)])
            with ledger.lock:
                ledger.sent[event_id] = subject
            try:
                response = client.post_event(event)
            except (OSError, http.client.HTTPException):
                # The server died with this request in flight: it may or may not be stored.
                with ledger.lock:
                    ledger.in_flight_at_kill[event_id] = subject
                return
            with ledger.lock:
                if response.status in (200, 201):
                    ledger.acknowledged[event_id] = subject
                    ledger.lock.notify_all()
                    if response.status == 201:
                        ledger.created += 1
                    else:
                        ledger.retried += 1
                else:
                    ledger.refused[response.status] = ledger.refused.get(response.status, 0) + 1
                    if len(ledger.refused_samples) < 5:
                        ledger.refused_samples.append(f"{response.status} {response.body[:300]!r}")
    finally:
        client.close()


def check_database(server: Consentd, bin_dir: Path, app: str, secret: str, subjects: list[str],
                   ledger: Ledger, state_checks: bool = True) -> list[str]:
    """Runs every check against a restarted server; returns the failures (empty when all hold)."""
    failures: list[str] = []
    client = Client.for_server(server, token=secret)
    found: dict[str, str] = {}
    duplicates = 0
    states_checked = 0
    for subject in subjects:
        events = list_events(client, subject)
        ids = [event["eventId"] for event in events]
        duplicates += len(ids) - len(set(ids))
        for event_id in ids:
            found[event_id] = subject
        sequences = [event["sequence"] for event in events]
        if sequences != sorted(sequences):
            failures.append(f"history of {subject} is not in chain order: {sequences[:20]}…")
        if state_checks and events:
            response = client.request("GET", f"/v1/subjects/{quote(subject)}", retry=True)
            if response.status != 200:
                failures.append(f"GET /v1/subjects/{subject} answered {response.status} though it has {len(events)} events")
            else:
                newest = max(events, key=lambda e: (parse_time_ms(e["collectedAt"]), e["eventId"]))
                state = response.json()
                if state["eventId"] != newest["eventId"]:
                    failures.append(
                        f"state of {subject} is {state['eventId']} (collectedAt {state['collectedAt']}) but the newest "
                        f"stored event is {newest['eventId']} (collectedAt {newest['collectedAt']})")
                states_checked += 1
    client.close()

    acknowledged = ledger.acknowledged
    missing = [event_id for event_id in acknowledged if event_id not in found]
    wrong_subject = [event_id for event_id, subject in acknowledged.items()
                     if event_id in found and found[event_id] != subject]
    unknown = [event_id for event_id in found if event_id not in ledger.sent]
    in_flight_stored = sum(1 for event_id in ledger.in_flight_at_kill if event_id in found)
    print(f"  acknowledged (201/200): {len(acknowledged)}  found: {len(found)}  "
          f"missing: {len(missing)}  in flight at kill (total): {len(ledger.in_flight_at_kill)}, "
          f"of which stored: {in_flight_stored}")
    print(f"  subject states checked: {states_checked}  duplicate events: {duplicates}  "
          f"events never sent: {len(unknown)}")
    if missing:
        failures.append(f"{len(missing)} acknowledged events are missing, e.g. "
                        + ", ".join(f"{e} ({acknowledged[e]})" for e in missing[:10]))
    if wrong_subject:
        failures.append(f"{len(wrong_subject)} events are stored under another subject, e.g. {wrong_subject[:5]}")
    if unknown:
        failures.append(f"{len(unknown)} stored events were never sent, e.g. {unknown[:5]}")
    if duplicates:
        failures.append(f"{duplicates} events appear twice in a history")

    holds, count, output = chain_verify(bin_dir, app, server.database)
    print(f"  consent chain verify: {output}")
    if not holds:
        failures.append(f"consent chain verify failed: {output}")
    elif count != len(found):
        failures.append(f"the chain counts {count} events but the histories hold {len(found)}")
    return failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    add_common_arguments(parser)
    parser.add_argument("--writers", type=int, default=8, help="concurrent writer threads (default 8)")
    parser.add_argument("--subjects", type=int, default=50, help="subjects the events are spread over (default 50)")
    parser.add_argument("--kill-after", type=float, default=3.0, metavar="SECONDS",
                        help="seconds of writing before SIGKILL (default 3; more until one event is acknowledged)")
    parser.add_argument("--rounds", type=int, default=1, help="kill/restart cycles on the same database (default 1)")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: random, printed)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory (database, logs)")
    args = parser.parse_args()
    if args.writers < 1 or args.subjects < 1 or args.rounds < 1 or args.kill_after <= 0:
        parser.error("--writers, --subjects and --rounds must be at least 1, --kill-after positive")
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)

    try:
        bin_dir = resolve_bin_dir(args.bin)
        temp = TempDir("consentd-crash-", args.keep)
        with temp as workdir:
            server = Consentd(bin_dir, workdir, database=args.database)
            run = run_id()
            app = f"crash-{run}"
            subjects = [f"crash-{run}-subject-{i:03d}" for i in range(args.subjects)]
            print(f"crash test: binaries {bin_dir}, database {server.database}, app {app}, seed {seed}")
            print(f"  {args.writers} writers over {args.subjects} subjects, SIGKILL after {args.kill_after} s, "
                  f"{args.rounds} round(s)")
            # The writers are backends syncing known users: only the secret key (or a subject's
            # token) may write for a subjectId.
            secret = create_key(bin_dir, app, "secret", server.database)
            ledger = Ledger()
            failures: list[str] = []
            for round_number in range(1, args.rounds + 1):
                server.start()
                wait_for_health(Client.for_server(server))
                print(f"round {round_number}: consentd pid {server.pid} at {server.url}")
                acknowledged_before = len(ledger.acknowledged)
                in_flight_before = len(ledger.in_flight_at_kill)
                stop = threading.Event()
                threads = [threading.Thread(target=writer, daemon=True,
                                            args=(i, server, secret, subjects, ledger, stop, seed + round_number))
                           for i in range(args.writers)]
                started = time.monotonic()
                for thread in threads:
                    thread.start()
                # --kill-after seconds of writing is the load the kill interrupts. On a slow or busy
                # machine that may pass before the first answer, so the kill also waits (at most
                # 60 s more) until this round has an acknowledged event: otherwise nothing is tested.
                time.sleep(args.kill_after)
                with ledger.lock:
                    ledger.lock.wait_for(lambda: len(ledger.acknowledged) > acknowledged_before, timeout=60)
                server.kill()
                killed_at = time.monotonic()
                stop.set()
                for thread in threads:
                    thread.join(timeout=60)
                if any(thread.is_alive() for thread in threads):
                    raise E2EError("writer threads did not stop after the kill")
                written = len(ledger.acknowledged) - acknowledged_before
                print(f"  SIGKILL after {killed_at - started:.2f} s; acknowledged this round: {written} "
                      f"({written / (killed_at - started):.0f}/s), "
                      f"in flight at kill: {len(ledger.in_flight_at_kill) - in_flight_before}, "
                      f"exit status {server.process.returncode}")
                if ledger.refused:
                    print(f"  refused (non-2xx) so far: {ledger.refused}; e.g. {ledger.refused_samples[:3]}")
                if written == 0:
                    failures.append(f"round {round_number}: no event was acknowledged before the kill; nothing was tested")
                server.start()
                print(f"  restarted: pid {server.pid} at {server.url}")
                wait_for_health(Client.for_server(server))
                round_failures = check_database(server, bin_dir, app, secret, subjects, ledger)
                failures += [f"round {round_number}: {failure}" for failure in round_failures]
                server.stop()
            print(f"total: acknowledged {len(ledger.acknowledged)} (201: {ledger.created}, 200: {ledger.retried}), "
                  f"in flight at kills {len(ledger.in_flight_at_kill)}, refused {sum(ledger.refused.values())}")
            if ledger.refused:
                failures.append(f"the server refused writes: {ledger.refused}; e.g. {ledger.refused_samples}")
            if failures:
                temp.keep = True
                for failure in failures:
                    print(f"FAIL: {failure}", file=sys.stderr)
                print(server.stderr_tail(), file=sys.stderr)
                return 1
        print("PASS: every acknowledged event survived kill -9 and the chain holds")
        return 0
    except E2EError as error:
        print(f"FAIL: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
