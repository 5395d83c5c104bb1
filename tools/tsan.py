"""Reads ThreadSanitizer's reports out of a program's output.

A report begins "WARNING: ThreadSanitizer: KIND (pid=N)" and ends at its
"SUMMARY: ThreadSanitizer: ..." line.  In between, each memory access
("Write of size 8 at 0x... by thread T4:", "Previous read of ...") is
followed by its stack, one "#N function file:line (module+offset)" line
a frame; thread, location and mutex paragraphs follow.  make test-host
quotes the first report of a host-tsan run that fails and judges the
race scenarios on it (tools/host-tests.py).
"""
import re
from dataclasses import dataclass, field

WARNING = "WARNING: ThreadSanitizer: "
WARNING_RE = re.compile(r"^WARNING: ThreadSanitizer: (.+?)(?: \(pid=\d+\))?\s*$")
ACCESS_RE = re.compile(r"^  (?:Previous )?(?:[Aa]tomic )?"
                       r"(?:[Rr]ead|[Ww]rite) of size \d+ at \S+ by .+:\s*$")
FRAME_RE = re.compile(r"^\s+#\d+ (\S+) (\S+)")


@dataclass
class Access:
    line: str                                   # "Write of size 8 ..."
    frames: list = field(default_factory=list)  # [(function, file:line)]


@dataclass
class Report:
    kind: str                                   # "data race", ...
    accesses: list = field(default_factory=list)
    summary: str = ""

    def functions(self):
        """The function each access was made in (its first frame)."""
        return [a.frames[0][0] for a in self.accesses if a.frames]

    def quote(self, frames=2):
        """The lines that say what raced where: the warning, each
        access with its first frames, the summary."""
        lines = [WARNING + self.kind]
        for a in self.accesses:
            lines.append("  " + a.line)
            lines += [f"    {fn} {where}" for fn, where in a.frames[:frames]]
        if self.summary:
            lines.append(self.summary)
        return lines


def first_report(text):
    """The first report in text, or None."""
    report = access = None
    for line in text.splitlines():
        m = WARNING_RE.match(line)
        if report is None:
            if m:
                report = Report(m.group(1))
            continue
        if line.startswith("SUMMARY: ThreadSanitizer:"):
            report.summary = line.strip()
            break
        if ACCESS_RE.match(line):
            access = Access(line.strip())
            report.accesses.append(access)
        elif not line.strip():
            access = None
        elif access is not None:
            fm = FRAME_RE.match(line)
            if fm:
                access.frames.append((fm.group(1), fm.group(2)))
    return report
