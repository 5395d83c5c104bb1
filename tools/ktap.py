#!/usr/bin/env python3
"""Parse and validate the KTAP version 1 report in an mm86 serial log.

The kernel prints its self-test results as nested KTAP (one subtest block
per suite, like Linux KUnit) on COM1, mixed with timestamped kernel
messages.  parse() picks the KTAP lines out of such a log, checks the
grammar strictly and returns a Report: the suites in order with their
cases, plus a list of well-formedness errors that name the log line.

    python3 tools/ktap.py LOG     prints the verdict; exits 0 only for a
                                  complete, well-formed, passing report.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field

# Case statuses.
OK = "ok"
NOT_OK = "not ok"
SKIP = "skip"

INDENT = "    "  # one nesting level

TIMESTAMP_RE = re.compile(r"\[\s*\d+\.\d+\]")
NAME_RE = re.compile(r"[A-Za-z0-9_]+")
VERSION_RE = re.compile(r"K?TAP version\b.*")
PLAN_LIKE_RE = re.compile(r"\d+\.\..*")
PLAN_RE = re.compile(r"1\.\.(\d+)")
RESULT_LIKE_RE = re.compile(r"(?:not ok|ok)(?: .*)?")
RESULT_RE = re.compile(r"(not ok|ok) (\d+)(?: (.*))?")
SKIP_RE = re.compile(r"SKIP(?: (.*))?")
SUBTEST_RE = re.compile(r"# Subtest:(?: (.*))?")
COUNTS = r"pass:(\d+) fail:(\d+) skip:(\d+) total:(\d+)"
TOTALS_RE = re.compile(r"# totals: " + COUNTS)
SUMMARY_RE = re.compile(r"# ([A-Za-z0-9_]+): " + COUNTS)
SEED_RE = re.compile(r"# ktest: seed (\d+)\b.*")


@dataclass
class LogError:
    """An error found in a serial log (a KTAP report that is not well
    formed, a malformed memory snapshot): line is 1-based, None for one
    found at the end of the log."""

    line: int | None
    message: str

    def __str__(self) -> str:
        where = f"line {self.line}" if self.line is not None else "end of log"
        return f"{where}: {self.message}"


KtapError = LogError  # a KTAP report's well-formedness error


@dataclass
class Counts:
    """Case tallies."""

    passed: int = 0
    failed: int = 0
    skipped: int = 0

    @property
    def total(self) -> int:
        return self.passed + self.failed + self.skipped

    def __add__(self, other: Counts) -> Counts:
        return Counts(self.passed + other.passed, self.failed + other.failed,
                      self.skipped + other.skipped)

    def __str__(self) -> str:
        return (f"pass:{self.passed} fail:{self.failed} "
                f"skip:{self.skipped} total:{self.total}")


@dataclass
class Case:
    """One test case: its result line and the diagnostics printed before it."""

    number: int | None
    name: str
    status: str  # OK, NOT_OK or SKIP
    directive: str | None  # e.g. "SKIP needs -smp 2"
    diagnostics: list[str]
    line: int


@dataclass
class Suite:
    """One suite: a nested KTAP block closed by a top-level result line."""

    index: int  # position in the report, 1-based
    line: int  # where the block opened
    name: str | None = None
    plan: int | None = None
    cases: list[Case] = field(default_factory=list)
    status: str | None = None  # OK, NOT_OK, SKIP; None while unclosed
    directive: str | None = None
    result_line: int | None = None
    # Diagnostics after the last case (e.g. those of a case that never
    # reported because the kernel died in it).
    diagnostics: list[str] = field(default_factory=list)
    stage: str = "subtest"  # parser state: "subtest", "plan", "cases"

    @property
    def closed(self) -> bool:
        return self.status is not None

    @property
    def missing_cases(self) -> int:
        """Planned cases that never reported."""
        if self.plan is None:
            return 0
        return max(0, self.plan - len(self.cases))

    def counts(self) -> Counts:
        c = Counts()
        for case in self.cases:
            if case.status == OK:
                c.passed += 1
            elif case.status == SKIP:
                c.skipped += 1
            else:
                c.failed += 1
        return c

    def display_name(self) -> str:
        return self.name if self.name else f"#{self.index}"


@dataclass
class Report:
    """The parsed KTAP report of one log."""

    version_line: int | None = None
    plan: int | None = None
    suites: list[Suite] = field(default_factory=list)
    totals: Counts | None = None
    seed: int | None = None
    diagnostics: list[str] = field(default_factory=list)  # top-level "#"
    errors: list[KtapError] = field(default_factory=list)
    found: bool = False  # whether the log held any KTAP line at all

    @property
    def well_formed(self) -> bool:
        return not self.errors

    def failures(self) -> list[tuple[Suite, Case | None]]:
        """Every `not ok`: (suite, case), or (suite, None) for a suite line."""
        out: list[tuple[Suite, Case | None]] = []
        for suite in self.suites:
            failed = [c for c in suite.cases if c.status == NOT_OK]
            out.extend((suite, c) for c in failed)
            if suite.status == NOT_OK and not failed:
                out.append((suite, None))
        return out

    @property
    def passed(self) -> bool:
        return self.well_formed and not self.failures()

    @property
    def verdict(self) -> str:
        if not self.well_formed:
            return "malformed"
        return "passed" if self.passed else "failed"

    def counts(self) -> Counts:
        total = Counts()
        for suite in self.suites:
            total = total + suite.counts()
        return total


def _result_text(status: str, number: int, name: str | None) -> str:
    word = "not ok" if status == NOT_OK else "ok"
    return f"'{word} {number} {name or 'NAME'}'"


class _Parser:
    """A line-by-line state machine building a Report."""

    def __init__(self) -> None:
        self.report = Report()
        self.suite: Suite | None = None  # the open suite
        self.pending: list[str] = []  # diagnostics for the next case
        self.missing_suites_reported = False
        self.early_suite_reported = False

    # -- helpers ---------------------------------------------------------

    def error(self, line: int | None, message: str) -> None:
        self.report.errors.append(KtapError(line, message))

    def parse_result(self, n: int, content: str, what: str):
        """Split a result line; returns (status, number, name, directive)."""
        m = RESULT_RE.fullmatch(content)
        if not m:
            self.error(n, f"malformed result line {content!r}: expected "
                          f"'ok N NAME' or 'not ok N NAME'")
            word = NOT_OK if content.startswith("not ok") else OK
            return word, None, "", None
        word, number, rest = m.group(1), int(m.group(2)), m.group(3) or ""
        if rest.startswith("# "):
            name, directive = "", rest[2:]
        else:
            name, sep, directive = rest.partition(" # ")
            directive = directive if sep else None
        if not NAME_RE.fullmatch(name):
            self.error(n, f"invalid {what} name {name!r} in {content!r} "
                          f"(names are [A-Za-z0-9_]+)")
        status = NOT_OK if word == "not ok" else OK
        if directive is not None:
            if not SKIP_RE.fullmatch(directive):
                self.error(n, f"unsupported directive '# {directive}' in "
                              f"{content!r} (only '# SKIP reason' is allowed)")
            elif status == NOT_OK:
                self.error(n, f"'not ok' with a SKIP directive in {content!r}"
                              f" (a skipped test is 'ok N NAME # SKIP ...')")
            else:
                status = SKIP
        return status, number, name, directive

    def depth(self, n: int, indent: str, content: str) -> int:
        if indent == "":
            return 0
        if indent == INDENT:
            return 1
        what = ("a tab" if "\t" in indent else f"{len(indent)} spaces")
        self.error(n, f"bad indentation ({what}) before {content!r}: "
                      f"suites are nested exactly one level of 4 spaces")
        return 0 if len(indent.expandtabs(4)) < 2 else 1

    # -- driving ---------------------------------------------------------

    def feed(self, n: int, raw: str) -> None:
        text = raw.replace("\r", "").rstrip()
        if not text or TIMESTAMP_RE.match(text):
            return  # blank line or kernel message
        content = text.lstrip(" \t")
        if VERSION_RE.fullmatch(content):
            kind = "version"
        elif PLAN_LIKE_RE.fullmatch(content):
            kind = "plan"
        elif RESULT_LIKE_RE.fullmatch(content):
            kind = "result"
        elif content.startswith("#"):
            kind = "diag"
        else:
            return  # other non-KTAP text
        depth = self.depth(n, text[: len(text) - len(content)], content)
        report = self.report
        if not report.found:
            report.found = True
            if depth != 0 or kind != "version":
                self.error(n, f"the first KTAP line must be 'KTAP version 1',"
                              f" got {text.strip()!r}")
        if report.totals is not None:
            if depth == 0 and kind == "diag" and not TOTALS_RE.fullmatch(
                    content):
                report.diagnostics.append(content)
            else:
                self.error(n, f"KTAP line after the '# totals' line: "
                              f"{text.strip()!r}")
            return
        if depth == 0:
            self.top_level(n, kind, content)
        else:
            self.nested(n, kind, content)

    def check_version(self, n: int, content: str) -> None:
        if content != "KTAP version 1":
            self.error(n, f"unsupported version line {content!r} "
                          f"(expected 'KTAP version 1')")

    # -- top level -------------------------------------------------------

    def top_level(self, n: int, kind: str, content: str) -> None:
        report = self.report
        if kind == "version":
            if report.version_line is None:
                report.version_line = n
                self.check_version(n, content)
            else:
                self.error(n, f"a second top-level {content!r} (the report "
                              f"began on line {report.version_line})")
        elif kind == "plan":
            m = PLAN_RE.fullmatch(content)
            if not m:
                self.error(n, f"malformed plan {content!r} (expected '1..N')")
            elif report.plan is not None:
                self.error(n, f"a second top-level plan {content!r}")
            else:
                if report.suites:
                    self.error(n, f"top-level plan {content!r} comes after "
                                  f"the first suite")
                report.plan = int(m.group(1))
        elif kind == "result":
            self.close_suite(n, content)
        else:
            self.top_diagnostic(n, content)

    def top_diagnostic(self, n: int, content: str) -> None:
        report = self.report
        m = TOTALS_RE.fullmatch(content)
        if m:
            self.totals(n, m)
            return
        if content.startswith("# totals"):
            self.error(n, f"malformed totals line {content!r} (expected "
                          f"'# totals: pass:P fail:F skip:S total:T')")
            return
        m = SUMMARY_RE.fullmatch(content)
        if m:
            self.suite_summary(n, m)
            return
        m = SEED_RE.fullmatch(content)
        if m:
            report.seed = int(m.group(1))
        report.diagnostics.append(content)

    def suite_summary(self, n: int, m: re.Match) -> None:
        """Checks an optional '# NAME: pass:P fail:F skip:S total:T' line."""
        name = m.group(1)
        suite = self.suite
        if suite is None or suite.stage != "cases":
            self.error(n, f"summary line for suite '{name}' outside its "
                          f"suite")
            return
        if name != suite.name:
            self.error(n, f"summary line names suite '{name}' inside suite "
                          f"'{suite.display_name()}'")
            return
        said = tuple(int(g) for g in m.groups()[1:])
        c = suite.counts()
        if said != (c.passed, c.failed, c.skipped, c.total):
            self.error(n, f"summary of suite '{name}' says pass:{said[0]} "
                          f"fail:{said[1]} skip:{said[2]} total:{said[3]}, "
                          f"but its cases count {c}")

    def totals(self, n: int, m: re.Match) -> None:
        report = self.report
        if self.suite is not None:
            suite = self.suite
            self.error(n, f"'# totals' line while suite "
                          f"'{suite.display_name()}' is still open (missing "
                          f"{self.missing_in_suite(suite)})")
            self.abandon_suite()
        if report.plan is not None and len(report.suites) < report.plan:
            self.error(n, f"'# totals' line after only {len(report.suites)} "
                          f"of {report.plan} planned suites")
            self.missing_suites_reported = True
        said = Counts(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        total = int(m.group(4))
        counted = report.counts()
        if (said.passed, said.failed, said.skipped, total) != (
                counted.passed, counted.failed, counted.skipped,
                counted.total):
            self.error(n, f"totals disagree with the cases: the line says "
                          f"pass:{said.passed} fail:{said.failed} "
                          f"skip:{said.skipped} total:{total}, the cases "
                          f"count {counted}")
        report.totals = said

    # -- suites ----------------------------------------------------------

    def open_suite(self, n: int) -> Suite:
        report = self.report
        suite = Suite(index=len(report.suites) + 1, line=n)
        report.suites.append(suite)
        self.suite = suite
        self.pending = []
        if report.plan is None and not self.early_suite_reported:
            self.error(n, "a suite starts before the top-level plan '1..N'")
            self.early_suite_reported = True
        elif report.plan is not None and suite.index > report.plan:
            self.error(n, f"suite {suite.index} is beyond the top-level plan "
                          f"1..{report.plan}")
        return suite

    def abandon_suite(self) -> None:
        """Leaves the open suite unclosed (an error was reported)."""
        if self.suite is not None:
            self.suite.diagnostics.extend(self.pending)
        self.suite = None
        self.pending = []

    def missing_in_suite(self, suite: Suite) -> str:
        """Names what an unclosed suite still lacks."""
        parts = []
        if suite.stage == "subtest":
            parts.append("its '# Subtest: NAME' line")
        if suite.stage in ("subtest", "plan"):
            parts.append("its plan '1..N'")
        if suite.missing_cases:
            first = len(suite.cases) + 1
            which = (f"case {first}" if first == suite.plan
                     else f"cases {first}..{suite.plan}")
            parts.append(f"{which} of its plan 1..{suite.plan}")
        failed = any(c.status == NOT_OK for c in suite.cases)
        parts.append("its result line " + _result_text(
            NOT_OK if failed else OK, suite.index, suite.name))
        return ", ".join(parts)

    def close_suite(self, n: int, content: str) -> None:
        status, number, name, directive = self.parse_result(
            n, content, "suite")
        suite = self.suite
        if suite is None:
            self.error(n, f"result line {content!r} closes a suite that was "
                          f"never opened (missing '    KTAP version 1' and "
                          f"'    # Subtest: {name or 'NAME'}' before it)")
            suite = self.open_suite(n)
            suite.stage = "cases"
            suite.name = name or None
        elif suite.stage != "cases":
            what = ("'# Subtest: NAME' and plan '1..N'"
                    if suite.stage == "subtest" else "plan '1..N'")
            self.error(n, f"suite '{suite.display_name()}' is closed without "
                          f"its {what}")
        if number is not None and number != suite.index:
            self.error(n, f"suite result number {number} in {content!r}, "
                          f"expected {suite.index}")
        if suite.name is not None and name != suite.name:
            self.error(n, f"suite '{suite.name}' is closed with the wrong "
                          f"name: {content!r}")
        if suite.name is None and name:
            suite.name = name
        suite.status, suite.directive, suite.result_line = (
            status, directive, n)
        suite.diagnostics.extend(self.pending)
        self.pending = []
        self.suite = None
        self.check_closed_suite(n, suite)

    def check_closed_suite(self, n: int, suite: Suite) -> None:
        name = suite.display_name()
        if suite.plan is not None and len(suite.cases) != suite.plan:
            if len(suite.cases) < suite.plan:
                first = len(suite.cases) + 1
                which = (f"case {first}" if first == suite.plan
                         else f"cases {first}..{suite.plan}")
                self.error(n, f"suite '{name}' planned {suite.plan} cases "
                              f"(1..{suite.plan}) but reported "
                              f"{len(suite.cases)}: missing {which}")
            else:
                self.error(n, f"suite '{name}' reported {len(suite.cases)} "
                              f"cases, more than its plan 1..{suite.plan}")
        failed = [c for c in suite.cases if c.status == NOT_OK]
        ran = [c for c in suite.cases if c.status != SKIP]
        if suite.status == SKIP and ran:
            self.error(n, f"suite '{name}' is reported skipped but case "
                          f"{ran[0].number} {ran[0].name} ran")
        elif suite.status == OK and failed:
            self.error(n, f"suite '{name}' is reported ok but case "
                          f"{failed[0].number} {failed[0].name} failed")
        elif (suite.status == NOT_OK and not failed and suite.cases
              and not suite.missing_cases):
            self.error(n, f"suite '{name}' is reported not ok but none of "
                          f"its cases failed")

    # -- inside a suite --------------------------------------------------

    def nested(self, n: int, kind: str, content: str) -> None:
        suite = self.suite
        if kind == "version":
            if suite is not None:
                self.error(n, f"suite '{suite.display_name()}' was not closed "
                              f"before the next suite starts (missing "
                              f"{self.missing_in_suite(suite)})")
                self.abandon_suite()
            self.open_suite(n)
            self.check_version(n, content)
            return
        if suite is None:
            self.error(n, f"indented line {content!r} outside a suite "
                          f"(missing '    KTAP version 1' before it)")
            suite = self.open_suite(n)
        if suite.stage == "subtest":
            m = SUBTEST_RE.fullmatch(content)
            if m:
                self.set_suite_name(n, suite, m.group(1) or "")
                suite.stage = "plan"
                return
            self.error(n, f"expected '    # Subtest: NAME' to open suite "
                          f"{suite.index}, got {content!r}")
            if kind == "diag":
                return
            suite.stage = "plan"
        if suite.stage == "plan":
            if kind == "plan":
                m = PLAN_RE.fullmatch(content)
                if m:
                    suite.plan = int(m.group(1))
                else:
                    self.error(n, f"malformed plan {content!r} in suite "
                                  f"'{suite.display_name()}' (expected "
                                  f"'1..N')")
                suite.stage = "cases"
                return
            self.error(n, f"expected the plan '    1..N' of suite "
                          f"'{suite.display_name()}', got {content!r}")
            if kind == "diag":
                return
            suite.stage = "cases"
        # stage "cases"
        if kind == "plan":
            self.error(n, f"a second plan {content!r} in suite "
                          f"'{suite.display_name()}'")
        elif kind == "diag":
            m = SUBTEST_RE.fullmatch(content)
            if m:
                self.error(n, f"'# Subtest:' inside suite "
                              f"'{suite.display_name()}' (missing "
                              f"{self.missing_in_suite(suite)}, and "
                              f"'    KTAP version 1' of the next suite)")
                self.abandon_suite()
                suite = self.open_suite(n)
                self.set_suite_name(n, suite, m.group(1) or "")
                suite.stage = "plan"
            else:
                self.pending.append(content)
        else:
            self.add_case(n, suite, content)

    def set_suite_name(self, n: int, suite: Suite, name: str) -> None:
        if not NAME_RE.fullmatch(name):
            self.error(n, f"invalid suite name {name!r} (names are "
                          f"[A-Za-z0-9_]+)")
        suite.name = name or None

    def add_case(self, n: int, suite: Suite, content: str) -> None:
        status, number, name, directive = self.parse_result(
            n, content, "case")
        expected = len(suite.cases) + 1
        sname = suite.display_name()
        if number is not None and number != expected:
            if any(c.number == number for c in suite.cases):
                self.error(n, f"case number {number} repeated in suite "
                              f"'{sname}' (expected {expected})")
            elif number > expected:
                self.error(n, f"gap in the case numbers of suite '{sname}': "
                              f"got {number}, expected {expected}")
            else:
                self.error(n, f"case number {number} out of order in suite "
                              f"'{sname}' (expected {expected})")
        suite.cases.append(Case(number, name, status, directive,
                                self.pending, n))
        self.pending = []

    # -- end of log ------------------------------------------------------

    def finish(self) -> Report:
        report = self.report
        if not report.found:
            self.error(None, "no KTAP report in the log (no 'KTAP version 1'"
                             " line)")
            return report
        if report.plan is None:
            self.error(None, "missing the top-level plan '1..N'")
        if self.suite is not None:
            suite = self.suite
            self.error(None, f"log ends inside suite '{suite.display_name()}'"
                             f" after {len(suite.cases)} case(s): missing "
                             f"{self.missing_in_suite(suite)}")
            self.abandon_suite()
        if (report.plan is not None and len(report.suites) < report.plan
                and not self.missing_suites_reported):
            first = len(report.suites) + 1
            which = (f"suite {first}" if first == report.plan
                     else f"suites {first}..{report.plan}")
            self.error(None, f"only {len(report.suites)} of {report.plan} "
                             f"planned suites started: missing {which}")
        if report.totals is None:
            self.error(None, "missing the '# totals: pass:P fail:F skip:S "
                             "total:T' line")
        return report


def parse(text: str) -> Report:
    """Parses the KTAP report out of a whole serial log."""
    parser = _Parser()
    for n, line in enumerate(text.split("\n"), start=1):
        parser.feed(n, line)
    return parser.finish()


def read_log(path: str) -> str:
    """A serial log's text: any bytes, the ones that are not UTF-8 replaced
    (a log may end in the middle of a character, or hold firmware noise)."""
    with open(path, "rb") as f:
        return f.read().decode("utf-8", errors="replace")


def parse_file(path: str) -> Report:
    """Reads a log file (any bytes) and parses it."""
    return parse(read_log(path))


def format_report(report: Report, max_diag: int = 8) -> str:
    """A human-readable account of a report, ending in its verdict."""
    out = []
    for suite in report.suites:
        c = suite.counts()
        state = suite.status or "unclosed"
        plan = f"1..{suite.plan}" if suite.plan is not None else "no plan"
        line = (f"{suite.display_name()}: {state} ({plan}; {c.passed} passed,"
                f" {c.failed} failed, {c.skipped} skipped)")
        if suite.directive:
            line += f" # {suite.directive}"
        out.append(line)
        for case in suite.cases:
            if case.status == NOT_OK:
                out.append(f"    not ok {case.number} {case.name}")
                out.extend(f"        {d}" for d in case.diagnostics[:max_diag])
    if report.errors:
        out.append(f"KTAP errors ({len(report.errors)}):")
        out.extend(f"    {e}" for e in report.errors)
    c = report.counts()
    detail = (f"{len(report.suites)} suites, {c.total} cases: {c.passed} "
              f"passed, {c.failed} failed, {c.skipped} skipped")
    if report.seed is not None:
        detail += f"; seed {report.seed}"
    out.append(f"verdict: {report.verdict.upper()} ({detail})")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description="Validate the KTAP v1 report in an mm86 serial log.")
    ap.add_argument("log", metavar="LOG", help="serial log file, or - for "
                    "standard input")
    args = ap.parse_args(argv)
    try:
        if args.log == "-":
            report = parse(sys.stdin.buffer.read().decode(
                "utf-8", errors="replace"))
        else:
            report = parse_file(args.log)
    except OSError as e:
        print(f"ktap: cannot read {args.log}: {e.strerror}", file=sys.stderr)
        return 2
    print(format_report(report))
    return 0 if report.passed else 1


if __name__ == "__main__":
    sys.exit(main())
