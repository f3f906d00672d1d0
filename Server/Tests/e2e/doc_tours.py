#!/usr/bin/env python3
"""Runs the command tours of README.md and docs/consentd-api.md the way a reader pastes them.

A tour is the fenced `sh` blocks that follow the comment `<!-- tour: NAME -->` in one Markdown
file, in the order they appear there. A fenced block that follows `<!-- tour: NAME output -->`
is what the tour's latest command prints on stdout, line for line; `…` in a line stands for any
text. Tour blocks hold commands only, one per line (a line may end in `\\`, a here-document runs
to its end marker), and no `#` comments: zsh, the macOS shell, does not take comments typed at
its prompt.

Each tour runs in bash, in a fresh copy of the repository's tracked files (as a new clone has
them), one command at a time. Every command must exit 0, every shown output must match, and when
the tour ends nothing it started may still run. What differs from pasting, and nothing else:

  * `swift` on PATH is a stand-in that builds nothing: `swift build --package-path Server`
    succeeds at once, with `--show-bin-path` it prints the directory of binaries already built
    (--bin DIR, else $CONSENTD_BIN, else `swift build --package-path Server --show-bin-path`),
    and `swift run --package-path Server PRODUCT ARGS…` runs that directory's PRODUCT;
  * every `8080` in a tour (as a word of its own) becomes a free port, so that a consentd
    already listening on this machine does not answer in the tour's place;
  * DATABASE_URL and the CONSENTD_* variables are removed from the environment, and
    CONSENTD_VENDOR_LIST_UPDATES=false is set, so that no tour reaches the internet.

    python3 Server/Tests/e2e/doc_tours.py [--bin DIR] [--keep] [--list] [FILE…]

FILE… (default: README.md and docs/consentd-api.md, each of which must hold a tour) restricts the
run to those files. Exits 1 on any failure; the copy is then kept for a look, as with --keep.
"""
from __future__ import annotations

import argparse
import os
import queue
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import REPO_ROOT, E2EError, resolve_bin_dir  # noqa: E402

DEFAULT_FILES = ("README.md", "docs/consentd-api.md")
MARKER = re.compile(r"^<!--\s*tour:\s*([A-Za-z0-9_.-]+)(\s+output)?\s*-->\s*$")
FENCE = re.compile(r"^(`{3,}|~{3,})\s*([A-Za-z0-9_+-]*)")
HEREDOC = re.compile(r"<<-?\s*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\1")
DOCUMENTED_PORT = "8080"
PORT_PATTERN = re.compile(r"(?<![0-9A-Za-z])8080(?![0-9A-Za-z])")
STEP_DONE = "@@doc-tour-step-done "


# --------------------------------------------------------------------------- reading the tours


@dataclass
class Step:
    """One command of a tour and the output shown for it, if any."""

    source: str  # file:line of its first line
    text: str
    expected: list[str] | None = None
    expected_source: str | None = None


@dataclass
class Tour:
    name: str
    path: Path
    steps: list[Step] = field(default_factory=list)

    @property
    def label(self) -> str:
        return f"{self.path.relative_to(REPO_ROOT)} tour '{self.name}'"


def fenced_block(lines: list[str], start: int, where: str) -> tuple[str, list[str], int]:
    """The fenced block opening at `start` (after blank lines): its info string, its lines, and
    the index after its closing fence."""
    index = start
    while index < len(lines) and not lines[index].strip():
        index += 1
    opening = FENCE.match(lines[index]) if index < len(lines) else None
    if not opening:
        raise E2EError(f"{where}: a tour marker must be followed by a fenced code block")
    fence, info = opening.group(1), opening.group(2)
    body: list[str] = []
    index += 1
    while index < len(lines):
        if lines[index].startswith(fence[0] * len(fence)) and not lines[index].strip(fence[0]).strip():
            return info, body, index + 1
        body.append(lines[index])
        index += 1
    raise E2EError(f"{where}: the fenced block is not closed")


def split_commands(body: list[str], first_line: int, relative: str) -> list[Step]:
    """Splits a tour block into commands: one a line, longer across `\\` line ends and
    here-documents. Comments are refused (zsh does not take them at its prompt)."""
    steps: list[Step] = []
    index = 0
    while index < len(body):
        line = body[index]
        where = f"{relative}:{first_line + index}"
        if not line.strip():
            index += 1
            continue
        if line.lstrip().startswith("#") or re.search(r"\s#", line):
            raise E2EError(f"{where}: a tour block holds commands only, no `#` comments "
                           "(pasted into zsh they run as commands); put notes in the prose")
        command = [line]
        pending = [match.group(2) for match in HEREDOC.finditer(line)]
        while command[-1].endswith("\\") and index + 1 < len(body):
            index += 1
            command.append(body[index])
            pending += [match.group(2) for match in HEREDOC.finditer(body[index])]
        for terminator in pending:
            while True:
                index += 1
                if index >= len(body):
                    raise E2EError(f"{where}: the here-document never reaches its end marker {terminator}")
                command.append(body[index])
                if body[index].strip() == terminator:
                    break
        text = "\n".join(command)
        check = subprocess.run(["bash", "-n"], input=text, capture_output=True, text=True)
        if check.returncode != 0:
            raise E2EError(f"{where}: not one complete command ({check.stderr.strip()}); "
                           "a tour block holds one command a line")
        steps.append(Step(where, text))
        index += 1
    return steps


def read_tours(path: Path) -> list[Tour]:
    """Every tour of one Markdown file, in order of first appearance."""
    relative = str(path.relative_to(REPO_ROOT))
    lines = path.read_text(encoding="utf-8").split("\n")
    tours: dict[str, Tour] = {}
    index = 0
    while index < len(lines):
        marker = MARKER.match(lines[index].strip())
        if not marker:
            index += 1
            continue
        name, is_output = marker.group(1), bool(marker.group(2))
        where = f"{relative}:{index + 1}"
        info, body, after = fenced_block(lines, index + 1, where)
        block_start = after - len(body)  # 1-based line number of the block's first line
        if is_output:
            tour = tours.get(name)
            if tour is None or not tour.steps:
                raise E2EError(f"{where}: output shown for tour '{name}' before any of its commands")
            step = tour.steps[-1]
            if step.expected is not None:
                raise E2EError(f"{where}: a second output for the command at {step.source}")
            step.expected, step.expected_source = body, where
        else:
            if info not in ("sh", "bash", "shell"):
                raise E2EError(f"{where}: a tour block must be fenced as sh, not {info or 'nothing'}")
            tour = tours.setdefault(name, Tour(name, path))
            tour.steps += split_commands(body, block_start, relative)
        index = after
    return list(tours.values())


# --------------------------------------------------------------------------- the stand-ins


SWIFT_SHIM = r"""#!/usr/bin/env bash
# Written by Server/Tests/e2e/doc_tours.py: stands in for `swift` while a documentation tour runs,
# so that the tour uses the binaries already built instead of building them again.
bin=@BIN@
refuse() { echo "doc_tours.py's swift stand-in does not know: swift $*" >&2; exit 127; }
[ "$#" -ge 1 ] || refuse
verb=$1; shift
all=("$@")
package="" show=0
while [ "$#" -gt 0 ]; do
    case "$1" in
        --package-path) package=${2:-}; shift 2 || refuse "$verb" "${all[@]}";;
        --show-bin-path) show=1; shift;;
        -q|--quiet) shift;;
        -*) refuse "$verb" "${all[@]}";;
        *) break;;
    esac
done
[ "$package" = Server ] || refuse "$verb" "${all[@]}"
case "$verb" in
    build)
        [ "$#" -eq 0 ] || refuse "$verb" "${all[@]}"
        if [ "$show" = 1 ]; then echo "$bin"; fi
        exit 0;;
    run)
        [ "$show" = 0 ] && [ "$#" -ge 1 ] || refuse "$verb" "${all[@]}"
        case "$1" in consentd|consent) ;; *) refuse "$verb" "${all[@]}";; esac
        product=$1; shift
        exec "$bin/$product" "$@";;
    *) refuse "$verb" "${all[@]}";;
esac
"""


def write_swift_shim(directory: Path, bin_dir: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    shim = directory / "swift"
    shim.write_text(SWIFT_SHIM.replace("@BIN@", "'" + str(bin_dir).replace("'", "'\\''") + "'"))
    shim.chmod(0o755)


def copy_tracked_files(destination: Path) -> int:
    """Copies the repository's tracked files, as they are in the working tree, to `destination`."""
    try:
        listing = subprocess.run(["git", "-C", str(REPO_ROOT), "ls-files", "-z"], capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError) as error:
        raise E2EError(f"cannot list the repository's files with git ls-files: {error}") from error
    count = 0
    for name in listing.stdout.decode().split("\0"):
        if not name:
            continue
        source = REPO_ROOT / name
        if not os.path.lexists(source) or source.is_dir():
            continue  # deleted in the working tree, or a submodule
        target = destination / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target, follow_symlinks=False)
        count += 1
    return count


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def tour_environment(shim_dir: Path, logs: Path) -> dict[str, str]:
    environment = {key: value for key, value in os.environ.items()
                   if key != "DATABASE_URL" and not key.startswith("CONSENTD_")}
    environment["PATH"] = f"{shim_dir}{os.pathsep}{environment.get('PATH', '')}"
    environment["DOC_TOUR_LOGS"] = str(logs)
    # The tours run as pasted, but never reach the internet: no vendor-list updates.
    environment["CONSENTD_VENDOR_LIST_UPDATES"] = "false"
    return environment


# --------------------------------------------------------------------------- running a tour


def line_matches(pattern: str, line: str) -> bool:
    regex = ".*".join(re.escape(part) for part in pattern.split("…"))
    return re.fullmatch(regex, line, flags=re.DOTALL) is not None


def output_mismatch(expected: list[str], actual: str) -> str | None:
    """Why `actual` is not the shown output, or None when it is."""
    lines = actual[:-1].split("\n") if actual.endswith("\n") else actual.split("\n")
    if actual == "":
        lines = []
    while expected and not expected[-1].strip():
        expected = expected[:-1]
    if len(lines) != len(expected):
        return f"it printed {len(lines)} line(s), the tour shows {len(expected)}"
    for number, (pattern, line) in enumerate(zip(expected, lines), start=1):
        if not line_matches(pattern, line):
            return f"line {number} differs:\n    shown:   {pattern}\n    printed: {line}"
    return None


def processes_in_group(pgid: int) -> list[str]:
    """`pid command` of the live (not zombie) processes in a process group."""
    listing = subprocess.run(["ps", "-A", "-o", "pid=", "-o", "pgid=", "-o", "stat=", "-o", "args="],
                             capture_output=True, text=True)
    found = []
    for row in listing.stdout.splitlines():
        parts = row.split(None, 3)
        if len(parts) >= 3 and parts[1] == str(pgid) and not parts[2].startswith("Z"):
            found.append(f"{parts[0]} {parts[3] if len(parts) > 3 else ''}".strip())
    return found


def end_group(pgid: int) -> None:
    """Ends what is left of the tour's own process group (SIGTERM, then SIGKILL)."""
    for sig, grace in ((signal.SIGTERM, 10.0), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(pgid, sig)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline and processes_in_group(pgid):
            time.sleep(0.2)
        if not processes_in_group(pgid):
            return


def show_text(title: str, text: str, limit: int = 3000) -> str:
    if not text:
        return f"  {title}: (nothing)"
    body = text if len(text) <= limit else "…" + text[-limit:]
    return f"  {title}:\n" + "\n".join("    " + line for line in body.rstrip("\n").split("\n"))


def run_tour(tour: Tour, bin_dir: Path, workdir: Path, step_timeout: float) -> None:
    clone = workdir / "clone"
    logs = workdir / "logs"
    shim_dir = workdir / "shim"
    clone.mkdir()
    logs.mkdir()
    copied = copy_tracked_files(clone)
    write_swift_shim(shim_dir, bin_dir)
    port = str(free_port())
    print(f"== {tour.label}: {len(tour.steps)} commands in a copy of {copied} tracked files, port {DOCUMENTED_PORT} → {port}")
    bash_errors = open(logs / "bash.err", "wb")
    shell = subprocess.Popen(
        ["bash", "--noprofile", "--norc"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=bash_errors,
        cwd=clone, env=tour_environment(shim_dir, logs), start_new_session=True,
    )
    pgid = shell.pid
    lines: queue.Queue = queue.Queue()

    def pump() -> None:
        for raw in iter(shell.stdout.readline, b""):
            lines.put(raw.decode("utf-8", "replace").rstrip("\n"))
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    try:
        for number, step in enumerate(tour.steps, start=1):
            text = PORT_PATTERN.sub(port, step.text)
            out, err = logs / f"{number:03d}.out", logs / f"{number:03d}.err"
            first_line = step.text.split("\n", 1)[0]
            print(f"  $ {first_line if len(first_line) <= 110 else first_line[:107] + '...'}")
            shell.stdin.write(
                (f"{{\n{text}\n}} </dev/null >\"$DOC_TOUR_LOGS/{out.name}\" 2>\"$DOC_TOUR_LOGS/{err.name}\"\n"
                 f"printf '{STEP_DONE}%s\\n' \"$?\"\n").encode())
            shell.stdin.flush()
            status = None
            deadline = time.monotonic() + step_timeout
            while status is None:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise E2EError(f"{step.source}: the command did not finish within {step_timeout:.0f} s\n"
                                   + show_text("stdout", out.read_text(errors="replace") if out.exists() else "")
                                   + "\n" + show_text("stderr", err.read_text(errors="replace") if err.exists() else ""))
                try:
                    line = lines.get(timeout=min(remaining, 0.5))
                except queue.Empty:
                    continue
                if line is None:
                    raise E2EError(f"{step.source}: the shell ended during the command\n"
                                   + show_text("shell stderr", (logs / "bash.err").read_text(errors="replace")))
                if line.startswith(STEP_DONE):
                    status = int(line[len(STEP_DONE):])
            printed = out.read_text(errors="replace")
            errors = err.read_text(errors="replace")
            if status != 0:
                raise E2EError(f"{step.source}: the command exited {status}\n{show_text('stdout', printed)}\n"
                               f"{show_text('stderr', errors)}")
            if step.expected is not None:
                expected = [PORT_PATTERN.sub(port, line) for line in step.expected]
                why = output_mismatch(expected, printed)
                if why:
                    raise E2EError(f"{step.source}: the output does not match the one shown at "
                                   f"{step.expected_source}: {why}\n{show_text('stdout', printed)}\n"
                                   f"{show_text('stderr', errors)}")
                print(f"    output as shown ({len(expected)} line(s))")
        shell.stdin.close()
        try:
            shell.wait(timeout=30)
        except subprocess.TimeoutExpired:
            raise E2EError("the shell did not end after the tour's last command")
        deadline = time.monotonic() + 20
        left = processes_in_group(pgid)
        while left and time.monotonic() < deadline:
            time.sleep(0.2)
            left = processes_in_group(pgid)
        if left:
            raise E2EError("the tour leaves processes running (a tour stops what it starts):\n"
                           + "\n".join("    " + entry for entry in left))
    finally:
        end_group(pgid)
        if shell.poll() is None:
            shell.wait(timeout=10)
        bash_errors.close()


# --------------------------------------------------------------------------- main


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("files", nargs="*", metavar="FILE",
                        help=f"Markdown files, relative to the repository root (default: {', '.join(DEFAULT_FILES)})")
    parser.add_argument("--bin", metavar="DIR", help="directory holding consentd and consent "
                        "(default: $CONSENTD_BIN, else `swift build --package-path Server --show-bin-path`)")
    parser.add_argument("--keep", action="store_true", help="keep each tour's copy and logs")
    parser.add_argument("--list", action="store_true", help="print the tours' commands and shown outputs; run nothing")
    parser.add_argument("--step-timeout", type=float, default=120, metavar="SECONDS",
                        help="longest a single command may take (default 120)")
    args = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)  # progress and failures interleave in order
    files = args.files or list(DEFAULT_FILES)
    try:
        tours: list[Tour] = []
        for name in files:
            path = (REPO_ROOT / name).resolve()
            if not path.is_file():
                raise E2EError(f"{name}: no such file in {REPO_ROOT}")
            found = read_tours(path)
            if not found:
                raise E2EError(f"{name}: holds no tour (a fenced sh block after <!-- tour: NAME -->)")
            tours += found
        if args.list:
            for tour in tours:
                print(f"== {tour.label}")
                for step in tour.steps:
                    print(f"-- {step.source}\n{step.text}")
                    if step.expected is not None:
                        print("\n".join(f"   → {line}" for line in step.expected))
            return 0
        missing = [tool for tool in ("bash", "curl", "sed", "git", "ps") if shutil.which(tool) is None]
        if missing:
            raise E2EError(f"the tours need {', '.join(missing)} on PATH")
        bin_dir = resolve_bin_dir(args.bin)
        failures = []
        for tour in tours:
            workdir = Path(tempfile.mkdtemp(prefix=f"doc-tour-{tour.name}-"))
            try:
                started = time.monotonic()
                run_tour(tour, bin_dir, workdir, args.step_timeout)
                print(f"   passed in {time.monotonic() - started:.1f} s")
            except E2EError as error:
                failures.append(f"{tour.label}: {error}")
                print(f"FAIL {tour.label}: {error}\n   kept {workdir}", file=sys.stderr)
                continue
            if args.keep:
                print(f"   kept {workdir}")
            else:
                shutil.rmtree(workdir, ignore_errors=True)
        if failures:
            print(f"doc tours: {len(failures)} of {len(tours)} failed", file=sys.stderr)
            return 1
        print(f"doc tours: all {len(tours)} passed")
        return 0
    except E2EError as error:
        print(f"FAIL: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
