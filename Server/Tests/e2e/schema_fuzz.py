#!/usr/bin/env python3
"""Schema fuzzing of a running consentd against Server/openapi.yaml with schemathesis.

Starts consentd (SQLite in a temporary directory, or --database URL) with a publishers file it
writes and rate limits off, creates a secret key and a few subjects, and runs `schemathesis run`
against the contract with `Authorization: Bearer <secret key>`: positive and negative cases,
--max-examples per operation, within --max-time seconds. The console's routes are fuzzed signed
in: an owner made with `consent operators create` signs in, and the run sends its session cookie
and CSRF token; sign-in and sign-out get a second, short pass without the cookie (a sign-in ends
the session its cookie names). At least one console route must answer 2xx.

schemathesis must be installed beforehand, at the version pinned in Tests/python/requirements.txt
(scripts/python-tools installs it; scripts/test runs that first). Without it the run fails in CI
(CI=true) and elsewhere is skipped with the reason and exit status 0.

Every check in --checks runs (default: not_a_server_error, status_code_conformance,
content_type_conformance, response_headers_conformance, response_schema_conformance,
negative_data_rejection, positive_data_acceptance); the summary says which passed. The run
fails when a check in --fail-on fails (default: not_a_server_error, status_code_conformance,
content_type_conformance, response_headers_conformance, response_schema_conformance), when
any response was a 5xx (read from the HAR report, whatever the checks), or when the server
logged "request failed".

    python3 Server/Tests/e2e/schema_fuzz.py [--bin DIR] [--max-examples 50] [--max-time 120]
        [--checks LIST] [--fail-on LIST] [--seed N] [--report-dir DIR] [--keep] [-- SCHEMATHESIS ARGS]

negative_data_rejection also takes 413 as a rejection (a schema-violating body over 64 KiB is
refused with the documented payload_too_large), and flags POST /v1/consents/batch whenever only
an event breaks the schema: by design the batch is answered 200 and that event refused in its
result; positive_data_acceptance flags the documented business-rule 400s the schema cannot
express (unknown publisher ids, collectedAt before 2018-05-25 or in the future, cursors the
server never handed out), which is why neither gates.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import (  # noqa: E402
    REPO_ROOT,
    Client,
    Consentd,
    E2EError,
    TempDir,
    add_common_arguments,
    console_sign_in,
    create_key,
    create_operator,
    make_event,
    resolve_bin_dir,
    run_id,
    wait_for_health,
)

SCHEMA = REPO_ROOT / "Server" / "openapi.yaml"
ALL_CHECKS = [
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_headers_conformance",
    "response_schema_conformance",
    "negative_data_rejection",
    "positive_data_acceptance",
]
DEFAULT_FAIL_ON = [
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_headers_conformance",
    "response_schema_conformance",
]
# The check behind each failure type of schemathesis' JSON report (schemathesis/failure_codes.py).
FAILURE_TYPE_TO_CHECK = {
    "ServerError": "not_a_server_error",
    "ContentTypeServerError": "not_a_server_error",
    "UndefinedStatusCode": "status_code_conformance",
    "MissingContentType": "content_type_conformance",
    "UndefinedContentType": "content_type_conformance",
    "MalformedMediaType": "content_type_conformance",
    "MissingHeaders": "response_headers_conformance",
    "JsonSchemaError": "response_schema_conformance",
    "MalformedJson": "response_schema_conformance",
    "ContentDeserializationError": "response_schema_conformance",
    "DiscriminatorMismatch": "response_schema_conformance",
    "AcceptedNegativeData": "negative_data_rejection",
    "RejectedPositiveData": "positive_data_acceptance",
    "MissingHeaderNotRejected": "missing_required_header",
    "UnsupportedMethodResponse": "unsupported_method",
    "AllowHeaderMismatch": "allow_header_conformance",
    "UseAfterFree": "use_after_free",
    "EnsureResourceAvailability": "ensure_resource_availability",
    "IgnoredAuth": "ignored_auth",
    "ObjectLevelAuthorizationViolation": "object_level_authorization",
    "ResponseTimeExceeded": "max_response_time",
}
# schemathesis' own list of rejections plus 413: a body over 64 KiB (which a long enough
# schema-violating string makes) is refused with the documented 413 payload_too_large.
SCHEMATHESIS_TOML = """\
[checks.negative_data_rejection]
expected-statuses = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422", "428", "429", "5xx"]
"""
PUBLISHERS_YAML = """\
publishers:
  - id: pub-1
    name: Example
    apps: [{app}]
    vendorIds: [1, 755]
    adTechProviders:
      - id: 89
        name: Ads
        privacyPolicyUrl: "https://example.com/p"
"""
# The console operator the signed-in pass acts as.
OWNER_EMAIL = "fuzz-owner@example.com"
OWNER_PASSWORD = "fuzzing passphrase 42"
# Runs the schemathesis CLI with this interpreter, whatever PATH holds.
CLI = "import sys; from schemathesis.cli import schemathesis; sys.argv[0] = 'schemathesis'; sys.exit(schemathesis())"


MISSING = ("schemathesis is not installed for " + sys.executable
           + "; install the test tools with scripts/python-tools (Tests/python/requirements.txt)")


def schemathesis_version() -> str:
    version = subprocess.run([sys.executable, "-c", CLI, "--version"], capture_output=True, text=True)
    if version.returncode != 0:
        raise E2EError(f"schemathesis does not run: {version.stderr}")
    return version.stdout.strip()


def check_name(failure: dict) -> str:
    """The check behind one failure group of the JSON report."""
    kind = failure.get("type") or ""
    return FAILURE_TYPE_TO_CHECK.get(kind, f"{kind or failure.get('code', '?')}")


def read_har(har_path: Path, only: str | None = None) -> tuple[dict[int, int], list[dict]]:
    """The count of each response status in the HAR report, and every 5xx exchange (of the
    requests whose URL contains `only`, when given)."""
    try:
        har = json.loads(har_path.read_text())
    except (OSError, ValueError) as error:
        raise E2EError(f"cannot read the HAR report {har_path}: {error}")
    statuses: dict[int, int] = {}
    found = []
    for entry in har.get("log", {}).get("entries", []):
        response = entry.get("response", {})
        if only is not None and only not in (entry.get("request") or {}).get("url", ""):
            continue
        status = int(response.get("status", 0))
        statuses[status] = statuses.get(status, 0) + 1
        if status >= 500 or status == 0:
            request = entry.get("request", {})
            found.append({
                "method": request.get("method"),
                "url": request.get("url"),
                "body": (request.get("postData") or {}).get("text"),
                "status": response.get("status"),
                "response": (response.get("content") or {}).get("text"),
            })
    return dict(sorted(statuses.items())), found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    add_common_arguments(parser)
    parser.add_argument("--max-examples", type=int, default=50, help="test cases per operation and phase (default 50)")
    parser.add_argument("--max-time", type=int, default=120, help="time budget of the schemathesis run in seconds (default 120)")
    parser.add_argument("--checks", default=",".join(ALL_CHECKS), help="schemathesis checks to run")
    parser.add_argument("--fail-on", default=",".join(DEFAULT_FAIL_ON),
                        help="checks whose failure fails this script (not_a_server_error always does)")
    parser.add_argument("--mode", default="all", choices=["positive", "negative", "all"], help="generation mode (default all)")
    parser.add_argument("--phases", default="examples,coverage,fuzzing", help="schemathesis phases")
    parser.add_argument("--workers", default="1", help="schemathesis workers (default 1)")
    parser.add_argument("--seed", type=int, help="schemathesis seed, for a reproducible run")
    parser.add_argument("--report-dir", help="where to keep schemathesis' reports (default: the temporary directory)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    parser.add_argument("extra", nargs="*", metavar="-- ARG", help="more arguments for `schemathesis run`")
    args = parser.parse_args()
    # scripts/test runs this in the background and stops it with SIGTERM when the run fails
    # elsewhere: exiting through Python's exit lets the `with` blocks stop consentd and schemathesis.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    checks = [c.strip() for c in args.checks.split(",") if c.strip()]
    fail_on = set(c.strip() for c in args.fail_on.split(",") if c.strip()) | {"not_a_server_error"}
    if "not_a_server_error" not in checks:
        checks.insert(0, "not_a_server_error")

    if importlib.util.find_spec("schemathesis") is None:
        if os.environ.get("CI") == "true":
            print(f"FAIL: {MISSING}; CI runs every test", file=sys.stderr)
            return 1
        print(f"SKIP: {MISSING}")
        return 0
    try:
        print(schemathesis_version())
        bin_dir = resolve_bin_dir(args.bin)
        temp = TempDir("consentd-fuzz-", args.keep)
        with temp as workdir:
            app = f"fuzz-{run_id()}"
            publishers = workdir / "publishers.yaml"
            publishers.write_text(PUBLISHERS_YAML.replace("{app}", app))
            server = Consentd(bin_dir, workdir, database=args.database, publishers=publishers)
            secret = create_key(bin_dir, app, "secret", server.database)
            report_dir = Path(args.report_dir).resolve() if args.report_dir else workdir / "report"
            report_dir.mkdir(parents=True, exist_ok=True)
            with server:
                server.start()
                client = Client.for_server(server, token=secret)
                wait_for_health(client)
                # A few subjects, so the reads that guess these ids find something.
                for subject in ("user-1", "a", "0", "customer-user-42"):
                    client.post_event(make_event(subject))
                # The console's routes are fuzzed signed in, as an owner (every route open to it),
                # with the session's CSRF token. Sign-in and sign-out run in a second pass without
                # the cookie: a sign-in ends the session its request's cookie names, and a
                # sign-out would end the session the first pass needs.
                create_operator(bin_dir, OWNER_EMAIL, "owner", OWNER_PASSWORD, server.database)
                console = console_sign_in(client, OWNER_EMAIL, OWNER_PASSWORD)
                client.close()
                print(f"consentd at {server.url} (pid {server.pid}), database {server.database}, app {app}, console owner {OWNER_EMAIL}")
                config = workdir / "schemathesis.toml"
                config.write_text(SCHEMATHESIS_TOML)
                passes = [
                    ("signed-in", [f"Authorization: Bearer {secret}", f"Cookie: {console['Cookie']}",
                                   f"X-CSRF-Token: {console['X-CSRF-Token']}"],
                     ["--exclude-operation-id", "signInToConsole", "--exclude-operation-id", "signOutOfConsole",
                      # Its answer is a vendor's server on the internet, which test machines cannot
                      # reach: every call would be the documented 502. Its checks are in
                      # StorageDisclosureAPITests and Tests/notice (a vendor's server on loopback).
                      "--exclude-operation-id", "getStorageDisclosure"]),
                    ("console sign-in", [f"Authorization: Bearer {secret}"],
                     ["--include-operation-id", "signInToConsole", "--include-operation-id", "signOutOfConsole"]),
                ]
                outputs, reports, elapsed = [], [], 0.0
                for index, (label, headers, selection) in enumerate(passes):
                    pass_dir = report_dir / f"pass-{index + 1}"
                    pass_dir.mkdir(parents=True, exist_ok=True)
                    command = [sys.executable, "-c", CLI, "--config-file", str(config), "run", str(SCHEMA), "--url", server.url]
                    for header in headers:
                        command += ["--header", header]
                    command += [
                        "--checks", ",".join(checks),
                        "--max-examples", str(args.max_examples),
                        "--max-time", str(args.max_time),
                        "--mode", args.mode,
                        "--phases", args.phases,
                        "--workers", args.workers,
                        "--request-timeout", "10",
                        "--continue-on-failure",
                        "--suppress-health-check", "all",
                        "--generation-database", "none",
                        "--no-color",
                        "--output-sanitize", "false",
                        "--report", "json,har,junit",
                        "--report-json-path", str(pass_dir / "report.json"),
                        "--report-har-path", str(pass_dir / "report.har"),
                        "--report-junit-path", str(pass_dir / "junit.xml"),
                    ] + selection
                    if args.seed is not None:
                        command += ["--seed", str(args.seed)]
                    command += args.extra
                    shown = [part if not part.startswith(("Authorization", "Cookie", "X-CSRF-Token")) else part.split(":")[0] + ": <secret>"
                             for part in command[3:]]
                    print(f"$ schemathesis ({label}) " + " ".join(shown), flush=True)
                    started = time.monotonic()
                    process = subprocess.run(command, capture_output=True, text=True,
                                             timeout=args.max_time + 300, cwd=workdir)
                    elapsed += time.monotonic() - started
                    output = process.stdout + process.stderr
                    (pass_dir / "schemathesis-output.txt").write_text(output)
                    print(output)
                    print(f"schemathesis ({label}) exited {process.returncode}")
                    outputs.append(output)
                    reports.append(pass_dir)
                server_alive = server.alive()
            stderr_text = "".join(p.read_text(errors="replace") for p in workdir.glob("stderr-*.log"))

            print(f"schemathesis ran {elapsed:.0f} s in {len(reports)} passes; reports in {report_dir}")
            report = {"failures": [], "errors": [], "test_cases": {}}
            for pass_dir in reports:
                try:
                    part = json.loads((pass_dir / "report.json").read_text())
                except (OSError, ValueError) as error:
                    raise E2EError(f"no JSON report from schemathesis in {pass_dir} ({error}); its output is above")
                report["failures"] += part.get("failures", [])
                report["errors"] += part.get("errors", [])
                for key, value in (part.get("test_cases") or {}).items():
                    if isinstance(value, int):
                        report["test_cases"][key] = report["test_cases"].get(key, 0) + value
            failed_checks: dict[str, list[dict]] = {}
            for failure in report.get("failures", []):
                failed_checks.setdefault(check_name(failure), []).append(failure)
            cases = report.get("test_cases", {})
            print(f"test cases generated: {cases.get('generated')}, with failures: {cases.get('with_failures')}, "
                  f"unique failures: {cases.get('unique_failures')}, errored: {cases.get('errored')}")
            print("checks:")
            for check in checks:
                groups = failed_checks.get(check, [])
                verdict = "FAILED" if groups else "passed"
                gate = " (gating)" if check in fail_on else ""
                print(f"  {check:<30} {verdict}{gate}")
                for group in groups:
                    print(f"      {group.get('code')} {group.get('title')} x{group.get('count')}: "
                          f"{', '.join(group.get('operations', []))}")
            other = [name for name in failed_checks if name not in checks]
            for name in other:
                for group in failed_checks[name]:
                    print(f"  other failure {name}: {group.get('title')} x{group.get('count')}: "
                          f"{', '.join(group.get('operations', []))}")
            for error in report.get("errors", []):
                print(f"  error: {error.get('title')} x{error.get('count')}")

            problems: list[str] = []
            statuses, fivexx = {}, []
            console_statuses: dict[int, int] = {}
            for pass_dir in reports:
                part_statuses, part_fivexx = read_har(pass_dir / "report.har")
                for status, count in part_statuses.items():
                    statuses[status] = statuses.get(status, 0) + count
                fivexx += part_fivexx
                for status, count in read_har(pass_dir / "report.har", only="/v1/console/")[0].items():
                    console_statuses[status] = console_statuses.get(status, 0) + count
            statuses = dict(sorted(statuses.items()))
            print(f"responses by status: {statuses}")
            print(f"console responses by status: {dict(sorted(console_statuses.items()))}")
            if not any(200 <= status < 300 for status in console_statuses):
                problems.append("no console route answered 2xx: the signed-in pass did not reach them")
            if fivexx:
                problems.append(f"{len(fivexx)} responses were 5xx")
                for item in fivexx[:20]:
                    print(f"  5xx: {item['status']} {item['method']} {item['url']} body={item['body']!r:.300} "
                          f"-> {item['response']!r:.300}")
            for check in sorted(fail_on):
                if check in failed_checks:
                    problems.append(f"check {check} failed")
            if report.get("errors"):
                problems.append(f"schemathesis reported errors: {report['errors']}")
            if "request failed" in stderr_text:
                lines = [line for line in stderr_text.splitlines() if "request failed" in line]
                problems.append(f"the server logged {len(lines)} 'request failed' errors")
                for line in lines[:10]:
                    print(f"  server: {line[:400]}")
            if not server_alive:
                problems.append("consentd died during the run")
            if not cases.get("generated"):
                problems.append("schemathesis generated no test case")
            if problems:
                temp.keep = True
                for problem in problems:
                    print(f"FAIL: {problem}", file=sys.stderr)
                return 1
        print("PASS: no 5xx, and every gating check held")
        return 0
    except E2EError as error:
        print(f"FAIL: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
