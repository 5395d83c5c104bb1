#!/usr/bin/env python3
"""Check the exercises of docs/exercises.md: apply each one's change to a
copy of the tree, build it, run it, and compare what happens with what
tests/exercises.txt says must happen.

    tools/exercises.py [--jobs N] [--only GLOB] [--counts FILE]
                       [--work DIR] [--keep] [--list]

tests/exercises.txt holds one stanza per checked step, opened by a line
"exercise ID" (ID is NN-name, NN the exercise's number in
docs/exercises.md; an exercise may have several steps) and followed by
directives, one a line; "#" starts a comment line:

    patch   FILE        the change the exercise asks for, a unified diff in
                        tests/exercises/ applied with git apply ("none": the
                        exercise changes nothing, it only reads the log)
    qemu    OPTIONS     a boot of build/mm86.elf with these QEMU options
    append  CMDLINE     ... and this kernel command line (a ktest.filter)
    host    ARGS        instead of a boot: the user-space build
                        (build/host/mm86-host ARGS)
    timeout SECONDS     the run's time limit (default 60)
    fail    SUITE.CASE REGEX
                        the case fails, and REGEX (Python re, searched)
                        matches its first failure: the lines from its first
                        "EXPECTATION FAILED" (or LEAK) line to the next one
    cases   exact|any   exact (the default): the cases named by "fail" lines
                        fail and every other case of the run passes or is
                        skipped, the report is complete and well formed, and
                        the kernel did not panic.  any: the cases' verdicts
                        are not judged (a step whose result is a figure);
                        the run must still end on its own without a panic.
    stops   SUITE.CASE  the run stops in this case (a panic, an oops, a
                        sanitizer's report): the log names it (the panic
                        context's line, or the case's last diagnostic); the
                        cases before it are judged as by "cases exact"
    panic   REGEX       the kernel panics outside any case (while it boots,
                        say), and the panic's message, after "Kernel panic -
                        not syncing: ", fully matches REGEX; the cases are
                        not judged
    line    REGEX       some line of the log (less its timestamp) fully
                        matches REGEX
    figure  NAME OP REGEX
                        REGEX's first group is a number, read from the last
                        line of the log that REGEX is found in (searched), in this
                        run and in the same run of the unpatched kernel;
                        OP (<, <=, >, >=, ==, !=, or xF, /F: at least F
                        times larger, smaller) compares patched with
                        unpatched; a pair that does not hold is measured
                        again, up to FIGURE_TRIES pairs of boots, as a
                        stalled host can spoil a measurement

Each step runs in its own copy of the tree (tools/labtree.py's copy_tree)
that keeps the prebuilt objects of build/ (and build/host/), so make
rebuilds only what the patch touched; the tree's own build is brought up
to date first.  One line per step: "PASS ID
(seconds): what held" or "FAIL ID: why"; then "N passed, N failed", also
written to --counts.  The exit status is 0 only when every step passed
(2 for a malformed tests/exercises.txt).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import fnmatch
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ktap  # noqa: E402  (found beside this file)
import labtree  # noqa: E402
import machine  # noqa: E402
import runner  # noqa: E402
import verdicts  # noqa: E402

EXERCISES = "tests/exercises.txt"
PATCH_DIR = "tests/exercises"
DEFAULT_TIMEOUT = 60.0
# Pairs of boots a figure step may take to hold (see _check).
FIGURE_TRIES = 3
ID_RE = re.compile(r"(\d\d)-[a-z0-9-]+")
PANIC_RE = re.compile(r"Kernel panic - not syncing: .*")
FAIL_HEAD_RE = re.compile(r"# (\w+): (EXPECTATION FAILED at .*|LEAK of .*)")
OPS = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b,
       ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
       "==": lambda a, b: a == b, "!=": lambda a, b: a != b}
OP_RE = re.compile(r"(<=|>=|==|!=|<|>)|([x/])(\d+(?:\.\d+)?)")


class ExerciseError(Exception):
    """A malformed tests/exercises.txt; the message says where."""


@dataclass
class Figure:
    name: str
    op: str
    regex: re.Pattern

    def holds(self, patched: float, unpatched: float) -> bool:
        m = OP_RE.fullmatch(self.op)
        if m.group(1):
            return OPS[m.group(1)](patched, unpatched)
        factor = float(m.group(3))
        if m.group(2) == "x":
            return patched >= unpatched * factor
        return patched * factor <= unpatched


@dataclass
class Exercise:
    id: str
    line: int
    patch: str | None = None
    qemu: list[str] = field(default_factory=list)
    append: str = ""
    host: list[str] | None = None
    timeout: float = DEFAULT_TIMEOUT
    fails: dict[str, re.Pattern] = field(default_factory=dict)
    cases: str = "exact"
    lines: list[re.Pattern] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    stops: str | None = None
    panic: re.Pattern | None = None


def _regex(text: str, where: str) -> re.Pattern:
    try:
        return re.compile(text)
    except re.error as e:
        raise ExerciseError(f"{where}: bad regex {text!r}: {e}") from None


def parse(text: str, path: str = EXERCISES) -> list[Exercise]:
    """The stanzas of tests/exercises.txt (pure; ExerciseError if bad)."""
    out: list[Exercise] = []
    cur: Exercise | None = None
    for where, n, word, rest in labtree.directives(text, path):
        if word == "exercise":
            if not ID_RE.fullmatch(rest):
                raise ExerciseError(f"{where}: an exercise's ID is NN-name, "
                                    f"got {rest!r}")
            if any(e.id == rest for e in out):
                raise ExerciseError(f"{where}: exercise {rest} twice")
            cur = Exercise(rest, n)
            out.append(cur)
            continue
        if cur is None:
            raise ExerciseError(f"{where}: {word!r} before any 'exercise'")
        if not rest:
            raise ExerciseError(f"{where}: {word} needs a value")
        if word == "patch":
            cur.patch = None if rest == "none" else rest
        elif word == "qemu":
            cur.qemu = shlex.split(rest)
        elif word == "append":
            cur.append = rest
        elif word == "host":
            cur.host = shlex.split(rest)
        elif word == "timeout":
            try:
                cur.timeout = float(rest)
            except ValueError:
                raise ExerciseError(f"{where}: timeout {rest!r} is not a "
                                    f"number of seconds") from None
        elif word == "fail":
            case, _, regex = rest.partition(" ")
            if not re.fullmatch(r"\w+\.\w+", case) or not regex.strip():
                raise ExerciseError(f"{where}: fail SUITE.CASE REGEX")
            cur.fails[case] = _regex(regex.strip(), where)
        elif word == "stops":
            if not re.fullmatch(r"\w+\.\w+", rest):
                raise ExerciseError(f"{where}: stops SUITE.CASE")
            cur.stops = rest
        elif word == "panic":
            cur.panic = _regex(rest, where)
        elif word == "cases":
            if rest not in ("exact", "any"):
                raise ExerciseError(f"{where}: cases exact or cases any")
            cur.cases = rest
        elif word == "line":
            cur.lines.append(_regex(rest, where))
        elif word == "figure":
            parts = rest.split(None, 2)
            if len(parts) != 3 or not OP_RE.fullmatch(parts[1]):
                raise ExerciseError(f"{where}: figure NAME OP REGEX, OP one "
                                    f"of < <= > >= == != xF /F")
            regex = _regex(parts[2], where)
            if regex.groups < 1:
                raise ExerciseError(f"{where}: a figure's regex needs a "
                                    f"group for the number")
            cur.figures.append(Figure(parts[0], parts[1], regex))
        else:
            raise ExerciseError(f"{where}: unknown directive {word!r}")
    for e in out:
        where = f"{path}:{e.line}: exercise {e.id}"
        if e.host is None and not e.qemu:
            raise ExerciseError(f"{where}: needs qemu OPTIONS or host ARGS")
        if e.host is not None and e.figures:
            raise ExerciseError(f"{where}: figures are for boots")
        if e.panic and (e.fails or e.stops):
            raise ExerciseError(f"{where}: 'panic' is for a kernel that "
                                f"stops outside the cases")
        if e.cases == "any" and e.fails:
            raise ExerciseError(f"{where}: 'fail' lines need 'cases exact'")
    return out


# -- judging a log (pure) ------------------------------------------------


def first_failure(log: str, name: str) -> str | None:
    """The lines of case SUITE.CASE's first failure, joined by newlines:
    from its first "EXPECTATION FAILED" (or LEAK) line to the next such
    line or its result; the case need not have finished."""
    suite, case = name.split(".", 1)
    in_suite = False
    lines: list[str] = []
    for raw in log.replace("\r", "").split("\n"):
        if ktap.TIMESTAMP_RE.match(raw):
            continue  # a kernel message between the KTAP lines
        content = raw.strip()
        if content.startswith("# Subtest:"):
            if lines:
                break
            in_suite = content == f"# Subtest: {suite}"
            continue
        if not in_suite:
            continue
        m = FAIL_HEAD_RE.fullmatch(content)
        if m:
            if lines or m.group(1) != case:
                if lines:
                    break
                continue
            lines.append(content)
        elif lines and content.startswith("#"):
            lines.append(content)
        elif lines and ktap.RESULT_LIKE_RE.fullmatch(content):
            break
    return "\n".join(lines) if lines else None


def figure_value(regex: re.Pattern, log: str) -> float | None:
    """The number in the last log line that regex is found in."""
    value = None
    for raw in log.split("\n"):
        m = regex.search(runner.strip_timestamp(raw))
        if m:
            value = float(m.group(1))
    return value


def judge(ex: Exercise, log: str, timed_out: bool,
          baseline: str | None = None) -> tuple[bool, str]:
    """Whether a run's log is what ex says; and a phrase saying why."""
    problems: list[str] = []
    if timed_out:
        case = runner.running_case(log)
        return False, (f"no verdict within {ex.timeout:g} s (running: "
                       f"{case or 'the log does not say'})")
    stopped = panic = None
    for raw in log.split("\n"):
        line = runner.strip_timestamp(raw)
        m = runner.STOPPED_IN_RE.fullmatch(line)
        if m:
            stopped = f"{m.group(1)}.{m.group(2)}"
        elif panic is None and PANIC_RE.fullmatch(line):
            panic = line
    message = panic[len("Kernel panic - not syncing: "):] if panic \
        else None
    if ex.panic:
        if message is None or not ex.panic.fullmatch(message):
            return False, (f"no panic matching {ex.panic.pattern!r} ("
                           + (f"the panic: {message}" if message
                              else "the kernel did not panic") + ")")
        if stopped:
            return False, f"the kernel stopped in case {stopped}"
    elif ex.stops:
        where = runner.running_case(log)
        if where != ex.stops:
            return False, (f"the run did not stop in {ex.stops} ("
                           + (f"it stopped in {where}" if stopped
                              else f"the log ends in {where}" if where
                              else "it ended outside any case") + ")")
    elif stopped:
        return False, f"the kernel stopped in case {stopped}"
    elif panic:
        return False, f"the kernel panicked: {panic}"
    report = ktap.parse(log)
    if ex.cases == "exact" and not ex.panic:
        if not report.found:
            return False, "no KTAP report in the log"
        if report.errors and not ex.stops:
            return False, f"the KTAP report is not whole: {report.errors[0]}"
        failed = {f"{suite.name}.{case.name}"
                  for suite in report.suites for case in suite.cases
                  if case.status == ktap.NOT_OK}
        if ex.stops:
            failed.add(ex.stops)
        for name, regex in ex.fails.items():
            if name not in failed:
                problems.append(f"{name} did not fail")
                continue
            first = first_failure(log, name)
            if first is None or not regex.search(first):
                shown = (first or "(no failure message)").replace(
                    "\n", " / ")
                problems.append(f"{name}'s first failure does not match "
                                f"{regex.pattern!r}: {shown}")
        extra = sorted(failed - set(ex.fails) - {ex.stops})
        if extra:
            problems.append(f"{runner.plural(len(extra), 'other case')} "
                            f"failed: {', '.join(extra)}")
    for regex in ex.lines:
        if not any(regex.fullmatch(runner.strip_timestamp(raw))
                   for raw in log.split("\n")):
            problems.append(f"no log line matches {regex.pattern!r}")
    said = []
    for fig in ex.figures:
        patched = figure_value(fig.regex, log)
        unpatched = (figure_value(fig.regex, baseline)
                     if baseline is not None else None)
        if patched is None or unpatched is None:
            which = "this run" if patched is None else "the unpatched run"
            problems.append(f"figure {fig.name}: no line of {which} matches "
                            f"{fig.regex.pattern!r}")
            continue
        text = f"{fig.name} {patched:g} (unpatched {unpatched:g})"
        if fig.holds(patched, unpatched):
            said.append(text)
        else:
            problems.append(f"figure {text} is not {fig.op} unpatched")
    if problems:
        return False, "; ".join(problems)
    if ex.panic:
        said.insert(0, f"panicked: {message}")
    elif ex.cases == "exact":
        said.insert(0, (", ".join(ex.fails) + " failed as expected")
                    if ex.fails else "every case passed")
    if ex.stops:
        said.insert(0, f"stopped in {ex.stops}")
    if ex.lines:
        said.append(f"{runner.plural(len(ex.lines), 'line')} found")
    return True, "; ".join(said) or "ran to its end"


# -- running -------------------------------------------------------------


@dataclass
class Result:
    id: str
    passed: bool
    text: str
    seconds: float

    def __str__(self) -> str:
        if self.passed:
            return f"PASS {self.id} ({self.seconds:.1f} s): {self.text}"
        return f"FAIL {self.id} ({self.seconds:.1f} s): {self.text}"


def boot(ex: Exercise, kernel: str, log_path: str,
         registry: runner.ProcessRegistry) -> runner.Outcome | None:
    images = machine.Images(kernel, machine.Images.iso,
                            machine.Images.iso_mb1)
    cmd = ([os.environ.get("QEMU", "qemu-system-i386")]
           + runner.BASE_OPTIONS + ["-serial", f"file:{log_path}"]
           + machine.DEBUG_EXIT + ["-accel", "tcg"]
           + machine.qemu_args("elf", images, ex.append, machine.Firmware(),
                               None)
           + ex.qemu)
    return runner.run_qemu(cmd, log_path, ex.timeout, registry)


def run_host(binary: str, ex: Exercise) -> tuple[str, bool]:
    try:
        res = subprocess.run([binary] + ex.host, stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, timeout=ex.timeout)
        return res.stdout.decode("utf-8", errors="replace"), False
    except subprocess.TimeoutExpired as e:
        return (e.stdout or b"").decode("utf-8", errors="replace"), True


def check(ex: Exercise, root: str, work: str, keep: bool,
          registry: runner.ProcessRegistry) -> Result:
    start = time.monotonic()
    try:
        return _check(ex, root, work, keep, registry, start)
    except (labtree.LabError, OSError, subprocess.SubprocessError) as e:
        return Result(ex.id, False, f"could not run: {e}",
                      time.monotonic() - start)


def _check(ex: Exercise, root: str, work: str, keep: bool,
           registry: runner.ProcessRegistry, start: float) -> Result:
    tree = os.path.join(work, ex.id)

    def result(passed: bool, text: str) -> Result:
        if not keep and passed:
            shutil.rmtree(tree, ignore_errors=True)
        return Result(ex.id, passed, text, time.monotonic() - start)

    patch = os.path.join(root, PATCH_DIR, ex.patch) if ex.patch else None
    target = "host" if ex.host is not None else "build/mm86.elf"
    why = labtree.patched_copy(root, tree, patch, target,
                               host=ex.host is not None)
    if why:
        return result(False, why)
    log_path = os.path.join(tree, "build", "exercise.log")
    if ex.host is not None:
        log, timed_out = run_host(os.path.join(tree, "build", "host",
                                               "mm86-host"), ex)
        with open(log_path, "w", encoding="utf-8") as f:
            f.write(log)
        passed, text = judge(ex, log, timed_out)
        return result(passed, text)
    # A figure is a measurement, of the patched and the unpatched kernel
    # each: a host that stalls a boot can spoil one, so a pair that does
    # not hold is measured again, up to FIGURE_TRIES pairs (a step whose
    # figure cannot hold fails every time).
    tries = FIGURE_TRIES if ex.figures else 1
    for attempt in range(1, tries + 1):
        outcome = boot(ex, os.path.join(tree, "build", "mm86.elf"), log_path,
                       registry)
        if outcome is None:
            return result(False, "interrupted")
        if outcome.start_error:
            return result(False, f"QEMU did not start: {outcome.start_error}")
        baseline = None
        if ex.figures:
            base = boot(ex, os.path.join(root, "build", "mm86.elf"),
                        os.path.join(tree, "build", "unpatched.log"), registry)
            if base is None:
                return result(False, "interrupted")
            if base.timed_out_after is not None or base.start_error:
                return result(False, "the unpatched run did not finish")
            baseline = base.log
        passed, text = judge(ex, outcome.log,
                             outcome.timed_out_after is not None, baseline)
        if passed or attempt == tries:
            break
    if tries > 1 and (attempt > 1 or not passed):
        text += f" (measured {runner.plural(attempt, 'time')})"
    return result(passed, text)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="exercises.py",
        description="Apply, build, run and check each exercise.")
    ap.add_argument("--root", default=".")
    ap.add_argument("--file", default=EXERCISES)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default="*", metavar="GLOB",
                    help="the exercises whose ID matches GLOB")
    ap.add_argument("--work", default=None, metavar="DIR",
                    help="where the copies go (default: a temporary "
                         "directory, removed afterwards)")
    ap.add_argument("--keep", action="store_true",
                    help="keep every copy (a failed one is always kept "
                         "when --work is given)")
    ap.add_argument("--counts", default=None, metavar="FILE")
    ap.add_argument("--force", action="store_true",
                    help="run every step, even one whose passing verdict "
                         "was recorded with the same inputs "
                         "(tools/verdicts.py)")
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args(argv)
    root = os.path.abspath(args.root)
    lab = labtree.student_lab(root)
    if lab:
        line = "0 passed, 0 failed, 1 skipped"
        print(f"exercises: skipped: this is the student tree of lab {lab}; "
              f"the exercises patch the reference's code\n{line}")
        if args.counts:
            with open(args.counts, "w", encoding="utf-8") as f:
                f.write(line + "\n")
        return 0
    try:
        with open(os.path.join(root, args.file), encoding="utf-8") as f:
            exercises = parse(f.read(), args.file)
        for ex in exercises:
            if ex.patch and not os.path.isfile(
                    os.path.join(root, PATCH_DIR, ex.patch)):
                raise ExerciseError(f"exercise {ex.id}: no file "
                                    f"{PATCH_DIR}/{ex.patch}")
    except (OSError, ExerciseError) as e:
        print(f"exercises.py: {e}", file=sys.stderr)
        return 2
    exercises = [e for e in exercises if fnmatch.fnmatchcase(e.id,
                                                             args.only)]
    if args.list:
        for ex in exercises:
            print(ex.id)
        return 0
    # The copies start from these objects and the figures compare with
    # this kernel: both must be current, or every copy rebuilds what the
    # root should have (a header touched since the last make).
    targets = ["build/mm86.elf"] + (
        ["host"] if any(e.host is not None for e in exercises) else [])
    res = subprocess.run(["make", f"-j{max(1, args.jobs)}"] + targets,
                         cwd=root, capture_output=True, text=True)
    if res.returncode != 0:
        print(f"exercises.py: make {' '.join(targets)} failed in {root}:\n"
              f"    {labtree.tail(res.stdout + res.stderr)}", file=sys.stderr)
        return 2
    # A step that passed with these very inputs (the tree's files, the
    # kernel built from them, and for a host step the host binary, the
    # toolchain, QEMU) is not run again: its recorded verdict is printed
    # and counted.
    def built(ex: Exercise) -> list[str]:
        return ["build/mm86.elf"] + (["build/host/mm86-host"]
                                     if ex.host is not None else [])

    def stores(selected=tuple(exercises)) -> dict[tuple, verdicts.Store]:
        kinds = {tuple(built(ex)) for ex in selected}
        return {k: verdicts.Store(root, "build",
                                  verdicts.inputs_digest(root, list(k)),
                                  args.force) for k in kinds}

    store = stores()
    results: list[Result] = []
    reused = 0
    to_run = []
    for ex in exercises:
        record = store[tuple(built(ex))].get(f"exercise {ex.id}")
        if record is None:
            to_run.append(ex)
            continue
        reused += 1
        r = Result(ex.id, True, record["text"] + " (reused)",
                   record["seconds"])
        results.append(r)
        print(r, flush=True)
    exercises = to_run
    own_work = args.work is None
    work = tempfile.mkdtemp(prefix="mm86-exercises-") if own_work \
        else os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    registry = runner.ProcessRegistry()
    start = time.monotonic()
    try:
        with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
            # The longest first: the host build, a patched header (most
            # of the kernel rebuilds), then two-boot steps.
            def header(ex: Exercise) -> bool:
                if not ex.patch:
                    return False
                with open(os.path.join(root, PATCH_DIR, ex.patch),
                          encoding="utf-8", errors="replace") as f:
                    return bool(re.search(r"^\+\+\+ b/\S+\.h$", f.read(),
                                          re.M))

            order = sorted(exercises, key=lambda e: (
                e.host is None, not header(e), not e.figures))
            futures = [pool.submit(check, ex, root, work,
                                   args.keep and not own_work, registry)
                       for ex in order]
            for fut in concurrent.futures.as_completed(futures):
                r = fut.result()
                results.append(r)
                print(r, flush=True)
    except KeyboardInterrupt:
        registry.kill_all()
        raise
    finally:
        if own_work:
            shutil.rmtree(work, ignore_errors=True)
    passed_now = [ex for ex in exercises
                  if any(r.passed and r.id == ex.id for r in results)]
    if passed_now:
        after = stores()
        if all(after[k].digest == store[k].digest for k in store):
            for ex in passed_now:
                r = next(r for r in results if r.id == ex.id)
                store[tuple(built(ex))].put(f"exercise {ex.id}", {
                    "text": r.text, "seconds": r.seconds})
        else:
            print("exercises: not recorded: the inputs changed while they "
                  "ran")
    passed = sum(r.passed for r in results)
    failed = len(results) - passed
    line = f"{passed} passed, {failed} failed"
    print(f"exercises: {len(results)} checked in "
          f"{time.monotonic() - start:.1f} s"
          + (f" ({reused} reused: their inputs are those of a recorded "
             f"pass; FORCE=1 runs them)" if reused else "")
          + (f"; copies of the failed ones in {work}"
             if failed and not own_work else ""))
    print(line)
    if args.counts:
        with open(args.counts, "w", encoding="utf-8") as f:
            f.write((f"reused {reused}\n" if reused else "") + line + "\n")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
