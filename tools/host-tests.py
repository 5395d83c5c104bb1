#!/usr/bin/env python3
"""Runs mm86's host-side tests and writes their count for the runner.

Three kinds:
  - the unit tests of the host tools themselves (the KTAP parser, the
    boot runner's judging, the package check, the grader's verdicts),
    found as tools/test_*.py; among them tools/test_gradescope.py runs
    the Gradescope autograder on one lab, which builds and boots (it is
    skipped without the reference kernel, the cross compiler or QEMU);
  - the user-space build of the kernel (build/host/mm86-host: mm/, kernel/
    and lib/ under AddressSanitizer and UBSan, CPUs as threads), run in a
    few configurations; each run's KTAP report is judged like a boot's
    (tools/ktap.py) and its exit status must be 0.  The same under
    ThreadSanitizer (--tsan-binary, build/host-tsan/mm86-host) in two
    configurations, where a data race report stops the run and fails it
    (quoted), and its race scenarios, each of which must stop at a report
    naming its two functions (tools/tsan.py);
  - the libFuzzer targets (--fuzz), each for a fixed time from the seed
    corpus; one case each, passed when the fuzzer found nothing.
The host runs, and then the fuzzers, run --jobs at a time (each fuzzer
still gets its full time; one is single-threaded).  The result is
printed and written to --counts FILE as one line "N passed, N failed,
N skipped", which tools/runner.py adds to the boots' total (a test
skipped here, e.g. one that needs root, counts as skipped there, not as
passed or missing).
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ktap  # noqa: E402
import tsan  # noqa: E402

# name, arguments of mm86-host
HOST_RUNS = [
    ("host-1cpu", ["--mem=64", "--cpus=1"]),
    ("host-4cpu", ["--mem=256", "--cpus=4"]),
    ("host-fake-numa", ["--mem=128", "--cpus=2", "numa=fake=2"]),
    ("host-slab-debug", ["--mem=128", "--cpus=2", "slab_debug"]),
]

# The whole suite under ThreadSanitizer (about ten seconds a run).
HOST_TSAN_RUNS = [
    ("host-tsan-2cpu", ["--mem=128", "--cpus=2"]),
    ("host-tsan-4cpu", ["--mem=256", "--cpus=4"]),
]

# name, misuse scenario (tests/host/race_test.c), the two functions
# its data race report must name
HOST_TSAN_RACES = [
    ("host-tsan-race-counter", "race_counter",
     {"counter_add_locked", "counter_add_unlocked"}),
    ("host-tsan-race-percpu-irq", "race_percpu_irq",
     {"percpu_hits_task", "percpu_hits_tick"}),
]

# A report stops the run (exit status 66); the races inside a course
# lab's lines, which its patches rely on, wait in the suppressions file.
TSAN_SUPPRESSIONS = os.path.join(HERE, "..", "tests", "host",
                                 "tsan-suppressions.txt")
TSAN_OPTIONS = ("halt_on_error=1:exitcode=66:"
                f"suppressions={os.path.abspath(TSAN_SUPPRESSIONS)}")


def run_unit_tests():
    suite = unittest.defaultTestLoader.discover(HERE, pattern="test_*.py",
                                                top_level_dir=HERE)
    result = unittest.TextTestRunner(verbosity=1, stream=sys.stdout).run(suite)
    failed = len(result.failures) + len(result.errors)
    skipped = len(result.skipped)
    return result.testsRun - failed - skipped, failed, skipped


def run_logged(binary, args, log):
    """Runs the host build once, its output into log: (output, exit
    status or "timeout", seconds)."""
    start = time.monotonic()
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0:abort_on_error=0",
               UBSAN_OPTIONS="print_stacktrace=1", TSAN_OPTIONS=TSAN_OPTIONS)
    try:
        proc = subprocess.run([binary] + args, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=300,
                              env=env)
        out, status = proc.stdout.decode(errors="replace"), proc.returncode
    except subprocess.TimeoutExpired as e:
        out, status = (e.stdout or b"").decode(errors="replace"), "timeout"
    with open(log, "w") as f:
        f.write(out)
    return out, status, time.monotonic() - start


def run_one_host(binary, logs, name, args):
    """One run of the host build: its counts and the lines to print."""
    log = os.path.join(logs, name + ".log")
    out, status, wall = run_logged(binary, args, log)
    report = ktap.parse(out)
    counts = report.counts()
    ok = status == 0 and report.passed
    lines = [f"{'PASS' if ok else 'FAIL'} {name:16} ({wall:.1f} s, "
             f"{counts.passed + counts.failed + counts.skipped} cases) {log}"]
    failed = counts.failed
    if not ok:
        race = tsan.first_report(out)
        # A race report stops the run: the log's end is then no news.
        for err in ([] if race else report.errors[:5]):
            lines.append(f"    {err}")
        for suite, case in report.failures()[:10]:
            lines.append(f"    not ok {suite.display_name()}"
                         f"{'.' + case.name if case else ''}")
        if race:
            lines.append(f"    exit status {status}; the first report:")
            lines += [f"      {line}" for line in race.quote()]
        elif status != 0:
            lines.append(f"    exit status {status}; last lines:")
            for line in out.splitlines()[-12:]:
                lines.append(f"      {line}")
        failed += max(1, counts.failed == 0)
    return counts.passed, failed, counts.skipped, lines


def run_one_race(binary, logs, name, misuse, functions):
    """A race scenario under ThreadSanitizer: passed when the run stops
    at a data race report whose two accesses are in functions."""
    log = os.path.join(logs, name + ".log")
    out, status, wall = run_logged(
        binary, ["--mem=64", "--cpus=2", f"ktest.misuse={misuse}"], log)
    race = tsan.first_report(out)
    ok = (status == 66 and race is not None and race.kind == "data race"
          and set(race.functions()) == functions)
    lines = [f"{'PASS' if ok else 'FAIL'} {name:16} ({wall:.1f} s, "
             f"{' / '.join(race.functions()) if race else 'no report'}) "
             f"{log}"]
    if not ok:
        lines.append(f"    exit status {status}; wanted a data race between "
                     f"{' and '.join(sorted(functions))}; "
                     + ("the first report:" if race else "last lines:"))
        lines += [f"      {line}" for line in
                  (race.quote() if race else out.splitlines()[-8:])]
    return int(ok), int(not ok), 0, lines


def in_parallel(jobs, calls):
    """Runs each (function, arguments) of calls, jobs at a time, printing
    each one's lines as it ends; returns their results in order."""
    results = [None] * len(calls)
    with concurrent.futures.ThreadPoolExecutor(max(1, jobs)) as pool:
        futures = {pool.submit(fn, *args): i
                   for i, (fn, args) in enumerate(calls)}
        for fut in concurrent.futures.as_completed(futures):
            results[futures[fut]] = fut.result()
            print("\n".join(results[futures[fut]][-1]), flush=True)
    return results


def run_host_kernel(binary, logs, jobs=1, tsan_binary=None):
    calls = [(run_one_host, (binary, logs, name, args))
             for name, args in HOST_RUNS]
    if tsan_binary:
        calls += [(run_one_host, (tsan_binary, logs, name, args))
                  for name, args in HOST_TSAN_RUNS]
        calls += [(run_one_race, (tsan_binary, logs, name, misuse, fns))
                  for name, misuse, fns in HOST_TSAN_RACES]
    passed = failed = skipped = 0
    for p, f, s, _ in in_parallel(jobs, calls):
        passed, failed, skipped = passed + p, failed + f, skipped + s
    return passed, failed, skipped


def run_one_fuzzer(binary, seconds, corpus, work):
    name = os.path.basename(binary)
    target = name[len("fuzz_"):]
    scratch = os.path.join(work, "corpus-" + target)
    os.makedirs(scratch, exist_ok=True)
    cmd = [binary, f"-max_total_time={seconds}", "-print_final_stats=1",
           "-close_fd_mask=1", f"-artifact_prefix={work}/", scratch,
           os.path.join(corpus, target)]
    start = time.monotonic()
    proc = subprocess.run(cmd, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=seconds + 120)
    out = proc.stdout.decode(errors="replace")
    runs = [line.split()[-1] for line in out.splitlines()
            if line.startswith("stat::number_of_executed_units")]
    wall = time.monotonic() - start
    ok = proc.returncode == 0
    lines = [f"{'PASS' if ok else 'FAIL'} {name:16} ({wall:.1f} s, "
             f"{runs[0] if runs else '?'} inputs)"]
    if not ok:
        lines += [f"    {line}" for line in out.splitlines()[-25:]]
        for path in re.findall(r"Test unit written to (\S+)", out):
            lines.append(f"    keep it as a regression: cp {path} "
                         f"{corpus}/{target}/crash-WHAT (docs/guide.md, "
                         f"Fuzzing)")
    return ok, lines


def run_fuzzers(binaries, seconds, corpus, work, jobs=1):
    results = in_parallel(jobs, [(run_one_fuzzer,
                                  (binary, seconds, corpus, work))
                                 for binary in binaries])
    passed = sum(ok for ok, _ in results)
    return passed, len(results) - passed


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--counts", help="write 'N passed, N failed' here")
    ap.add_argument("--host-binary", help="the user-space kernel to run")
    ap.add_argument("--tsan-binary",
                    help="the same under ThreadSanitizer (with --host-binary)")
    ap.add_argument("--logs", default="build/logs")
    ap.add_argument("--fuzz", nargs="*", default=[], help="fuzzer binaries")
    ap.add_argument("--fuzz-seconds", type=int, default=10)
    ap.add_argument("--fuzz-corpus", default="tests/fuzz/corpus")
    ap.add_argument("--fuzz-work", default="build/fuzz")
    ap.add_argument("--jobs", type=int, default=2,
                    help="host runs, and fuzzers, at once (default 2)")
    args = ap.parse_args()

    passed, failed, skipped = run_unit_tests()
    if args.host_binary:
        os.makedirs(args.logs, exist_ok=True)
        p, f, s = run_host_kernel(args.host_binary, args.logs, args.jobs,
                                  args.tsan_binary)
        passed, failed, skipped = passed + p, failed + f, skipped + s
    if args.fuzz:
        p, f = run_fuzzers(args.fuzz, args.fuzz_seconds, args.fuzz_corpus,
                           args.fuzz_work, args.jobs)
        passed, failed = passed + p, failed + f
    line = f"{passed} passed, {failed} failed, {skipped} skipped"
    print(f"host: {line}")
    if args.counts:
        with open(args.counts, "w") as f:
            f.write(line + "\n")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
