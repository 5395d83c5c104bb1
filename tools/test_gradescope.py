#!/usr/bin/env python3
"""The Gradescope autograder (labs/gradescope/), run as Gradescope runs it:
the kmalloc lab's zip is written (make autograder), unpacked into a
temporary directory that stands for /autograder, prepared (setup.sh's
build, from the reference's objects so that only what the cut changed is
compiled), and run_autograder grades four submissions: the reference
solution (full marks), the hand-out as is (0), a student tree that
changes tests/ and the manifest to cheat (the hand-out's grade), and one
that does not compile (0, the compiler's errors shown).  Each
results.json must pass validate_results (tools/test_grade.py), written
from Gradescope's documented format.

It needs the reference kernel (build/mm86.elf, make), the cross
compiler and QEMU; without them it is skipped."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
KIT = os.path.join(ROOT, "labs", "gradescope")
sys.path.insert(0, HERE)
sys.path.insert(0, KIT)
import autograder  # noqa: E402
import labtree  # noqa: E402
from test_grade import validate_results  # noqa: E402

LAB = "kmalloc"


def missing() -> str:
    """Why this machine cannot run the autograder ("" if it can)."""
    if labtree.student_lab(ROOT):
        return "a student tree"
    if not os.path.isfile(os.path.join(ROOT, "build", "mm86.elf")):
        return "no reference kernel (make)"
    for prog in ("make", "git", "qemu-system-i386"):
        if not shutil.which(prog):
            return f"no {prog}"
    if not any(shutil.which(cc) for cc in ("i686-elf-gcc",
                                            "i686-linux-gnu-gcc")):
        return "no cross compiler"
    return ""


def unzip(path: str, dest: str) -> None:
    """As unzip does (modification times kept), but modes lost, which
    autograder.py prepare must put back."""
    with zipfile.ZipFile(path) as z:
        for info in z.infolist():
            z.extract(info, dest)
            stamp = time.mktime(info.date_time + (0, 0, -1))
            os.utime(os.path.join(dest, info.filename), (stamp, stamp))


def cheat(text: str) -> str:
    """A test file whose every case returns at once: all would pass."""
    return re.sub(r"(static void \w+\(struct ktest \*t\)\n\{\n)",
                  r"\1\treturn;\n", text)


@unittest.skipIf(missing(), f"needs {missing()}")
class Autograder(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="mm86-autograder-")
        cls.top = os.path.join(cls.tmp, "autograder")
        cls.zip = os.path.join(cls.tmp, f"autograder-{LAB}.zip")
        with contextlib.redirect_stdout(io.StringIO()):
            if autograder.make_zip(ROOT, LAB, None, cls.zip):
                raise AssertionError("make autograder failed")
        source = os.path.join(cls.top, "source")
        unzip(cls.zip, source)
        cls.handout = os.path.join(source, autograder.HANDOUT)
        labtree.copy_objects(os.path.join(ROOT, "build"),
                             os.path.join(cls.handout, "build"))
        cls.env = dict(os.environ, AUTOGRADER_DIR=cls.top)
        res = subprocess.run([sys.executable, os.path.join(
            source, "autograder.py"), "prepare"], env=cls.env,
            capture_output=True, text=True)
        if res.returncode:
            raise AssertionError(f"prepare failed:\n{res.stdout[-3000:]}"
                                 f"{res.stderr[-3000:]}")
        # The harness copies run_autograder to /autograder and runs it
        # there.
        shutil.copy(os.path.join(source, "run_autograder"), cls.top)
        os.chmod(os.path.join(cls.top, "run_autograder"), 0o755)
        cls.lab = labtree.load_lab(ROOT, LAB)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def submit(self, files: dict[str, str], zipped: str = "") -> dict:
        """Runs run_autograder on a submission of files {path: text} (in
        a zip of that name, inside a folder, when zipped); its
        results.json, validated."""
        sub = os.path.join(self.top, "submission")
        shutil.rmtree(sub, ignore_errors=True)
        os.makedirs(sub)
        if zipped:
            with zipfile.ZipFile(os.path.join(sub, zipped), "w") as z:
                for path, text in files.items():
                    z.writestr(f"{LAB}-lab/{path}", text)
        for path, text in ({} if zipped else files).items():
            os.makedirs(os.path.dirname(os.path.join(sub, path)),
                        exist_ok=True)
            with open(os.path.join(sub, path), "w", encoding="utf-8") as f:
                f.write(text)
        res = subprocess.run(["./run_autograder"], cwd=self.top,
                             env=self.env, capture_output=True, text=True)
        self.assertEqual(res.returncode, 0, res.stdout + res.stderr)
        with open(os.path.join(self.top, "results", "results.json"),
                  encoding="utf-8") as f:
            data = json.load(f)
        self.assertEqual(validate_results(data), [])
        self.assertEqual(sum(t["max_score"] for t in data["tests"]),
                         self.lab.points)
        return data

    def read(self, top: str, path: str) -> str:
        with open(os.path.join(top, path), encoding="utf-8") as f:
            return f.read()

    def lab_files(self, top: str) -> dict[str, str]:
        return {p: self.read(top, p) for p in self.lab.files}

    def test_the_zip_holds_the_kit_and_the_hand_out_alone(self):
        with zipfile.ZipFile(self.zip) as z:
            names = set(z.namelist())
            self.assertEqual(z.read("handout/.mm86-lab"), b"kmalloc\n")
        for name in ("setup.sh", "run_autograder", "autograder.py",
                     "handout/Makefile", "handout/tools/grade.py"):
            self.assertIn(name, names)
        for name in names:
            self.assertFalse(name.startswith(("handout/build/",
                                              "handout/labs/gradescope/",
                                              "handout/.git/")), name)
            self.assertFalse(name.endswith("stubs.c"), name)

    def test_the_reference_solution_scores_full_marks(self):
        data = self.submit(self.lab_files(ROOT))
        self.assertEqual(data["score"], self.lab.points, data["output"])
        self.assertTrue(all(t["status"] == "passed" for t in data["tests"]))

    def handout_grade(self) -> dict:
        if not hasattr(type(self), "handout_data"):
            type(self).handout_data = self.submit(
                self.lab_files(self.handout))
        return type(self).handout_data

    def test_the_hand_out_scores_zero(self):
        data = self.handout_grade()
        self.assertEqual(data["score"], 0, data["output"])
        self.assertIn("boot log: build/grade/", data["tests"][0]["output"])

    def test_a_tree_that_changes_the_tests_changes_nothing(self):
        files = self.lab_files(self.handout)
        for path in (f"tests/{LAB}_test.c",):
            text = self.read(self.handout, path)
            self.assertNotEqual(cheat(text), text)
            files[path] = cheat(text)
        conf = f"labs/{LAB}/lab.conf"
        files[conf] = re.sub(r"(?m)^(test\s+\S+\s+)\d+", r"\g<1>1",
                             self.read(self.handout, conf))
        data = self.submit(files, zipped="handin.zip")
        self.assertEqual([(t["name"], t["score"]) for t in data["tests"]],
                         [(t["name"], t["score"])
                          for t in self.handout_grade()["tests"]],
                         data["output"])
        self.assertIn(f"Graded: your {' '.join(self.lab.files)}",
                      data["output"])

    def test_a_kernel_that_does_not_build_scores_zero_with_its_errors(self):
        files = self.lab_files(ROOT)
        path = self.lab.files[0]
        files[path] = files[path].replace("#include", "int broken = ;\n"
                                          "#include", 1)
        data = self.submit(files)
        self.assertEqual(data["score"], 0)
        self.assertIn("did not build", data["output"])
        self.assertRegex(data["output"], re.escape(path)
                         + r":\d+:\d+: error: expected expression")


if __name__ == "__main__":
    unittest.main()
