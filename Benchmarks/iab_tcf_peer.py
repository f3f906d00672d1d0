"""Peer benchmark: decodes a corpus of TC strings with the PyPI decoder `iab-tcf`.

The Python side of `scripts/bench`, measured the way `consent bench` measures full decode:

    python3 Benchmarks/iab_tcf_peer.py CORPUS [--seconds S] [--json]

Every non-blank line is decoded with `iab_tcf.decode`, and every vendor set is materialised:
iab-tcf keeps bitfields as {id: bool} dicts but range-encoded sections only as (start, end)
lists, so those are expanded into sets of ids, as our decoder builds a full bitset for each.
The ids of every vendor set are counted into a checksum that should equal the
`vendorIdChecksum` of `consent bench` (consents, legitimate interests, publisher restrictions,
disclosed and allowed vendors). Strings iab-tcf raises on are counted once and left out of the
timed runs. The rate is the median of RUNS runs of at least S seconds each.

Benchmark tooling only; the product never uses it.
"""
import argparse
import json
import statistics
import sys
import time
from importlib import metadata

import iab_tcf

RUNS = 3


def flag_count(flags):
    """The ids set in an iab-tcf bitfield dict; iterating it touches every entry."""
    return sum(1 for on in flags.values() if on) if flags else 0


def range_count(ranges):
    """The ids covered by (start, end) range entries, materialised as a set as our IDSet is."""
    ids = set()
    for start, end in ranges:
        ids.update(range(start, end + 1))
    return len(ids)


def vendor_id_count(consent):
    """Materialises every vendor set of a decoded string and counts its ids."""
    if consent.version == 1:
        # v1 keeps the range entries; materialise them the way its own lookup would answer.
        return sum(1 for i in range(1, consent.max_vendor_id + 1) if consent.is_vendor_allowed(i))
    count = 0
    if consent.is_consent_range_encoding:
        count += range_count(consent.consented_vendors_range)
    else:
        count += flag_count(consent.consented_vendors)
    if consent.is_interests_range_encoding:
        count += range_count(consent.interests_vendors_range)
    else:
        count += flag_count(consent.interests_vendors)
    for entry in consent.pub_restriction_entries:
        count += range_count(entry.restrictions_range)
    # The optional segments exist as attributes only when the string carries them.
    count += flag_count(getattr(consent, "oob_disclosed_vendors", None))
    count += flag_count(getattr(consent, "oob_allowed_vendors", None))
    return count


def timed_run(strings, seconds):
    """Decodes `strings` over and over for at least `seconds`; returns (strings/s, ids per pass)."""
    start = time.perf_counter()
    decoded = 0
    ids_per_pass = None
    while True:
        ids = 0
        for text in strings:
            ids += vendor_id_count(iab_tcf.decode(text))
        decoded += len(strings)
        if ids_per_pass is None:
            ids_per_pass = ids
        elif ids != ids_per_pass:
            raise RuntimeError(f"iab-tcf is not deterministic: {ids} ids, expected {ids_per_pass}")
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return decoded / elapsed, ids_per_pass


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", help="a file with one consent string per line")
    parser.add_argument("--seconds", type=float, default=3.0, help="minimum duration of each timed run")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    args = parser.parse_args()
    if not args.seconds > 0:
        parser.error("--seconds must be a positive number")

    with open(args.corpus, encoding="utf-8") as corpus:
        lines = [line.strip() for line in corpus if line.strip()]
    if not lines:
        parser.error(f"{args.corpus} holds no consent strings")

    # One untimed pass sorts out the strings iab-tcf cannot decode (they are skipped, not timed).
    decodable = []
    failures = 0
    for text in lines:
        try:
            vendor_id_count(iab_tcf.decode(text))
        except Exception:  # the peer's failures are data here, whatever it raises
            failures += 1
        else:
            decodable.append(text)
    if not decodable:
        sys.exit(f"iab-tcf decoded none of the {len(lines)} strings in {args.corpus}")

    runs = [timed_run(decodable, args.seconds) for _ in range(RUNS)]
    rates = [rate for rate, _ in runs]
    report = {
        "decoder": f"iab-tcf {metadata.version('iab-tcf')} (Python {sys.version.split()[0]})",
        "corpus": args.corpus,
        "strings": len(lines),
        "decodeFailures": failures,
        "secondsPerRun": args.seconds,
        "runs": RUNS,
        "statistic": "median",
        "decodeStringsPerSecond": statistics.median(rates),
        "decodeRuns": rates,
        "vendorIdChecksum": runs[0][1],
    }
    if args.json:
        print(json.dumps(report, sort_keys=True))
    else:
        print(f"{report['decoder']} over {args.corpus}")
        print(f"  {len(lines)} strings; {failures} failed to decode and were skipped; "
              f"vendor-id checksum {report['vendorIdChecksum']}")
        print(f"  rates: median of {RUNS} runs of at least {args.seconds} s each")
        print()
        runs_text = ", ".join(f"{rate:,.0f}" for rate in rates)
        print(f"{'full decode':<28}{report['decodeStringsPerSecond']:>12,.0f}  strings/s  (runs: {runs_text})")


if __name__ == "__main__":
    main()
