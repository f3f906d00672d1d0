#!/usr/bin/env python3
"""Collects the GPP strings that the GPP reference implementations' tests and the GPP spec carry into
Fixtures/gpp/reference-strings.txt (one string per line, `#` lines naming the source of each group).

Run once by hand when the references change, not by the tests (they read the file it writes):

    Fixtures/gpp/collect-reference-strings.py \
        --iabgpp-java GIT_DIR@COMMIT [--iabgpp-java GIT_DIR@COMMIT] --go-gpp GIT_DIR@COMMIT --iabgpp-es GIT_DIR@COMMIT \
        --spec GLOBAL_PRIVACY_PLATFORM_DIR --spec-commit COMMIT > Fixtures/gpp/reference-strings.txt

GIT_DIR is a clone's git directory (a bare mirror will do); the files are read with `git show`.
What counts as a test string: a string literal (adjacent literals joined with `+` are one) made of
base64url characters, `~` and `.` that a test hands to a decoder (`new GppModel("…")`, `new UsNat("…")`,
`.decode("…")`, `gppString: "…"`, …) or expects from an encoder (`assertEquals("…", x.encode())`,
`expect(x.encode()).to.eql("…")`). A string of a section test (one section's text, such as
`BVVqAAEABA.QA` in UsNatTest) is wrapped into a whole GPP string with a header listing that section's
id (`DBABLA~BVVqAAEABA.QA`), so that every line is a GPP string. Each string appears once, at its first
source. Test tooling only.
"""
import argparse
import os
import re
import subprocess
import sys

# Section test files (by the class name in their file name) and the section id they exercise.
SECTION_IDS = {
    "TcfEuV2": 2, "TcfCaV1": 5, "UspV1": 6, "UsNat": 7, "UsCa": 8, "UsVa": 9, "UsCo": 10, "UsUt": 11,
    "UsCt": 12, "UsFl": 13, "UsMt": 14, "UsOr": 15, "UsTx": 16, "UsDe": 17, "UsIa": 18, "UsNe": 19,
    "UsNh": 20, "UsNj": 21, "UsTn": 22, "UsMn": 23, "UsMd": 24, "UsIn": 25, "UsKy": 26, "UsRi": 27,
    # iabgpp-es's stale tests of the California and Connecticut classes' old names.
    "UspCaV1": 8, "UspCtV1": 12,
    # go-gpp's package names.
    "uspnat": 7, "uspca": 8, "uspva": 9, "uspco": 10, "usput": 11, "uspct": 12,
}

LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"|\'((?:[^\'\\\n]|\\.)*)\'')
GPP_TEXT = re.compile(r"^[A-Za-z0-9_~.-]+$")
# What comes right before a literal that a decoder is given, or that an encoder must produce.
DECODE_BEFORE = re.compile(
    r"(new\s+\w+\(|\.decode\(|decodeSection\([^()]*,|\bgppString\s*:|\bgppString\s*=|\b\w+\s*=|"
    r"failFastHeaderValidate\(|\bParse\(|\.eql\(|assertEquals\()\s*$"
)
ENCODE_AFTER = re.compile(r"^\s*,\s*[\w.]+\.encode\(\)\s*\)")


def git_show(spec, path):
    git_dir, commit = spec.split("@")
    return subprocess.run(["git", "--git-dir", git_dir, "show", f"{commit}:{path}"],
                          check=True, capture_output=True, text=True).stdout


def git_files(spec, folder, suffix):
    git_dir, commit = spec.split("@")
    names = subprocess.run(["git", "--git-dir", git_dir, "ls-tree", "-r", "--name-only", commit] + ([folder] if folder else []),
                           check=True, capture_output=True, text=True).stdout.split()
    return sorted(name for name in names if name.endswith(suffix))


def literals(source):
    """(text, start, end) of each string literal, adjacent literals joined by `+` merged."""
    found = []
    for match in LITERAL.finditer(source):
        text = match.group(1) if match.group(1) is not None else match.group(2)
        if found and re.fullmatch(r"\s*\+\s*", source[found[-1][2]:match.start()]):
            previous = found.pop()
            found.append((previous[0] + text, previous[1], match.end()))
        else:
            found.append((text, match.start(), match.end()))
    return found


def test_strings(source):
    """The literals a test decodes or expects an encoder to produce."""
    strings = []
    for text, start, end in literals(source):
        if not GPP_TEXT.match(text):
            continue
        before = source[max(0, start - 80):start]
        after = source[end:end + 80]
        if before.rstrip().endswith("assertEquals("):
            if not ENCODE_AFTER.match(after):
                continue  # an expected field value, not a string
        elif before.rstrip().endswith(".eql("):
            if not re.search(r"\.encode\(\)\)\.to\.eql\($", before.rstrip()):
                continue
        elif not DECODE_BEFORE.search(before):
            continue
        strings.append(text)
    return strings


def fibonacci(n):
    """Zeckendorf bits of n > 0, least significant first, with the closing 1."""
    fibs = [1, 2]
    while fibs[-1] <= n:
        fibs.append(fibs[-1] + fibs[-2])
    bits = ["0"] * len(fibs)
    for i in range(len(fibs) - 1, -1, -1):
        if fibs[i] <= n:
            bits[i] = "1"
            n -= fibs[i]
    return "".join(bits).rstrip("0") + "1"


def header(section_id):
    """The GPP header listing one section, padded as iabgpp-java and iabgpp-es pad (to a byte, then to 6 bits)."""
    bits = format(3, "06b") + format(1, "06b") + format(1, "012b") + "0" + fibonacci(section_id)
    bits += "0" * (-len(bits) % 8)
    bits += "0" * (-len(bits) % 6)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    return "".join(alphabet[int(bits[i:i + 6], 2)] for i in range(0, len(bits), 6))


def section_id(path):
    name = os.path.basename(path)
    for suffix in ("Test.java", ".test.ts", "_test.go"):
        name = name.removesuffix(suffix)
    return SECTION_IDS.get(name)


def groups(args):
    """(source, path, [strings]) in the order they go into the file: the spec first, so its examples are named after it."""
    spec_file = "Core/Consent String Specification.md"
    with open(os.path.join(args.spec, spec_file), encoding="utf-8") as spec:
        text = spec.read()
    examples = re.findall(r"(?:<code>|`)(DB[A-Za-z0-9_-]*(?:~[A-Za-z0-9_.-]+)+)(?:</code>|`)", text)
    yield f"GPP spec Global-Privacy-Platform {args.spec_commit[:7]} {spec_file}: the GPP String Examples and the URL macro example", spec_file, examples
    for java in args.iabgpp_java:
        for path in git_files(java, "iabgpp-encoder/src/test/java", ".java"):
            if "/section/" in path or path.endswith("GppModelTest.java"):
                yield f"iabgpp-java {java.split('@')[1][:7]} {path}", path, test_strings(git_show(java, path))
    go = args.go_gpp
    for path in git_files(go, "", "_test.go"):
        if not path.startswith("util/"):
            folder = os.path.basename(os.path.dirname(path))
            yield f"go-gpp {go.split('@')[1][:7]} {path}", folder + "_test.go", test_strings(git_show(go, path))
    es = args.iabgpp_es
    for path in git_files(es, "modules/cmpapi/test", ".test.ts"):
        if "/section/" in path or path.endswith("GppModel.test.ts"):
            yield f"iabgpp-es {es.split('@')[1][:7]} {path}", path, test_strings(git_show(es, path))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--iabgpp-java", required=True, action="append", metavar="GIT_DIR@COMMIT",
                        help="repeatable: each commit's tests in turn (master, then the 4.X branch)")
    for name in ("--go-gpp", "--iabgpp-es"):
        parser.add_argument(name, required=True, metavar="GIT_DIR@COMMIT")
    parser.add_argument("--spec", required=True, metavar="GLOBAL_PRIVACY_PLATFORM_DIR")
    parser.add_argument("--spec-commit", required=True, help="the Global-Privacy-Platform commit of --spec")
    args = parser.parse_args()
    seen = set()
    print("# GPP strings from the reference implementations' tests and the GPP spec, one per line.")
    print("# Written by Fixtures/gpp/collect-reference-strings.py (see Fixtures/gpp/README.md); do not edit by hand.")
    for source, path, strings in groups(args):
        wrap = section_id(path) if not re.search(r"GppModel|HeaderV1|parse_test|encode_test|Specification", path) else None
        lines = []
        for text in strings:
            gpp = f"{header(wrap)}~{text}" if wrap is not None else text
            if gpp not in seen:
                seen.add(gpp)
                lines.append(gpp)
        if lines:
            suffix = f" (section strings, wrapped in header {header(wrap)} = [{wrap}])" if wrap is not None else ""
            print(f"# {source}{suffix}")
            print("\n".join(lines))


if __name__ == "__main__":
    sys.exit(main())
