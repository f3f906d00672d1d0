#!/usr/bin/env python3
"""consentd's memory under hostile TC strings: 50 concurrent `POST /v1/consents`, each carrying
the worst TC string consentd accepts (16,384 characters, every publisher restriction naming
vendors 1-65,535), must raise consentd's peak resident memory (VmHWM) by no more than the
documented bound (docs/operations.md, "Memory").

Before the decoder held such sets as runs, each restriction became an 8 KB bitset: one request
took 15 MB, and 50 at once some 750 MB.

    python3 Server/Tests/e2e/memory_test.py [--bin DIR] [--database URL] [--requests 50] [--bound-mb 8]

Linux only (it reads /proc/PID/status).
"""
from __future__ import annotations

import argparse
import base64
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402

# CheckedConsentEvent.maxStringLength: the longest tcString consentd decodes.
MAX_TC_STRING = 16_384
# The documented bound on the growth of consentd's peak RSS under the requests (docs/operations.md).
DEFAULT_BOUND_MB = 8


def worst_tc_string(records: int, last_vendor: int = 65_535) -> str:
    """A valid TC string (core segment only) with `records` publisher restrictions, each of one
    range entry 1-65,535: 53 bits a restriction, the fewest bits for the largest set. With
    `last_vendor` 2, its harmless twin: the same length and shape, sets of two vendors."""
    bits: list[int] = []

    def write(value: int, width: int) -> None:
        bits.extend((value >> (width - 1 - i)) & 1 for i in range(width))

    deciseconds = 16_000_000_000
    write(2, 6)  # Version
    write(deciseconds, 36)  # Created
    write(deciseconds, 36)  # LastUpdated
    write(300, 12)  # CmpId
    write(1, 12)  # CmpVersion
    write(1, 6)  # ConsentScreen
    write(4, 6), write(13, 6)  # ConsentLanguage "EN"
    write(45, 12)  # VendorListVersion
    write(5, 6)  # TcfPolicyVersion
    write(1, 1), write(0, 1)  # IsServiceSpecific, UseNonStandardTexts
    write(0, 12), write(0, 24), write(0, 24)  # SpecialFeatureOptIns, PurposesConsent, PurposesLITransparency
    write(0, 1)  # PurposeOneTreatment
    write(0, 6), write(0, 6)  # PublisherCC "AA"
    write(0, 16), write(0, 1)  # vendor consents: MaxVendorId 0, bitfield
    write(0, 16), write(0, 1)  # vendor legitimate interests
    write(records, 12)  # NumPubRestrictions
    for index in range(records):
        write(index % 24 + 1, 6)  # PurposeId
        write(0, 2)  # RestrictionType: not allowed
        write(1, 12)  # NumEntries
        write(1, 1), write(1, 16), write(last_vendor, 16)  # IsARange, StartVendorId, EndVendorId
    while len(bits) % 24:
        bits.append(0)
    data = bytes(int("".join(map(str, bits[i:i + 8])), 2) for i in range(0, len(bits), 8))
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def longest_worst_records() -> int:
    """The most restrictions whose worst string still fits consentd's limit."""
    records = 4_095
    while True:
        length = len(worst_tc_string(records))
        if length <= MAX_TC_STRING:
            return records
        records -= 1 + (length - MAX_TC_STRING) * 6 // 53


def post_concurrently(server: common.Consentd, token: str, app: str, count: int, tc_string: str) -> list:
    """`count` events at once, one connection and thread each, released together."""
    barrier = threading.Barrier(count)
    results: list = [None] * count

    def post(index: int) -> None:
        client = common.Client.for_server(server, token=token, timeout=120)
        event = common.make_event(f"{app}-subject-{index}")
        event["tcString"] = tc_string
        try:
            barrier.wait()
            results[index] = client.post_event(event)
        except Exception as error:  # noqa: BLE001 - reported below as the request's outcome
            results[index] = error
        finally:
            client.close()

    threads = [threading.Thread(target=post, args=(index,)) for index in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    common.add_common_arguments(parser)
    parser.add_argument("--requests", type=int, default=50, help="concurrent requests (default 50)")
    parser.add_argument("--bound-mb", type=float, default=DEFAULT_BOUND_MB,
                        help=f"allowed growth of peak RSS in MB (default {DEFAULT_BOUND_MB})")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = parser.parse_args()
    try:
        bin_dir = common.resolve_bin_dir(args.bin)
        records = longest_worst_records()
        tc_string, twin = worst_tc_string(records), worst_tc_string(records, last_vendor=2)
        print(f"worst TC string: {records} restrictions of vendors 1-65535, {len(tc_string)} characters")
        with common.TempDir("consentd-memory-", args.keep) as workdir:
            server = common.Consentd(bin_dir, workdir, database=args.database)
            app = f"memory-{common.run_id()}"
            secret = common.create_key(bin_dir, app, "secret", server.database)
            with server:
                server.start()
                common.wait_for_health(common.Client.for_server(server))
                # Warm up with the same concurrency and the harmless twin of the string (as long,
                # restrictions of two vendors): thread pools, connection buffers and the database's
                # caches grow here, so the measurement sees what the decoded sets take.
                warm = post_concurrently(server, secret, f"{app}-warm", args.requests, twin)
                failed = [r for r in warm if not isinstance(r, common.Response) or r.status != 201]
                if failed:
                    raise common.E2EError(f"warm-up: {len(failed)} requests failed, e.g. {failed[0]!r}")
                before = common.status_kb(server.pid, "VmHWM")
                results = post_concurrently(server, secret, app, args.requests, tc_string)
                peak = common.status_kb(server.pid, "VmHWM")
                rss = common.status_kb(server.pid, "VmRSS")
                failed = [r for r in results if not isinstance(r, common.Response) or r.status != 201]
                if failed:
                    raise common.E2EError(f"{len(failed)} of {args.requests} requests failed, e.g. {failed[0]!r}")
                growth_mb = (peak - before) / 1024
                print(f"{args.requests} concurrent events: peak RSS {before / 1024:.1f} MB -> {peak / 1024:.1f} MB "
                      f"(+{growth_mb:.1f} MB; bound {args.bound_mb:g} MB), RSS after {rss / 1024:.1f} MB")
                if growth_mb > args.bound_mb:
                    raise common.E2EError(f"peak RSS grew by {growth_mb:.1f} MB, over the bound of {args.bound_mb:g} MB")
        print("memory test passed")
        return 0
    except common.E2EError as error:
        print(f"FAIL: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
