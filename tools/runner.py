#!/usr/bin/env python3
"""Boot mm86 under QEMU in a matrix of configurations and judge each boot.

Each line of the matrix file (tests/boots.txt) is one boot:

    name | image | qemu options | kernel command line | expectation

image is an image kind of tools/machine.py: "elf" (-kernel/-append, BIOS),
"iso" and "iso-mb1" (BIOS, GRUB from build/mm86.iso through multiboot2, or
from build/mm86-mb1.iso through multiboot), "uefi" and "uefi-mb1" (the same
ISOs under q35 and 32-bit OVMF).  An ISO boot takes its command line from
GRUB's config, so that field must be empty; a UEFI boot is always q35 and
may not name -machine.  q35 with -kernel is an elf boot with
"-machine q35" in its options.  Each UEFI boot gets its own fresh copy of
OVMF's variables, LOGS/NAME.vars.fd, since boots run in parallel.
expectation is "pass [timeout=S] [line=REGEX]" or
"fail exit=N line=REGEX [timeout=S]"; REGEX runs to the end of the line
(less a trailing timeout=S) and may contain "|" and "#".  A line whose
first non-blank character is "#" is a comment.

A "pass" boot passes when QEMU exits 33 (the kernel wrote 0x10 to
isa-debug-exit) and its serial log holds a well-formed KTAP report with no
"not ok", and, when it names one, some log line (less its
"[ timestamp ] " prefix) fully matches REGEX: a boot can so insist on how
it came up (where ACPI was found, say).  A "fail" boot passes when QEMU
exits N, some log line (less its "[ timestamp ] " prefix) fully matches
REGEX, and the boot does not pass the pass rule.  A "pass" boot also
fails when the kernel printed a report line ("BUG:", "WARNING:" or
"INFO:" just after printk's timestamp) outside the lines "ktest: expected
reports begin" and "ktest: expected reports end", between which a case
provokes reports on purpose (tests/ktest_capture.c): the lock
validator's and might_sleep()'s reports warn and go on, so a boot that
printed one may still exit 33.  --post-check COMMAND runs checks that
read the boots' logs once the boots are done; their last "N passed,
N failed" line joins the totals.  The last line printed
is "N passed, N failed[, N skipped]"; the exit status is 0 only when
nothing failed (2 for a usage error).

Boots that differ only in their expectation (the same image, QEMU
options and command line) share one QEMU run: each is judged on its log,
copied to LOGS/NAME.log.  Boots start longest first, by their times in
the last run (LOGS/durations.json).

parse_matrix() and judge() are pure functions, tested by test_ktap.py.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import fnmatch
import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ktap  # noqa: E402  (found beside this file)
import machine  # noqa: E402
import verdicts as recorded  # noqa: E402
from machine import EXIT_FAILED, EXIT_PASSED  # noqa: E402

DEFAULT_TIMEOUT = 120.0
LOG_TAIL = 15  # log lines shown for a failed boot
MAX_FAILED_CASES = 10  # failed cases shown for a failed boot
MAX_DIAGNOSTICS = 4  # diagnostic lines shown per failed case
MAX_KTAP_ERRORS = 10

BASE_OPTIONS = ["-display", "none", "-no-reboot", "-monitor", "none"]
# Options the runner sets itself; a matrix line may not override them.
RESERVED_OPTIONS = {"-kernel", "-append", "-initrd", "-cdrom", "-serial",
                    "-display", "-monitor", "-nographic", "-daemonize",
                    "-no-reboot"}
# ... and those a UEFI boot sets (q35 with SMM, OVMF on pflash).
RESERVED_UEFI_OPTIONS = {"-machine", "-M", "-bios", "-pflash"}

NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
TIMESTAMP_RE = re.compile(r"\[\s*\d+\.\d+\] ?")
TRAILING_TIMEOUT_RE = re.compile(r"\s+timeout=(\S+)$")
EXTRA_COUNTS_RE = re.compile(
    r"(\d+) passed, (\d+) failed(?:, (\d+) skipped)?")


class MatrixError(Exception):
    """A malformed matrix file; the message lists every bad line."""


@dataclass(frozen=True)
class Boot:
    """One boot of the matrix."""

    name: str
    image: str  # an image kind: a key of machine.KINDS
    qemu_args: tuple[str, ...]
    cmdline: str
    expect: str  # "pass" or "fail"
    timeout: float = DEFAULT_TIMEOUT
    exit_status: int | None = None  # must-fail boots only
    line_re: re.Pattern | None = None  # a line the log must hold
    lineno: int = 0


# -- the matrix file -----------------------------------------------------


def _parse_timeout(value: str) -> float:
    try:
        timeout = float(value)
    except ValueError:
        raise ValueError(
            f"timeout={value} is not a number of seconds") from None
    if not timeout > 0 or timeout != timeout or timeout == float("inf"):
        raise ValueError(f"timeout={value} must be a positive number")
    return timeout


def parse_expectation(text: str) -> dict:
    """Parses the expectation field into Boot keyword arguments.

    Raises ValueError with a message on a malformed field.
    """
    words = text.split(None, 1)
    if not words or words[0] not in ("pass", "fail"):
        raise ValueError(f"expectation must start with 'pass' or 'fail', "
                         f"got {text!r}")
    kind, rest = words[0], (words[1] if len(words) > 1 else "")
    result: dict = {"expect": kind}
    while rest:
        if rest.startswith("line="):
            regex = rest[len("line="):]
            m = TRAILING_TIMEOUT_RE.search(regex)
            if m:
                if "timeout" in result:
                    raise ValueError("timeout= given twice")
                result["timeout"] = _parse_timeout(m.group(1))
                regex = regex[: m.start()]
            regex = regex.strip()
            if not regex:
                raise ValueError("line= needs a regular expression")
            try:
                result["line_re"] = re.compile(regex)
            except re.error as e:
                raise ValueError(
                    f"bad regular expression in line=: {e}") from None
            break
        word, rest = (rest.split(None, 1) + [""])[:2]
        key, eq, value = word.partition("=")
        if not eq or key not in (("timeout",) if kind == "pass"
                                 else ("timeout", "exit")):
            allowed = ("timeout=S and line=REGEX" if kind == "pass"
                       else "exit=N, line=REGEX and timeout=S")
            raise ValueError(f"unexpected {word!r} in a '{kind}' expectation "
                             f"(allowed: {allowed})")
        if key in result or (key == "exit" and "exit_status" in result):
            raise ValueError(f"{key}= given twice")
        if key == "timeout":
            result["timeout"] = _parse_timeout(value)
        else:
            if not value.isdigit() or int(value) > 255:
                raise ValueError(f"exit={value} must be a QEMU exit status "
                                 f"0..255")
            result["exit_status"] = int(value)
    if kind == "fail":
        missing = [w for w, k in (("exit=N", "exit_status"),
                                  ("line=REGEX", "line_re"))
                   if k not in result]
        if missing:
            raise ValueError(f"a 'fail' expectation needs "
                             f"{' and '.join(missing)}")
    return result


def parse_matrix_line(line: str, lineno: int) -> Boot:
    """Parses one non-comment line; raises ValueError when malformed."""
    fields = [f.strip() for f in line.split("|", 4)]
    if len(fields) != 5:
        raise ValueError(f"expected 5 fields separated by '|' (name | image "
                         f"| qemu options | kernel command line | "
                         f"expectation), got {len(fields)}")
    name, image, options, cmdline, expectation = fields
    if not NAME_RE.fullmatch(name):
        raise ValueError(f"bad boot name {name!r} (letters, digits, '_', "
                         f"'.', '-')")
    if image not in machine.KINDS:
        raise ValueError(f"image must be one of {', '.join(machine.KINDS)}, "
                         f"got {image!r}")
    if not machine.takes_cmdline(image) and cmdline:
        raise ValueError(f"an {image} boot takes its kernel command line "
                         f"from GRUB's config: the command line field must "
                         f"be empty, got {cmdline!r}")
    try:
        qemu_args = tuple(shlex.split(options))
    except ValueError as e:
        raise ValueError(
            f"cannot split the qemu options {options!r}: {e}") from None
    reserved = RESERVED_OPTIONS
    if machine.KINDS[image].firmware == "uefi":
        reserved = reserved | RESERVED_UEFI_OPTIONS
    for arg in qemu_args:
        option = arg[1:] if arg.startswith("--") else arg
        if option.split("=", 1)[0] in reserved:
            raise ValueError(f"qemu option {arg} is set by the runner for "
                             f"an {image} boot")
    return Boot(name=name, image=image, qemu_args=qemu_args, cmdline=cmdline,
                lineno=lineno, **parse_expectation(expectation))


def parse_matrix(text: str, source: str = "<matrix>") -> list[Boot]:
    """Parses a whole matrix file; raises MatrixError listing bad lines."""
    boots: list[Boot] = []
    errors: list[str] = []
    seen: dict[str, int] = {}
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            boot = parse_matrix_line(line, lineno)
        except ValueError as e:
            errors.append(f"{source}:{lineno}: {e}")
            continue
        if boot.name in seen:
            errors.append(f"{source}:{lineno}: boot name {boot.name!r} "
                          f"already used on line {seen[boot.name]}")
            continue
        seen[boot.name] = lineno
        boots.append(boot)
    if errors:
        raise MatrixError("\n".join(errors))
    if not boots:
        raise MatrixError(f"{source}: no boots in the matrix")
    return boots


# -- judging -------------------------------------------------------------


@dataclass
class Outcome:
    """What one QEMU run left behind."""

    returncode: int | None  # None when it was killed or never started
    log: str
    timed_out_after: float | None = None  # seconds, when killed
    output: str = ""  # QEMU's own stdout and stderr
    start_error: str | None = None
    elapsed: float = 0.0


@dataclass
class Row:
    """A line of the summary table."""

    suite: str
    counts: ktap.Counts
    note: str = ""


@dataclass
class Verdict:
    """The judgement of one boot."""

    passed: bool
    reasons: list[str] = field(default_factory=list)
    counts: ktap.Counts = field(default_factory=ktap.Counts)
    rows: list[Row] = field(default_factory=list)
    summary: str = ""  # shown in parentheses on the PASS/FAIL line
    report: ktap.Report | None = None


def describe_exit(code: int | None) -> str:
    """Says what a QEMU exit status means for mm86."""
    if code is None:
        return "no exit status"
    if code == EXIT_PASSED:
        return f"all tests passed (exit {EXIT_PASSED})"
    if code == EXIT_FAILED:
        return f"kernel reported failure or panicked (exit {EXIT_FAILED})"
    if code == 0:
        return "triple fault, reset or power-off (QEMU exit 0)"
    if code == 1:
        return "QEMU error (exit 1)"
    if code < 0:
        try:
            sig = signal.Signals(-code).name
        except ValueError:
            sig = f"signal {-code}"
        return f"QEMU killed by {sig}"
    return f"unexpected QEMU exit status {code}"


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def log_lines(log: str) -> list[str]:
    """The log's lines with '\\r' removed and trailing blank lines dropped."""
    lines = log.replace("\r", "").split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def strip_timestamp(line: str) -> str:
    """Removes a '[    1.234567] ' prefix and any trailing '\\r'."""
    line = line.rstrip("\r")
    m = TIMESTAMP_RE.match(line)
    return line[m.end():] if m else line


def log_tail(log: str, n: int = LOG_TAIL) -> str:
    lines = log_lines(log)
    if not lines:
        return "(the serial log is empty)"
    return "\n".join(lines[-n:])


STOPPED_IN_RE = re.compile(r"ktest: the kernel stopped in case (\w+)\.(\w+)")
_SUBTEST_RE = re.compile(r"    # Subtest: (\w+)")
_CASE_RESULT_RE = re.compile(r"    (?:not ok|ok) (\d+) (\w+)\b.*")
_CASE_DIAG_RE = re.compile(r"    # (\w+): .*")


def running_case(log: str) -> str | None:
    """Which case was running when the log ends, if the log says: the
    panic context's "ktest: the kernel stopped in case S.C" line, else the
    suite left open and the case its last diagnostic ("# CASE: ...")
    names, else the last case that finished in it (pure)."""
    suite = last = pending = None
    for raw in log.replace("\r", "").split("\n"):
        line = strip_timestamp(raw)
        m = STOPPED_IN_RE.fullmatch(line)
        if m:
            return f"{m.group(1)}.{m.group(2)}"
        m = _SUBTEST_RE.fullmatch(line)
        if m:
            suite, last, pending = m.group(1), None, None
            continue
        m = _CASE_RESULT_RE.fullmatch(line)
        if m and suite:
            last, pending = (int(m.group(1)), m.group(2)), None
            continue
        m = _CASE_DIAG_RE.fullmatch(line)
        if m and suite:
            pending = m.group(1)
        elif line.startswith(("ok ", "not ok ")):
            suite = None  # the suite closed
    if not suite:
        return None
    if pending:
        return f"{suite}.{pending}"
    if last:
        return (f"case {last[0] + 1} of suite {suite}, after "
                f"{suite}.{last[1]}")
    return f"case 1 of suite {suite}"


def _run_problems(outcome: Outcome) -> list[str]:
    """Reasons that come from QEMU itself (start failure, timeout)."""
    if outcome.start_error is not None:
        return [f"QEMU did not start: {outcome.start_error}"]
    if outcome.timed_out_after is not None:
        case = running_case(outcome.log)
        return [f"timeout after {outcome.timed_out_after:g}s"
                + (f" (running: {case})" if case else "")]
    return []


def _qemu_output(outcome: Outcome) -> list[str]:
    text = outcome.output.strip()
    if not text:
        return []
    lines = text.splitlines()[-10:]
    return ["QEMU said:\n" + "\n".join(lines)]


def passes_pass_rule(outcome: Outcome, report: ktap.Report) -> bool:
    return (outcome.returncode == EXIT_PASSED
            and outcome.timed_out_after is None and report.passed)


def judge(boot: Boot, outcome: Outcome) -> Verdict:
    """Judges one boot from its exit status and serial log (pure)."""
    report = ktap.parse(outcome.log)
    if boot.expect == "fail":
        return _judge_must_fail(boot, outcome, report)
    return _judge_pass(boot, outcome, report)


def _count_rows(report: ktap.Report, boot_failed: bool) -> list[Row]:
    """Per-suite counts; missing cases and suites count as failed."""
    rows = []
    for suite in report.suites:
        c = suite.counts()
        c.failed += suite.missing_cases
        note = []
        if suite.directive:
            note.append(f"# {suite.directive}")
        if suite.missing_cases:
            note.append(f"{plural(suite.missing_cases, 'planned case')} "
                        f"missing")
        if not suite.closed:
            note.append("unclosed")
        rows.append(Row(suite.display_name(), c, ", ".join(note)))
    if report.plan is not None and len(report.suites) < report.plan:
        unopened = report.plan - len(report.suites)
        rows.append(Row("(suites not run)", ktap.Counts(failed=unopened),
                        f"{plural(unopened, 'planned suite')} never "
                        f"started"))
    if boot_failed and sum(r.counts.failed for r in rows) == 0:
        rows.append(Row("(boot)", ktap.Counts(failed=1), "the boot failed"))
    return rows


# Linux's report openings; lockdep's "INFO: trying to register non-static
# key." turns the validator off for the rest of the boot.
REPORT_RE = re.compile(r"(BUG|WARNING|INFO): |\S+: page allocation failure: ")
EXPECTED_BEGIN = "ktest: expected reports begin"
EXPECTED_END = "ktest: expected reports end"


def unexpected_reports(log: str) -> list[str]:
    """The kernel's report lines ("[ timestamp ] BUG: ...", "WARNING: ...",
    "NAME: page allocation failure: ...") outside the expected regions that cases mark around the reports they
    provoke.  Lines without printk's timestamp are the firmware's or the
    loader's (GRUB under OVMF prints "WARNING: no console ...")."""
    found = []
    expected = False
    for raw in log.split("\n"):
        if not TIMESTAMP_RE.match(raw):
            continue
        line = strip_timestamp(raw)
        if line == EXPECTED_BEGIN:
            expected = True
        elif line == EXPECTED_END:
            expected = False
        elif not expected and REPORT_RE.match(line):
            found.append(line)
    return found


def matching_line(line_re: re.Pattern, log: str) -> str | None:
    """The first log line that, less its timestamp, fully matches line_re."""
    for line in log.split("\n"):
        if line_re.fullmatch(strip_timestamp(line)):
            return strip_timestamp(line)
    return None


def _judge_pass(boot: Boot, outcome: Outcome,
                report: ktap.Report) -> Verdict:
    reasons = _run_problems(outcome)
    if not reasons and outcome.returncode != EXIT_PASSED:
        reasons.append(describe_exit(outcome.returncode))
    if boot.line_re is not None and matching_line(boot.line_re, outcome.log) is None:
        reasons.append(f"expected line not found (a line matching "
                       f"{boot.line_re.pattern!r})")
    reports = unexpected_reports(outcome.log)
    if reports:
        shown = "\n".join(reports[:MAX_KTAP_ERRORS])
        more = len(reports) - MAX_KTAP_ERRORS
        if more > 0:
            shown += f"\n... and {more} more"
        reasons.append(f"{plural(len(reports), 'unexpected report')} "
                       f"(a BUG:, WARNING: or INFO: line outside the cases' "
                       f"expected reports):\n{shown}")
    if report.errors:
        shown = report.errors[:MAX_KTAP_ERRORS]
        more = len(report.errors) - len(shown)
        text = "KTAP report is not well-formed:\n" + "\n".join(
            str(e) for e in shown)
        if more:
            text += f"\n... and {more} more KTAP errors"
        reasons.append(text)
    failures = report.failures()
    if failures:
        lines = []
        for suite, case in failures[:MAX_FAILED_CASES]:
            if case is None:
                lines.append(f"not ok {suite.display_name()} (the suite)")
                continue
            lines.append(f"not ok {suite.display_name()}.{case.name}")
            shown = case.diagnostics[:MAX_DIAGNOSTICS]
            lines.extend(f"    {d}" for d in shown)
        if len(failures) > MAX_FAILED_CASES:
            lines.append(f"... and {len(failures) - MAX_FAILED_CASES} more")
        if report.seed is not None:
            lines.append(f"(replay with ktest.seed={report.seed})")
        reasons.append(f"{plural(len(failures), 'failure')}:\n"
                       + "\n".join(lines))
    passed = not reasons
    if not passed:
        reasons.extend(_qemu_output(outcome))
        reasons.append(f"last {LOG_TAIL} lines of the log:\n"
                       + log_tail(outcome.log))
    rows = _count_rows(report, boot_failed=not passed)
    counts = ktap.Counts()
    for row in rows:
        counts = counts + row.counts
    if not report.found:
        summary = "no KTAP report"
    else:
        summary = plural(counts.total, "case")
        if counts.skipped:
            summary += f", {counts.skipped} skipped"
        if counts.failed:
            summary += f", {counts.failed} failed"
    return Verdict(passed, reasons, counts, rows, summary, report)


def _judge_must_fail(boot: Boot, outcome: Outcome,
                     report: ktap.Report) -> Verdict:
    reasons = _run_problems(outcome)
    if not reasons and outcome.returncode != boot.exit_status:
        reasons.append(f"wrong exit status: "
                       f"{describe_exit(outcome.returncode)}; expected "
                       f"{describe_exit(boot.exit_status)}")
    assert boot.line_re is not None
    found = matching_line(boot.line_re, outcome.log) is not None
    if not found:
        reasons.append(f"expected line not found; last lines:\n"
                       + log_tail(outcome.log)
                       + f"\n(expected a line matching "
                         f"{boot.line_re.pattern!r})")
    if passes_pass_rule(outcome, report):
        reasons.append("the boot passed (exit 33 and a passing KTAP report),"
                       " but it must fail")
    passed = not reasons
    if not passed:
        reasons.extend(_qemu_output(outcome))
        if found:
            reasons.append(f"last {LOG_TAIL} lines of the log:\n"
                           + log_tail(outcome.log))
    counts = ktap.Counts(passed=1) if passed else ktap.Counts(failed=1)
    summary = (f"failed as expected: exit {boot.exit_status}" if passed
               else "did not fail as expected")
    return Verdict(passed, reasons, counts,
                   [Row("(must fail)", counts, summary)], summary, report)


# -- running QEMU --------------------------------------------------------


def build_command(boot: Boot, qemu: str, images: machine.Images,
                  firmware: machine.Firmware, log_path: str,
                  vars_path: str | None) -> list[str]:
    """The full QEMU command line of one boot.

    vars_path is the boot's own copy of OVMF's variables (UEFI boots).
    """
    return ([qemu] + BASE_OPTIONS + ["-serial", f"file:{log_path}"]
            + machine.DEBUG_EXIT + ["-accel", "tcg"]
            + machine.qemu_args(boot.image, images, boot.cmdline, firmware,
                                vars_path)
            + list(boot.qemu_args))


def same_run_key(boot: Boot) -> tuple:
    """Boots with equal keys are the same QEMU run (pure)."""
    return (boot.image, boot.qemu_args, boot.cmdline)


def vars_path_for(boot: Boot, logs: str) -> str | None:
    """Where a UEFI boot's copy of the variables goes (None: not UEFI)."""
    if machine.KINDS[boot.image].firmware != "uefi":
        return None
    return os.path.abspath(os.path.join(logs, boot.name + ".vars.fd"))


class ProcessRegistry:
    """The running QEMUs, so that Ctrl-C can kill them all."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.procs: set[subprocess.Popen] = set()
        self.stopping = False

    def start(self, cmd: list[str]) -> subprocess.Popen | None:
        with self.lock:
            if self.stopping:
                return None
            proc = subprocess.Popen(
                cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT, start_new_session=True)
            self.procs.add(proc)
            return proc

    def forget(self, proc: subprocess.Popen) -> None:
        with self.lock:
            self.procs.discard(proc)

    def kill_all(self) -> None:
        with self.lock:
            self.stopping = True
            for proc in self.procs:
                try:
                    proc.kill()
                except OSError:
                    pass


def run_qemu(cmd: list[str], log_path: str, timeout: float,
             registry: ProcessRegistry) -> Outcome | None:
    """Runs one QEMU to its end or its timeout; None if interrupted."""
    try:
        os.remove(log_path)
    except FileNotFoundError:
        pass
    start = time.monotonic()
    try:
        proc = registry.start(cmd)
    except OSError as e:
        return Outcome(None, "", start_error=str(e))
    if proc is None:
        return None
    timed_out = None
    try:
        try:
            out, _ = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, _ = proc.communicate()
            timed_out = timeout
    finally:
        registry.forget(proc)
    elapsed = time.monotonic() - start
    if registry.stopping:
        return None
    try:
        log = ktap.read_log(log_path)
    except OSError:
        log = ""
    return Outcome(None if timed_out else proc.returncode, log,
                   timed_out_after=timed_out,
                   output=out.decode("utf-8", errors="replace"),
                   elapsed=elapsed)


# -- the command line ----------------------------------------------------


def read_extra_counts(path: str) -> ktap.Counts:
    """Reads the last 'N passed, N failed[, N skipped]' line of a file."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines()
    for line in reversed(lines):
        m = EXTRA_COUNTS_RE.fullmatch(line.strip())
        if m:
            return ktap.Counts(int(m.group(1)), int(m.group(2)),
                               int(m.group(3) or 0))
    raise ValueError("no 'N passed, N failed' line")


def boot_inputs(args: argparse.Namespace, boots: list[Boot]) -> list[str]:
    """The files the boots start (for the digest of their inputs)."""
    images, firmware = images_of(args), firmware_of(args)
    paths = [images.kernel, images.iso, images.iso_mb1]
    if any(machine.KINDS[b.image].firmware == "uefi" for b in boots):
        paths += [firmware.code, firmware.vars_template]
    return [p for p in paths if os.path.exists(p)]


def boot_item(boot: Boot) -> str:
    """What names a boot among the records: its whole matrix line."""
    return "boot " + repr((boot.name, boot.image, boot.qemu_args,
                           boot.cmdline, boot.expect, boot.timeout,
                           boot.exit_status,
                           boot.line_re.pattern if boot.line_re else None))


def _log_digest(path: str) -> str | None:
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


def reusable(store, boot: Boot, log_path: str) -> dict | None:
    """The record of boot's pass with these inputs, if its log is still
    the one that pass left (the post-boot checks and the report read
    it)."""
    record = store.get(boot_item(boot))
    if record and record.get("log") == _log_digest(log_path):
        return record
    return None


def record_boot(store, boot: Boot, log_path: str, verdict: Verdict,
                seconds: float) -> None:
    store.put(boot_item(boot), {
        "log": _log_digest(log_path), "seconds": seconds,
        "summary": verdict.summary,
        "counts": [verdict.counts.passed, verdict.counts.failed,
                   verdict.counts.skipped],
        "rows": [[r.suite, r.counts.passed, r.counts.failed,
                  r.counts.skipped, r.note] for r in verdict.rows]})


def record_verdict(record: dict) -> Verdict:
    return Verdict(passed=True, counts=ktap.Counts(*record["counts"]),
                   rows=[Row(r[0], ktap.Counts(*r[1:4]), r[4])
                         for r in record["rows"]],
                   summary=record["summary"])


DURATIONS = "durations.json"


def read_durations(logs: str) -> dict[str, float]:
    """Each boot's time in the runs before, by name ({} if none)."""
    try:
        with open(os.path.join(logs, DURATIONS), encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: float(v) for k, v in data.items()
            if isinstance(v, (int, float))}


def write_durations(logs: str, durations: dict[str, float]) -> None:
    path = os.path.join(logs, DURATIONS)
    try:
        with open(path + ".tmp", "w", encoding="utf-8") as f:
            json.dump(durations, f, indent=0, sort_keys=True)
        os.replace(path + ".tmp", path)
    except OSError:
        pass


def run_post_check(command: str) -> tuple[str, ktap.Counts, str]:
    """Runs the post-boot checks, showing their output; their counts are
    the last 'N passed, N failed[, N skipped]' line they print (none, or
    a command that cannot start, counts as one failure)."""
    print(f"runner: post-boot checks: {command}", flush=True)
    try:
        proc = subprocess.run(shlex.split(command), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT)
    except OSError as e:
        print(f"FAIL post-boot checks: {e.strerror}")
        return command, ktap.Counts(failed=1), f"did not start: {e.strerror}"
    out = proc.stdout.decode("utf-8", errors="replace")
    sys.stdout.write(out)
    words = shlex.split(command)
    name = os.path.basename(next((w for w in words if w.endswith(".py")),
                                 words[0]))
    reused = sum(int(m.group(1)) for m in
                 (recorded.REUSED_RE.fullmatch(line.strip())
                  for line in out.splitlines()) if m)
    for line in reversed(out.splitlines()):
        m = EXTRA_COUNTS_RE.fullmatch(line.strip())
        if m:
            counts = ktap.Counts(int(m.group(1)), int(m.group(2)),
                                 int(m.group(3) or 0))
            if proc.returncode != 0 and not counts.failed:
                return name, counts + ktap.Counts(failed=1), \
                    f"exit status {proc.returncode}"
            return name, counts, f"{reused} reused" if reused else ""
    print(f"FAIL post-boot checks: no 'N passed, N failed' line "
          f"(exit status {proc.returncode})")
    return name, ktap.Counts(failed=1), "no counts line"


def indent(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line for line in text.split("\n"))


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return os.cpu_count() or 1


def positive_float(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text} is not positive")
    return value


def positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not at least 1")
    return value


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(
        description="Boot mm86 under QEMU in a matrix of configurations and "
                    "judge each boot.")
    ap.add_argument("--matrix", default="tests/boots.txt",
                    help="matrix file (default: %(default)s)")
    ap.add_argument("--only", action="append", metavar="GLOB",
                    help="run only the boots whose name matches GLOB "
                         "(repeatable)")
    ap.add_argument("--jobs", type=positive_int, default=default_jobs(),
                    metavar="N", help="boots run in parallel (default: the "
                                      "number of CPUs, %(default)s)")
    ap.add_argument("--qemu", default="qemu-system-i386",
                    help="QEMU binary (default: %(default)s)")
    ap.add_argument("--kernel", default="build/mm86.elf",
                    help="kernel for elf boots (default: %(default)s)")
    ap.add_argument("--iso", default=machine.Images.iso,
                    help="image for iso and uefi boots (GRUB's default: "
                         "multiboot2; default: %(default)s)")
    ap.add_argument("--iso-mb1", default=machine.Images.iso_mb1,
                    help="image for iso-mb1 and uefi-mb1 boots (GRUB's "
                         "default: multiboot; default: %(default)s)")
    ap.add_argument("--ovmf-code", default=machine.Firmware.code,
                    help="32-bit OVMF code for uefi boots (default: "
                         "%(default)s)")
    ap.add_argument("--ovmf-vars", default=machine.Firmware.vars_template,
                    help="template of OVMF's variables, copied for each "
                         "uefi boot (default: %(default)s)")
    ap.add_argument("--logs", default="build/logs",
                    help="directory for the serial logs (default: "
                         "%(default)s)")
    ap.add_argument("--timeout-scale", type=positive_float, default=1.0,
                    metavar="F", help="multiply every timeout by F (on top "
                    "of the stretch by boots at once per core)")
    ap.add_argument("--extra-counts", action="extend", nargs="+", default=[],
                    metavar="FILE", help="add the 'N passed, N failed' line "
                                         "of each FILE to the totals")
    ap.add_argument("--reuse", action="store_true",
                    help="do not run a boot that passed before with the "
                         "same inputs (the images, OVMF, QEMU and its "
                         "firmware, every file of the tree: "
                         "tools/verdicts.py) and whose log is unchanged; "
                         "record the boots that pass")
    ap.add_argument("--post-check", metavar="COMMAND",
                    help="after the boots, run COMMAND (split like a shell "
                         "would) and add the last 'N passed, N failed' line "
                         "it prints to the totals: checks that read the "
                         "boots' logs")
    return ap.parse_args(argv)


def fail_setup(message: str) -> int:
    for line in message.splitlines():
        print(f"runner: error: {line}", file=sys.stderr)
    return 2


def select_boots(args: argparse.Namespace) -> list[Boot]:
    """Reads the matrix and applies --only; raises MatrixError."""
    try:
        with open(args.matrix, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise MatrixError(f"cannot read the matrix {args.matrix}: "
                          f"{e.strerror}")
    boots = parse_matrix(text, args.matrix)
    if args.only:
        boots = [b for b in boots
                 if any(fnmatch.fnmatchcase(b.name, g) for g in args.only)]
        if not boots:
            raise MatrixError(f"no boot in {args.matrix} matches --only "
                              f"{' '.join(args.only)}")
    return boots


def images_of(args: argparse.Namespace) -> machine.Images:
    return machine.Images(os.path.abspath(args.kernel),
                          os.path.abspath(args.iso),
                          os.path.abspath(args.iso_mb1))


def firmware_of(args: argparse.Namespace) -> machine.Firmware:
    return machine.Firmware(os.path.abspath(args.ovmf_code),
                            os.path.abspath(args.ovmf_vars))


def check_inputs(args: argparse.Namespace, boots: list[Boot]) -> str | None:
    """Returns an error message when QEMU, an image or OVMF is missing."""
    qemu = args.qemu
    if os.sep in qemu:
        if not (os.path.isfile(qemu) and os.access(qemu, os.X_OK)):
            return f"QEMU binary {qemu} not found or not executable"
    elif shutil.which(qemu) is None:
        return f"QEMU binary {qemu} not found in PATH"
    return machine.missing_file([b.image for b in boots], images_of(args),
                                firmware_of(args))


def print_summary(boots: list[Boot], verdicts: dict[str, Verdict],
                  extras: list[tuple[str, ktap.Counts, str]]) -> None:
    rows = []
    for boot in boots:
        verdict = verdicts.get(boot.name)
        if verdict is None:
            continue
        for row in verdict.rows:
            rows.append((boot.name, row.suite, row.counts, row.note))
    for path, counts, note in extras:
        rows.append(("extra", os.path.basename(path), counts, note))
    if not rows:
        return
    w1 = max(len("boot"), *(len(r[0]) for r in rows))
    w2 = max(len("suite"), *(len(r[1]) for r in rows))
    print()
    print(f"{'boot':<{w1}}  {'suite':<{w2}}  {'pass':>5} {'fail':>5} "
          f"{'skip':>5}")
    for boot, suite, c, note in rows:
        line = (f"{boot:<{w1}}  {suite:<{w2}}  {c.passed:>5} {c.failed:>5} "
                f"{c.skipped:>5}")
        print(f"{line}  {note}" if note else line)


def run(args: argparse.Namespace) -> int:
    try:
        boots = select_boots(args)
    except MatrixError as e:
        return fail_setup(str(e))
    problem = check_inputs(args, boots)
    if problem:
        return fail_setup(problem)
    try:
        os.makedirs(args.logs, exist_ok=True)
    except OSError as e:
        return fail_setup(f"cannot create {args.logs}: {e.strerror}")

    width = max(len(b.name) for b in boots)
    images, firmware = images_of(args), firmware_of(args)
    commands = {}
    for boot in boots:
        log_path = os.path.abspath(os.path.join(args.logs, boot.name + ".log"))
        vars_path = vars_path_for(boot, args.logs)
        if vars_path is not None:
            try:
                machine.copy_vars(firmware, vars_path)
            except OSError as e:
                return fail_setup(f"cannot copy {firmware.vars_template} "
                                  f"to {vars_path}: {e.strerror}")
        commands[boot.name] = (build_command(boot, args.qemu, images,
                                             firmware, log_path, vars_path),
                               log_path)
    # The longest boots first (by the last run's times, LOGS/durations.json;
    # a boot never timed is taken to be as long as its timeout, so new and
    # long ones lead), so that no long boot starts last and runs alone.
    durations = read_durations(args.logs)
    order = sorted(boots, key=lambda b: -durations.get(b.name, b.timeout))
    # Boots that differ only in what they expect of the log (the same
    # image, QEMU options and command line) are one QEMU run, judged once
    # per boot: the first of them in the order runs, the others get a
    # copy of its log.
    groups: dict[tuple, list[Boot]] = {}
    for boot in order:
        groups.setdefault(same_run_key(boot), []).append(boot)
    # --reuse: a boot that passed with these very inputs (the images,
    # OVMF, QEMU and its firmware, every file of the tree) and whose log
    # is still the one it left is not run again (tools/verdicts.py).
    store = reuse = None
    if args.reuse:
        store = recorded.Store(os.path.dirname(os.path.abspath(args.logs)),
                               "", recorded.inputs_digest(
                                   ".", boot_inputs(args, boots)))
        reuse = {}
        for key, group in list(groups.items()):
            records = [reusable(store, b, commands[b.name][1])
                       for b in group]
            if all(records):
                reuse.update(zip((b.name for b in group), records))
                del groups[key]
    jobs = max(1, min(args.jobs, len(groups)))
    # More boots at once than cores: each gets a share of a core, so each
    # timeout stretches by that much (a hanging case is still named by
    # the kernel's own per-case time limit, which counts guest time).
    scale = args.timeout_scale * max(1.0, jobs / default_jobs())
    shared = sum(len(g) - 1 for g in groups.values())
    print(f"runner: {plural(len(boots), 'boot')}"
          + (f", {len(reuse)} reused, {len(boots) - len(reuse)} to judge"
             if reuse else "")
          + f" in {plural(len(groups), 'QEMU run')}"
          + (f" ({shared} judged on the log of a boot with the same image, "
             f"options and command line)" if shared else "")
          + f", {jobs} at a time"
          + (f", timeouts x{scale:.1f}" if scale != 1.0 else ""),
          flush=True)

    registry = ProcessRegistry()
    verdicts: dict[str, Verdict] = {}
    started = time.monotonic()
    for name, record in (reuse or {}).items():
        verdicts[name] = record_verdict(record)
        print(f"PASS {name:<{width}}  (reused: recorded {record['recorded']}"
              f", {record['seconds']:.1f} s, {record['summary']})")
    ran: dict[str, tuple[Verdict, float]] = {}
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=jobs)
    try:
        futures = {}
        for group in groups.values():
            lead = group[0]
            cmd, log_path = commands[lead.name]
            futures[pool.submit(run_qemu, cmd, log_path,
                                max(b.timeout for b in group) * scale,
                                registry)] = group
        for future in concurrent.futures.as_completed(futures):
            group = futures[future]
            outcome = future.result()
            if outcome is None:
                continue
            lead = group[0]
            cmd, lead_log = commands[lead.name]
            for boot in group:
                log_path = commands[boot.name][1]
                if boot is not lead and os.path.exists(lead_log):
                    shutil.copyfile(lead_log, log_path)
                verdict = judge(boot, outcome)
                verdicts[boot.name] = verdict
                if outcome.timed_out_after is None \
                        and not outcome.start_error:
                    durations[boot.name] = round(outcome.elapsed, 2)
                if store and verdict.passed and not verdict.counts.failed:
                    ran[boot.name] = (verdict, outcome.elapsed)
                word = "PASS" if verdict.passed else "FAIL"
                run = ("" if boot is lead
                       else f"the QEMU run of {lead.name}, ")
                print(f"{word} {boot.name:<{width}}  ({run}"
                      f"{outcome.elapsed:.1f} s, {verdict.summary})")
                if not verdict.passed:
                    for reason in verdict.reasons:
                        print(indent(reason))
                    print(indent(f"log: {log_path}"))
                    print(indent(f"command: {shlex.join(cmd)}"))
            sys.stdout.flush()
    except KeyboardInterrupt:
        registry.kill_all()
        pool.shutdown(wait=True, cancel_futures=True)
        print("runner: interrupted; killed every QEMU", file=sys.stderr)
        return 130
    pool.shutdown(wait=True)
    wall = time.monotonic() - started
    write_durations(args.logs, durations)
    if store and ran:
        if recorded.inputs_digest(".", boot_inputs(args, boots)) \
                == store.digest:
            for boot in boots:
                if boot.name in ran:
                    record_boot(store, boot, commands[boot.name][1],
                                *ran[boot.name])
        else:
            print("runner: verdicts not recorded: the inputs changed while "
                  "the boots ran")

    extras = []
    if args.post_check:
        extras.append(run_post_check(args.post_check))
    for path in args.extra_counts:
        n = recorded.read_reused(path)
        try:
            counts, note = read_extra_counts(path), ""
            if n:
                note = f"{n} reused"
        except (OSError, ValueError) as e:
            reason = e.strerror if isinstance(e, OSError) else str(e)
            print(f"FAIL extra counts {path}: {reason}")
            counts, note = ktap.Counts(failed=1), f"unreadable: {reason}"
        extras.append((path, counts, note))

    reused = sum(recorded.read_reused(p) for p in args.extra_counts) + sum(
        int(note.split()[0]) for _, _, note in extras[:1]
        if args.post_check and note.endswith(" reused"))
    print_summary(boots, verdicts, extras)
    total = ktap.Counts()
    for verdict in verdicts.values():
        total = total + verdict.counts
    for _, counts, _ in extras:
        total = total + counts
    failed_boots = sum(not v.passed for v in verdicts.values())
    if reuse:
        reused += sum(verdicts[n].counts.total for n in reuse)
        print(f"\nrunner: {plural(len(reuse), 'boot')} reused (passed "
              f"before with the same images, QEMU, firmware and tree)")
    print(f"\nwall time {wall:.1f} s for {plural(len(boots), 'boot')} "
          f"({failed_boots} failed)")
    if reused:
        print(f"{reused} of the {total.total} checks reused "
              f"the verdict recorded by an earlier run with the same inputs "
              f"(tools/verdicts.py; FORCE=1 runs them)")
    last = f"{total.passed} passed, {total.failed} failed"
    if total.skipped:
        last += f", {total.skipped} skipped"
    print(last, flush=True)
    return 0 if total.failed == 0 and failed_boots == 0 else 1


def _terminate(signum, frame):
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _terminate)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
