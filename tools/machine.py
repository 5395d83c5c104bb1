"""The machines mm86 boots on, as QEMU arguments; the one place that knows
them.

tools/runner.py (the boot matrix) and tools/qemu-run (make run and debug)
both build their QEMU command lines here, so an image kind, a firmware file
or a pflash option is defined once.

An image kind names a firmware and what it boots:

    elf       BIOS (SeaBIOS), QEMU loads the kernel itself: -kernel, -append
              (Multiboot 1); the machine is QEMU's default unless the
              options say -machine q35
    iso       BIOS, GRUB from build/mm86.iso, default entry: multiboot2
    iso-mb1   BIOS, GRUB from build/mm86-mb1.iso, default entry: multiboot
    uefi      q35 with 32-bit OVMF, GRUB (i386-efi) from build/mm86.iso
    uefi-mb1  q35 with 32-bit OVMF, GRUB from build/mm86-mb1.iso

An ISO boot takes its kernel command line from GRUB's config.  OVMF is
Debian's ovmf-ia32: only its secure-boot build, which needs SMM, hence
q35,smm=on and a secure pflash; no keys are enrolled, so nothing is
enforced.  OVMF writes its variables, so every UEFI boot gets its own copy
of the variable store (copy_vars), fresh from the template: boots that run
at the same time never share one, and no boot sees another's leftovers.

Everything here is pure but copy_vars(); test_ktap.py checks the argument
lists exactly.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass

EXIT_PASSED = 33  # the kernel wrote 0x10 to isa-debug-exit
EXIT_FAILED = 35  # the kernel wrote 0x11: a failure or a panic
DEBUG_EXIT = ["-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"]

OVMF_CODE = "/usr/share/OVMF/OVMF32_CODE_4M.secboot.fd"
OVMF_VARS = "/usr/share/OVMF/OVMF32_VARS_4M.fd"


@dataclass(frozen=True)
class Kind:
    """What an image kind boots: its firmware and its image."""

    firmware: str  # "bios" or "uefi"
    image: str  # "kernel", "iso" or "iso-mb1"


KINDS = {
    "elf": Kind("bios", "kernel"),
    "iso": Kind("bios", "iso"),
    "iso-mb1": Kind("bios", "iso-mb1"),
    "uefi": Kind("uefi", "iso"),
    "uefi-mb1": Kind("uefi", "iso-mb1"),
}
FIRMWARES = ("bios", "uefi")
BOOTS = ("kernel", "iso", "iso-mb1")


@dataclass(frozen=True)
class Images:
    """The files the image kinds boot."""

    kernel: str = "build/mm86.elf"
    iso: str = "build/mm86.iso"
    iso_mb1: str = "build/mm86-mb1.iso"

    def path(self, image: str) -> str:
        return {"kernel": self.kernel, "iso": self.iso,
                "iso-mb1": self.iso_mb1}[image]


@dataclass(frozen=True)
class Firmware:
    """The UEFI firmware: its code and the template of its variables."""

    code: str = OVMF_CODE
    vars_template: str = OVMF_VARS


def kind_for(firmware: str, boot: str) -> str:
    """The image kind of a firmware and a boot; ValueError when none."""
    for name, kind in KINDS.items():
        if kind == Kind(firmware, boot):
            return name
    if firmware not in FIRMWARES:
        raise ValueError(f"firmware must be one of {', '.join(FIRMWARES)}, "
                         f"got {firmware!r}")
    if boot not in BOOTS:
        raise ValueError(f"boot must be one of {', '.join(BOOTS)}, "
                         f"got {boot!r}")
    raise ValueError(f"firmware {firmware} cannot boot {boot}: UEFI boots "
                     f"GRUB from an ISO (iso or iso-mb1)")


def takes_cmdline(kind: str) -> bool:
    """Whether the kind passes a command line (ISO boots: GRUB's config)."""
    return KINDS[kind].image == "kernel"


def firmware_args(kind: str, firmware: Firmware, vars_path: str | None,
                  machine: str | None = None) -> list[str]:
    """The machine and firmware options of a kind.

    machine ("pc", "q35", ...) is for BIOS kinds; None keeps QEMU's
    default.  UEFI kinds are always q35 and need vars_path, the boot's own
    copy of the variable store.
    """
    if KINDS[kind].firmware == "bios":
        return ["-machine", machine] if machine else []
    if machine not in (None, "q35"):
        raise ValueError(f"UEFI boots run on q35 (OVMF needs its SMM), "
                         f"not {machine}")
    if vars_path is None:
        raise ValueError("a UEFI boot needs its own copy of the variables")
    return ["-machine", "q35,smm=on",
            "-global", "driver=cfi.pflash01,property=secure,value=on",
            "-drive", f"if=pflash,format=raw,unit=0,readonly=on,"
                      f"file={firmware.code}",
            "-drive", f"if=pflash,format=raw,unit=1,file={vars_path}"]


def image_args(kind: str, images: Images, cmdline: str) -> list[str]:
    """The options that load a kind's image."""
    k = KINDS[kind]
    if k.image == "kernel":
        return ["-kernel", images.kernel, "-append", cmdline]
    if cmdline:
        raise ValueError(f"an {kind} boot takes its command line from "
                         f"GRUB's config, not {cmdline!r}")
    return ["-cdrom", images.path(k.image), "-boot", "d"]


def device_args(kind: str) -> list[str]:
    """The devices a kind leaves out.  No boot has a network card: nothing
    here uses one, and the firmware spends time on its option ROM (iPXE).
    A -kernel boot has no video card either, so SeaBIOS runs no video BIOS
    (GRUB, on the ISO kinds, keeps the one it may draw its menu on)."""
    return ["-nic", "none"] + (["-vga", "none"]
                               if KINDS[kind].image == "kernel" else [])


def qemu_args(kind: str, images: Images, cmdline: str, firmware: Firmware,
              vars_path: str | None, machine: str | None = None) -> list[str]:
    """Firmware, machine, device and image options of one boot (no serial
    etc.)."""
    return (firmware_args(kind, firmware, vars_path, machine)
            + device_args(kind) + image_args(kind, images, cmdline))


def needed_files(kind: str, images: Images,
                 firmware: Firmware) -> list[tuple[str, str]]:
    """(what, path) of every file a kind reads."""
    k = KINDS[kind]
    what = "kernel" if k.image == "kernel" else "ISO image"
    files = [(what, images.path(k.image))]
    if k.firmware == "uefi":
        files += [("OVMF code (Debian: ovmf-ia32)", firmware.code),
                  ("OVMF variables (Debian: ovmf-ia32)",
                   firmware.vars_template)]
    return files


def missing_file(kinds, images: Images, firmware: Firmware) -> str | None:
    """A sentence naming the first missing file the kinds need, or None."""
    seen = set()
    for kind in kinds:
        for what, path in needed_files(kind, images, firmware):
            if path in seen:
                continue
            seen.add(path)
            if not os.path.isfile(path):
                hint = " (build it first)" if "OVMF" not in what else ""
                return f"{what} {path} not found{hint}"
    return None


def copy_vars(firmware: Firmware, dest: str) -> None:
    """Writes a fresh copy of the variable store to dest (OSError)."""
    shutil.copyfile(firmware.vars_template, dest)
