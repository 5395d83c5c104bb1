#!/usr/bin/env python3
"""Turn serial logs into build/report/index.html: results and pictures.

For each log (one boot): the KTAP results (tools/ktap.py: the suites with
their passed/failed/skipped counts, each failing case with its first
message), the run summary that make run prints (tools/qemu-run), and
pictures of memory from the kernel's snapshots (tools/mmsnap.py):

  physmap.png  the physical memory map drawn to scale: e820, memblock
               memory and reservations, nodes, zones, the kernel image and
               mem_map (a linear scale; a range too narrow to see is drawn
               a minimum width, which the figure says);
  pages.png    the page-state map of one snapshot (the last whole one), one
               pixel per page frame (a square of pixels on a small
               machine), a row per N pages, with the state codes in words;
  frag.png     per zone, the free blocks of each order at each snapshot and
               the unusable free space index of each order (Linux's
               extfrag) at each snapshot;
  slab.png     each slab cache's occupancy (active of total objects) at the
               last snapshot.

    report.py --logs build/logs [--matrix tests/boots.txt]   every log there,
                                              the matrix's boots first, in
                                              its order
    report.py LOG...                          those logs
    --out DIR (default build/report), --jobs N (default 2)

The pictures need Debian's python3-matplotlib, which is importable by
Debian's own Python (/usr/bin/python3): run under another Python (a
virtualenv, pyenv) that lacks it, the script starts itself again under
/usr/bin/python3.  Boots render in parallel (--jobs processes); the page
is plain HTML with relative image paths and no script.
"""

from __future__ import annotations

import argparse
import html
import importlib.machinery
import importlib.util
import multiprocessing
import os
import shutil
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ktap  # noqa: E402
import mmsnap  # noqa: E402

DEBIAN_PYTHON = "/usr/bin/python3"
REEXEC_GUARD = "MM86_REPORT_REEXEC"
PICTURES = ("physmap", "pages", "frag", "slab")

# The page-state map's colours, by state code.
FREE_COLOURS = ["#c7e9c0", "#a1d99b", "#74c476", "#41ab5d", "#238b45",
                "#006d2c", "#00441b", "#08519c", "#08306b", "#3f007d",
                "#1a0040"]
STATE_COLOURS = {
    "x": "#ffffff", "R": "#636363", "K": "#e31a1c", "M": "#ff7f00",
    "T": "#6a3d9a", "P": "#ffff33", "S": "#f781bf", "U": "#a65628",
    "H": "#17becf", "?": "#000000",
    **dict(zip(mmsnap.FREE_CODES, FREE_COLOURS)),
}
E820_COLOURS = {"usable": "#74c476", "reserved": "#969696", "ACPI": "#6baed6",
                "NVS": "#9e9ac8", "unusable": "#fb6a4a"}


class MissingMatplotlib(Exception):
    pass


def _matplotlib():
    """pyplot with the Agg backend; MissingMatplotlib names the package."""
    try:
        import matplotlib
    except ImportError:
        raise MissingMatplotlib(
            "report: the pictures need matplotlib: install Debian's "
            "python3-matplotlib (apt-get install python3-matplotlib, or "
            "make deps DEPS_FOR=report) and run with Debian's python3 "
            f"({DEBIAN_PYTHON})") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _qemu_run():
    """tools/qemu-run as a module (its summary() is make run's summary)."""
    path = os.path.join(HERE, "qemu-run")
    loader = importlib.machinery.SourceFileLoader("qemu_run", path)
    spec = importlib.util.spec_from_loader("qemu_run", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


# -- the pictures ----------------------------------------------------------


def mib(n: int) -> str:
    if n >= 1 << 30 and n % (1 << 20) == 0 and n >= 4 << 30:
        return f"{n / (1 << 30):g} GiB"
    if n % (1 << 20) == 0:
        return f"{n >> 20} MiB"
    if n >= 1 << 20:
        return f"{n / (1 << 20):.2f} MiB"
    return f"{n / 1024:g} KiB"


def draw_physmap(plt, snap: mmsnap.Snapshot, path: str) -> None:
    from matplotlib.patches import Patch
    pm = snap.physmap
    assert pm is not None
    page = 4096
    ram = max([snap.max_pfn * page]
              + [e for _, e, _ in pm.memory]
              + [z.end_pfn * page for z in pm.zones]) or 1
    # up to the end of RAM and of the firmware ranges just above it (not
    # those at the top of 4 GiB), in whole MiB
    top = max([ram] + [e for s, e, _ in pm.e820 if s < ram])
    top = -(-top // (1 << 20)) << 20
    min_w = top / 256
    rows = ["e820", "memblock memory", "memblock reserved", "nodes", "zones",
            "kernel, mem_map"]
    fig, ax = plt.subplots(figsize=(11, 3.6), dpi=80)
    beyond = []

    def bar(row: int, start: int, end: int, colour: str, label: str = "",
            what: str = "") -> None:
        if start >= top:
            beyond.append(f"{what} {start:#x}-{end:#x}".strip())
            return
        end = min(end, top)
        width = max(end - start, min_w)
        y = len(rows) - 1 - row
        ax.broken_barh([(start, width)], (y - 0.4, 0.8), facecolors=colour,
                       edgecolors="black", linewidth=0.4)
        if label and width > top * 0.05:
            ax.text(start + width / 2, y, label, ha="center", va="center",
                    fontsize=7, clip_on=True)

    for start, end, kind in pm.e820:
        bar(0, start, end, E820_COLOURS.get(kind, "#8c6d31"),
            kind if end - start > top * 0.08 else "", f"e820 {kind}")
    node_colours = ["#9ecae1", "#fdae6b", "#a1d99b", "#bcbddc"]
    for start, end, nid in pm.memory:
        bar(1, start, end, node_colours[nid % 4], f"node {nid}", "memory")
    for start, end in pm.reserved:
        bar(2, start, end, "#636363", "", "reserved")
    for n in pm.nodes:
        bar(3, n.start_pfn * page, n.end_pfn * page,
            node_colours[n.nid % 4], f"node {n.nid}", "node")
    zone_colours = {"DMA": "#fdd0a2", "Normal": "#c6dbef",
                    "HighMem": "#dadaeb"}
    for z in pm.zones:
        bar(4, z.start_pfn * page, z.end_pfn * page, zone_colours[z.name],
            f"{z.name}" + (f" (node {z.nid})" if len(pm.nodes) > 1 else ""),
            "zone")
    if pm.kernel:
        bar(5, *pm.kernel, STATE_COLOURS["K"], "", "kernel")
    for piece in pm.mem_map:
        bar(5, *piece, STATE_COLOURS["M"], "", "mem_map")
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(list(reversed(rows)), fontsize=8)
    ax.set_xlim(0, top)
    ticks = [top * i / 8 for i in range(9)]
    ax.set_xticks(ticks)
    ax.set_xticklabels([mib(int(t) & ~0xfffff if t >= 1 << 20 else int(t))
                        for t in ticks], fontsize=7)
    ax.set_xlabel("physical address (linear scale; a range narrower than "
                  f"{mib(int(min_w) & ~0xfff) if min_w > 4096 else '4 KiB'} "
                  "is drawn that wide)", fontsize=8)
    legend = [Patch(facecolor=c, edgecolor="black", label=k)
              for k, c in E820_COLOURS.items()
              if any(t == k for _, _, t in pm.e820)]
    legend += [Patch(facecolor=STATE_COLOURS["K"], label="kernel image"),
               Patch(facecolor=STATE_COLOURS["M"], label="mem_map"),
               Patch(facecolor="#636363", label="memblock reserved")]
    ax.legend(handles=legend, fontsize=7, loc="upper left",
              bbox_to_anchor=(1.0, 1.0), frameon=False)
    title = (f"physical memory map: max_pfn {snap.max_pfn} "
             f"({mib(snap.max_pfn * page)})")
    if pm.kernel:
        title += f"; kernel {pm.kernel[0]:#x}-{pm.kernel[1]:#x}"
    if pm.mem_map:
        title += "; mem_map " + ", ".join(f"{s:#x}-{e:#x}"
                                          for s, e in pm.mem_map[:2])
        title += " ..." if len(pm.mem_map) > 2 else ""
    ax.set_title(title, fontsize=9)
    if beyond:
        fig.text(0.01, 0.01, "above the RAM drawn: " + "; ".join(beyond[:4])
                 + (" ..." if len(beyond) > 4 else ""), fontsize=7)
    fig.tight_layout(rect=(0, 0.04 if beyond else 0, 1, 1))
    fig.savefig(path)
    plt.close(fig)


def page_map_geometry(max_pfn: int) -> tuple[int, int, int]:
    """(pages per row, rows, pixels per page side) for the page map."""
    width = (128 if max_pfn <= 8192 else 256 if max_pfn <= 32768
             else 512 if max_pfn <= 262144 else 1024)
    rows = -(-max_pfn // width)
    scale = max(1, min(4, 256 // max(rows, 1)))
    return width, rows, scale


def draw_pages(plt, snap: mmsnap.Snapshot, path: str) -> None:
    import numpy as np
    from matplotlib.colors import to_rgb
    from matplotlib.patches import Patch
    width, rows, scale = page_map_geometry(snap.max_pfn)
    codes = mmsnap.expand(snap.runs, snap.max_pfn)
    codes += b"x" * (width * rows - len(codes))
    lut = np.zeros((256, 3), dtype=np.uint8)
    for code, colour in STATE_COLOURS.items():
        lut[ord(code)] = [round(v * 255) for v in to_rgb(colour)]
    img = lut[np.frombuffer(codes, dtype=np.uint8)].reshape(rows, width, 3)
    if scale > 1:
        img = img.repeat(scale, axis=0).repeat(scale, axis=1)
    counts = mmsnap.state_counts(snap.runs)
    order = [c for c in mmsnap.STATES if c in counts]
    dpi = 100
    left, right_legend, top_pad, bottom_pad = 80, 300, 40, 30
    img_w, img_h = width * scale, rows * scale
    legend_h = 16 * len(order) + 20
    fig_w = left + img_w + right_legend
    fig_h = top_pad + max(img_h, legend_h) + bottom_pad
    fig = plt.figure(figsize=(fig_w / dpi, fig_h / dpi), dpi=dpi)
    y0 = fig_h - top_pad - img_h  # figimage's origin is the bottom left
    # Row 0 at the top: figimage draws the array's first row at the top
    # with origin="upper".
    fig.figimage(img, xo=left, yo=y0, origin="upper")
    # a frame, and the pfn of some rows on the left
    fig.patches.append(plt.Rectangle((left - 1, y0 - 1), img_w + 2,
                                     img_h + 2, fill=False, linewidth=0.5,
                                     transform=None, figure=fig))
    steps = max(-(-14 // scale), rows // 8)  # labels 14 pixels apart
    for r in range(0, rows, steps):
        fig.text((left - 4) / fig_w, (y0 + img_h - r * scale - scale / 2)
                 / fig_h, f"pfn {r * width}", ha="right", va="center",
                 fontsize=7)
    fig.text(left / fig_w, 1 - 12 / fig_h,
             f"page-state map at snapshot {snap.seq} ({snap.label}): "
             f"{width} pages a row, {rows} rows, one page = "
             f"{scale}x{scale} pixel{'s' if scale > 1 else ''}",
             fontsize=9, va="top")
    handles = [Patch(facecolor=STATE_COLOURS[c], edgecolor="black",
                     linewidth=0.3,
                     label=f"{c}  {mmsnap.STATES[c]}: {counts[c]}")
               for c in order]
    fig.legend(handles=handles, loc="upper left", fontsize=7, frameon=False,
               bbox_to_anchor=((left + img_w + 10) / fig_w,
                               1 - top_pad / fig_h),
               handlelength=1.2, borderaxespad=0)
    fig.savefig(path, dpi=dpi)
    plt.close(fig)


def draw_frag(plt, snaps: list[mmsnap.Snapshot], path: str) -> None:
    import numpy as np
    from matplotlib.colors import LogNorm
    zones = []
    for s in snaps:
        for key in s.free:
            if key not in zones:
                zones.append(key)
    labels = [mmsnap.short_label(s.label) for s in snaps]
    n = len(snaps)
    # fixed margins (tight_layout would cost a second per figure): per
    # zone 2 inches of heat map and 1 inch for the rotated snapshot labels
    height = 0.4 + 3.0 * len(zones)
    fig, axes = plt.subplots(len(zones), 2, squeeze=False, dpi=80,
                             figsize=(min(16, max(9, 4 + 0.4 * n)),
                                      height))
    fig.subplots_adjust(left=0.05, right=0.96, wspace=0.25,
                        top=1 - 0.35 / height, bottom=1.0 / height,
                        hspace=1.0 / 2.0)
    for row, key in enumerate(zones):
        blocks = np.full((mmsnap.MAX_ORDER, n), np.nan)
        index = np.full((mmsnap.MAX_ORDER, n), np.nan)
        for i, s in enumerate(snaps):
            counts = s.free.get(key)
            if counts is None:
                continue
            blocks[:, i] = [c if c else np.nan for c in counts]
            index[:, i] = mmsnap.unusable_index(counts)
        name = f"node {key[0]} {key[1]}"
        ax = axes[row][0]
        finite = blocks[np.isfinite(blocks)]
        im = ax.imshow(blocks, aspect="auto", origin="lower",
                       interpolation="nearest", cmap="viridis",
                       norm=LogNorm(vmin=1, vmax=max(2, finite.max()))
                       if finite.size else None)
        fig.colorbar(im, ax=ax, pad=0.01, label="blocks (white: none)")
        ax.set_title(f"{name}: free blocks per order", fontsize=9)
        if n <= 30:  # the counts themselves, while they fit
            for (order, i), value in np.ndenumerate(blocks):
                if np.isfinite(value):
                    ax.text(i, order, f"{int(value)}", ha="center",
                            va="center", fontsize=5, color="white"
                            if value < max(2, finite.max()) ** 0.5 else
                            "black")
        ax = axes[row][1]
        im = ax.imshow(index, aspect="auto", origin="lower",
                       interpolation="nearest", cmap="magma_r", vmin=0,
                       vmax=1)
        fig.colorbar(im, ax=ax, pad=0.01, label="unusable index")
        ax.set_title(f"{name}: unusable free space index per order",
                     fontsize=9)
        for ax in axes[row]:
            ax.set_ylabel("order", fontsize=8)
            ax.set_yticks(range(mmsnap.MAX_ORDER))
            ax.tick_params(labelsize=6)
            step = max(1, n // 40)
            ax.set_xticks(range(0, n, step))
            ax.set_xticklabels(labels[::step], rotation=90, fontsize=6)
    fig.savefig(path)
    plt.close(fig)


def draw_slab(plt, snap: mmsnap.Snapshot, path: str) -> None:
    slabs = [s for s in snap.slabs if s.total]
    empty = [s.name for s in snap.slabs if not s.total]
    fig, ax = plt.subplots(figsize=(9, 1.2 + 0.18 * len(slabs)), dpi=80)
    ys = list(range(len(slabs)))[::-1]
    occ = [100 * s.active / s.total if s.total else 0 for s in slabs]
    ax.barh(ys, [100] * len(slabs), color="#deebf7", edgecolor="none")
    ax.barh(ys, occ, color="#3182bd", edgecolor="none")
    for y, s in zip(ys, slabs):
        ax.text(101, y, f"{s.active}/{s.total} objects of {s.objsize} B, "
                        f"{s.slabs} slabs x {s.pages_per_slab} pages",
                va="center", fontsize=6)
    ax.set_yticks(ys)
    ax.set_yticklabels([s.name for s in slabs], fontsize=6)
    ax.set_xlim(0, 175)
    ax.set_xticks([0, 25, 50, 75, 100])
    ax.set_xlabel("objects in use, % of the objects the cache's slabs hold",
                  fontsize=8)
    ax.set_ylim(-0.6, len(slabs) - 0.4)
    ax.set_title(f"slab occupancy at snapshot {snap.seq} ({snap.label}, "
                 f"the one with the most objects in use)", fontsize=9)
    if empty:
        fig.text(0.01, 0.01, f"{len(empty)} caches hold no slab: "
                 + " ".join(empty[:12]) + (" ..." if len(empty) > 12
                                           else ""), fontsize=6)
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    fig.savefig(path)
    plt.close(fig)


# -- one boot --------------------------------------------------------------


def boot_variables(boot) -> list[str]:
    """make run's variables for a matrix boot (what replays it)."""
    out = []
    args = list(boot.qemu_args) if boot else []
    for opt, var in (("-m", "MEM"), ("-smp", "CPUS"), ("-machine", "MACHINE")):
        if opt in args[:-1]:
            value = args[args.index(opt) + 1].split(",")[0]
            out.append(f"{var}={value}")
    if boot and boot.image.startswith("uefi"):
        out.append("FIRMWARE=uefi")
    if boot and boot.image != "elf":
        out.append(f"BOOT={boot.image.replace('uefi', 'iso')}")
    return out


def choose_snapshots(snaps: list[mmsnap.Snapshot]):
    """(the one with the physical map, the one for the page map, the
    complete ones for the timeline, the one for slabs)."""
    whole = [s for s in snaps if s.complete]
    phys = next((s for s in snaps if s.own_physmap and s.physmap
                 and not s.physmap.empty()), None)
    mapped = [s for s in whole if s.map_ok and s.n_runs]
    # the page map with the most runs (the last such): the most fragmented
    # picture teaches most; a quiet machine's end is mostly order-10 blocks
    pages = max(reversed(mapped), default=None, key=lambda s: s.n_runs)
    # the slabs where most objects are in use (the last such)
    slab = max(reversed([s for s in whole if s.slabs]), default=None,
               key=lambda s: sum(c.active for c in s.slabs))
    return phys, pages, [s for s in whole if s.free], slab


def render_boot(job: tuple) -> dict:
    """Reads one log, draws its pictures into out/NAME/ and returns the
    facts the page needs.  Runs in a worker process."""
    name, log_path, out, boot_fields = job
    start = time.monotonic()
    info = {"name": name, "log": log_path, "pictures": [], "errors": [],
            "snapshots": 0, "seconds": 0.0}
    try:
        text = ktap.read_log(log_path)
    except OSError as e:
        info["errors"].append(f"cannot read {log_path}: {e.strerror}")
        return info
    report = ktap.parse(text)
    info["ktap"] = report
    qemu_run = _qemu_run()
    info["summary"] = qemu_run.summary(text, log_path, "",
                                       boot_fields["variables"])
    failures = []
    for suite, case in report.failures():
        if case is None:
            failures.append((suite.display_name(), "(the suite)",
                             suite.directive or "not ok"))
        else:
            failures.append((suite.display_name(), case.name,
                             qemu_run.first_failure(case)))
    info["failures"] = failures
    result = mmsnap.parse(text)
    info["snapshots"] = len(result.snapshots)
    info["snap_labels"] = [s.label for s in result.snapshots]
    info["errors"] += [f"mmsnap: {e}" for e in result.errors[:10]]
    if len(result.errors) > 10:
        info["errors"].append(f"mmsnap: ... and {len(result.errors) - 10} "
                              f"more")
    if result.snapshots:
        plt = _matplotlib()
        phys, pages, timeline, slab = choose_snapshots(result.snapshots)
        where = os.path.join(out, name)
        os.makedirs(where, exist_ok=True)
        jobs = [("physmap", phys, draw_physmap, "the physical memory map"),
                ("pages", pages, draw_pages, "the page-state map"),
                ("frag", timeline or None, draw_frag,
                 "fragmentation over time"),
                ("slab", slab, draw_slab, "slab occupancy")]
        for pic, what, draw, caption in jobs:
            if what is None:
                info["errors"].append(f"no {caption}: no snapshot fit for it")
                continue
            path = os.path.join(where, pic + ".png")
            try:
                draw(plt, what, path)
            except Exception:  # one bad picture must not lose the page
                info["errors"].append(
                    f"{pic}.png failed: "
                    + traceback.format_exc().strip().splitlines()[-1])
                plt.close("all")
                continue
            info["pictures"].append((pic, f"{name}/{pic}.png", caption))
    info["seconds"] = time.monotonic() - start
    return info


# -- the page --------------------------------------------------------------

STYLE = """
body { font-family: sans-serif; margin: 1em 2em; color: #111; }
table { border-collapse: collapse; margin: 0.5em 0; }
td, th { border: 1px solid #bbb; padding: 2px 8px; font-size: 90%; }
th { background: #eee; }
td.n { text-align: right; }
.pass { color: #1a7f37; } .fail { color: #c62828; font-weight: bold; }
pre { background: #f6f6f6; padding: 0.5em; overflow-x: auto; font-size: 85%; }
section { border-top: 2px solid #888; margin-top: 2em; }
img { display: block; margin: 0.5em 0; max-width: 100%; height: auto; }
figure { margin: 0.5em 0; }
figcaption { font-size: 90%; color: #444; }
"""


def esc(text) -> str:
    return html.escape(str(text), quote=True)


def anchor(name: str) -> str:
    return "boot-" + "".join(c if c.isalnum() or c in "-_." else "_"
                             for c in name)


def boot_verdict(info: dict, expect: str | None) -> tuple[str, str]:
    """(css class, words) for the index."""
    report = info.get("ktap")
    if report is None:
        return "fail", "no log"
    if expect == "fail":
        return "pass", "must fail (stops on purpose)"
    if not report.found:
        return "fail", "no KTAP report"
    if report.passed and report.totals is not None:
        return "pass", "passed"
    return "fail", report.verdict if report.totals else "unfinished"


def boot_section(info: dict, boot_fields: dict) -> str:
    name = info["name"]
    out = [f'<section id="{anchor(name)}">', f"<h2>{esc(name)}</h2>"]
    facts = [f"log <code>{esc(info['log'])}</code>"]
    if boot_fields.get("spec"):
        facts.append(f"boot <code>{esc(boot_fields['spec'])}</code>")
    out.append("<p>" + "; ".join(facts) + "</p>")
    report = info.get("ktap")
    if report is not None and report.suites:
        # the suites four to a row: suite, passed, failed, skipped
        per_row = 4
        head = "<th>suite</th><th>passed</th><th>failed</th><th>skipped</th>"
        out.append("<table><tr>" + head * min(per_row, len(report.suites))
                   + "</tr>")
        cells = []
        for suite in report.suites:
            c = suite.counts()
            cls = ' class="fail"' if c.failed or suite.status == ktap.NOT_OK \
                else ""
            cells.append(f"<td{cls}>{esc(suite.display_name())}</td>"
                         f'<td class="n">{c.passed}</td><td class="n">'
                         f'{c.failed}</td><td class="n">{c.skipped}</td>')
        for i in range(0, len(cells), per_row):
            out.append("<tr>" + "".join(cells[i:i + per_row]) + "</tr>")
        c = report.counts()
        out.append(f"</table><p>Total: {c.passed} passed, {c.failed} failed,"
                   f" {c.skipped} skipped.</p>")
    elif report is not None:
        out.append("<p>No KTAP results in this log.</p>")
    if info.get("failures"):
        out.append("<p>Failed cases:</p><ul>")
        for suite, case, message in info["failures"]:
            out.append(f'<li><span class="fail">{esc(suite)}.{esc(case)}'
                       f"</span>: {esc(message)}</li>")
        out.append("</ul>")
    if info.get("summary"):
        out.append("<pre>" + esc("\n".join(info["summary"])) + "</pre>")
    if not info["snapshots"]:
        out.append("<p>No snapshots in this log.</p>")
    else:
        labels = info["snap_labels"]
        out.append(f"<p>{len(labels)} snapshots: "
                   f"{esc(', '.join(labels[:6]))}"
                   f"{' ...' if len(labels) > 6 else ''}</p>")
    for pic, src, caption in info["pictures"]:
        out.append(f'<figure><img src="{esc(src)}" alt="{esc(caption)} of '
                   f'{esc(name)}"><figcaption>{esc(caption)}</figcaption>'
                   f"</figure>")
    if info["errors"]:
        out.append("<p>Problems:</p><ul>")
        out += [f"<li>{esc(e)}</li>" for e in info["errors"]]
        out.append("</ul>")
    out.append("</section>")
    return "\n".join(out)


def page(infos: list[dict], fields: dict[str, dict], took: float) -> str:
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>",
           '<meta charset="utf-8">', "<title>mm86 report</title>",
           f"<style>{STYLE}</style>", "</head>", "<body>",
           "<h1>mm86 report</h1>",
           f"<p>{len(infos)} boot{'s' if len(infos) != 1 else ''}; made by "
           f"tools/report.py in {took:.1f} s.</p>",
           "<table><tr><th>boot</th><th>verdict</th><th>passed</th>"
           "<th>failed</th><th>skipped</th><th>snapshots</th></tr>"]
    for info in infos:
        cls, words = boot_verdict(info, fields[info["name"]].get("expect"))
        report = info.get("ktap")
        c = report.counts() if report else ktap.Counts()
        snaps = info["snapshots"] or "no snapshots"
        out.append(f'<tr><td><a href="#{anchor(info["name"])}">'
                   f'{esc(info["name"])}</a></td><td class="{cls}">'
                   f'{esc(words)}</td><td class="n">{c.passed}</td>'
                   f'<td class="n">{c.failed}</td><td class="n">{c.skipped}'
                   f'</td><td class="n">{snaps}</td></tr>')
    out.append("</table>")
    out += [boot_section(info, fields[info["name"]]) for info in infos]
    out += ["</body>", "</html>", ""]
    return "\n".join(out)


# -- the command line ------------------------------------------------------


def find_logs(logs_dir: str, matrix: str | None) -> list[tuple[str, str]]:
    """(name, path) of every *.log in logs_dir: the matrix's boots first,
    in its order, then the others by name."""
    names = sorted(f[:-4] for f in os.listdir(logs_dir) if f.endswith(".log"))
    order = []
    if matrix and os.path.exists(matrix):
        import runner
        with open(matrix, encoding="utf-8") as f:
            order = [b.name for b in runner.parse_matrix(f.read(), matrix)]
    ranked = [n for n in order if n in names] + \
        [n for n in names if n not in order]
    return [(n, os.path.join(logs_dir, n + ".log")) for n in ranked]


def matrix_fields(matrix: str | None) -> dict[str, dict]:
    if not matrix or not os.path.exists(matrix):
        return {}
    import runner
    with open(matrix, encoding="utf-8") as f:
        text = f.read()
    lines = text.splitlines()
    out = {}
    for b in runner.parse_matrix(text, matrix):
        spec = " | ".join(w.strip() for w in lines[b.lineno - 1].split("|")[1:])
        out[b.name] = {"expect": b.expect, "variables": boot_variables(b),
                       "spec": spec}
    return out


def reexec_under_debian_python(argv: list[str], script: str = __file__
                               ) -> None:
    """Starts script again under Debian's Python when this one lacks
    matplotlib (a pyenv or virtualenv python3 first on the PATH)."""
    try:
        import matplotlib  # noqa: F401
        return
    except ImportError:
        pass
    if os.environ.get(REEXEC_GUARD) or not os.path.exists(DEBIAN_PYTHON) or \
            os.path.realpath(sys.executable) == os.path.realpath(DEBIAN_PYTHON):
        return  # the workers say what is missing
    os.environ[REEXEC_GUARD] = "1"
    os.execv(DEBIAN_PYTHON, [DEBIAN_PYTHON, os.path.abspath(script)] + argv)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("logs", nargs="*", help="serial logs, one boot each")
    ap.add_argument("--logs", dest="logs_dir", help="every *.log of DIR")
    ap.add_argument("--matrix", default=os.path.join(HERE, "..", "tests",
                                                     "boots.txt"))
    ap.add_argument("--out", default="build/report")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    if not args.logs and not args.logs_dir:
        ap.error("name logs, or --logs DIR")
    reexec_under_debian_python(argv)
    start = time.monotonic()
    try:
        fields = matrix_fields(args.matrix)
    except Exception as e:  # a broken matrix must not stop the report
        print(f"report: cannot read the matrix: {e}", file=sys.stderr)
        fields = {}
    logs = []
    if args.logs_dir:
        if not os.path.isdir(args.logs_dir):
            print(f"report: no directory {args.logs_dir} (make test writes "
                  f"the boots' logs there)", file=sys.stderr)
            return 1
        logs += find_logs(args.logs_dir, args.matrix)
    for path in args.logs:
        logs.append((os.path.splitext(os.path.basename(path))[0], path))
    if not logs:
        print(f"report: no logs in {args.logs_dir}", file=sys.stderr)
        return 1
    seen = set()
    for i, (name, path) in enumerate(logs):  # two run.log's: run-2
        base, k = name, 2
        while name in seen:
            name, k = f"{base}-{k}", k + 1
        seen.add(name)
        logs[i] = (name, path)
    fields = {name: fields.get(name, {"expect": None, "variables": [],
                                      "spec": ""}) for name, _ in logs}
    if os.path.exists(os.path.join(args.out, "index.html")):
        shutil.rmtree(args.out)  # ours: no stale pictures
    os.makedirs(args.out, exist_ok=True)
    jobs = [(name, path, args.out, fields[name]) for name, path in logs]
    try:
        if args.jobs > 1 and len(jobs) > 1:
            ctx = multiprocessing.get_context("fork")
            with ctx.Pool(min(args.jobs, len(jobs))) as pool:
                infos = pool.map(render_boot, jobs, chunksize=1)
        else:
            infos = [render_boot(j) for j in jobs]
    except MissingMatplotlib as e:
        print(e, file=sys.stderr)
        return 1
    took = time.monotonic() - start
    index = os.path.join(args.out, "index.html")
    with open(index, "w", encoding="utf-8") as f:
        f.write(page(infos, fields, took))
    pictures = sum(len(i["pictures"]) for i in infos)
    problems = sum(len(i["errors"]) for i in infos)
    print(f"report: {index}: {len(infos)} boot{'s' * (len(infos) != 1)}, "
          f"{pictures} pictures, "
          f"{problems} problems noted, {took:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
