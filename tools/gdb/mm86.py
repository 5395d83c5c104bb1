"""gdb commands that read mm86's allocator state: `make gdb` loads this file.

    mm-buddyinfo   free blocks per node, zone and order (/proc/buddyinfo)
    mm-zoneinfo    each zone's free pages, watermarks, sizes, counters and
                   per-CPU lists (/proc/zoneinfo)
    mm-pcp         each online CPU's hot and cold list per zone
    mm-slabinfo    every cache's objects and slabs (/proc/slabinfo 2.1)
    mm-gfp MASK    a GFP mask in words, as the kernel's gfp_describe()

Each command reads the kernel's structures through gdb's Python API
(gdb.parse_and_eval and the types of the debug information), never by
parsing what gdb prints, and prints the very lines the kernel's own dump
prints (mm/vmstat.c, mm/slab_cache.c) without the printk timestamp, so
that the two can be compared line by line (tools/test_gdb.py does).
mm-gfp takes its names from the tables in the kernel image
(mm/gfp_names.c), so it cannot drift from them.

The machine should be stopped somewhere quiet (a breakpoint): what is
read is a snapshot taken without the kernel's locks.
"""

import gdb


def _val(expr):
    return gdb.parse_and_eval(expr)


def _static(name, filename):
    """A file-static variable of the kernel (tables the dumps print from)."""
    return _val(f"'{filename}'::{name}")


def _array_len(value):
    lo, hi = value.type.range()
    return hi - lo + 1


def _cstr(ptr):
    return ptr.string() if int(ptr) else ""


def _list_entries(head, type_name, member):
    """The entries of a struct list_head (list_for_each_entry)."""
    typ = gdb.lookup_type(type_name)
    offset = None
    for f in typ.fields():
        if f.name == member:
            offset = f.bitpos // 8
    if offset is None:
        raise gdb.GdbError(f"{type_name} has no member {member}")
    ptr_type = typ.pointer()
    head_addr = int(head.address)
    node = head["next"]
    seen = 0
    while int(node) != head_addr:
        seen += 1
        if seen > 1_000_000:
            raise gdb.GdbError(f"list at {head_addr:#x} does not end")
        yield gdb.Value(int(node) - offset).cast(ptr_type).dereference()
        node = node["next"]


def _populated_zones():
    """(nid, zone) of every populated zone, as for_each_populated_zone."""
    nodes = int(_val("nr_online_nodes"))
    for nid in range(nodes):
        pgdat = _val("node_data")[nid].dereference()
        zones = pgdat["node_zones"]
        for i in range(_array_len(zones)):
            zone = zones[i]
            if int(zone["present_pages"]) != 0:
                yield nid, zone


def _zone_label(zone):
    if int(zone["name"]):
        return zone["name"].string()
    return _val("zone_names")[int(zone["type"])].string()


def _zone_nid(zone):
    return int(zone["zone_pgdat"]["node_id"])


def _online_cpus():
    bits = _val("cpu_online_bits")
    width = bits.type.target().sizeof * 8
    for cpu in range(int(_val("nr_cpu_ids"))):
        if (int(bits[cpu // width]) >> (cpu % width)) & 1:
            yield cpu


def buddyinfo_lines():
    lines = []
    for _, zone in _populated_zones():
        area = zone["free_area"]
        line = f"Node {_zone_nid(zone)}, zone {_zone_label(zone):>8} "
        for order in range(_array_len(area)):
            line += f"{int(area[order]['nr_free']):6d} "
        lines.append(line)
    return lines


def _zone_stat(zone, item):
    pagesets = zone["pageset"]
    return sum(int(pagesets[cpu]["stat"][item])
               for cpu in range(_array_len(pagesets)))


def pcp_lines(zone):
    lines = ["  pagesets"]
    for cpu in _online_cpus():
        for j in range(2):
            pcp = zone["pageset"][cpu]["pcp"][j]
            lines += [f"    cpu: {cpu} pcp: {j}",
                      f"              count: {int(pcp['count'])}",
                      f"              high:  {int(pcp['high'])}",
                      f"              batch: {int(pcp['batch'])}"]
    return lines


def zoneinfo_lines():
    names = _static("zone_stat_names", "mm/vmstat.c")
    lines = []
    for _, zone in _populated_zones():
        lines.append(f"Node {_zone_nid(zone)}, zone {_zone_label(zone):>8}")
        lines.append(f"  pages free     {int(zone['free_pages'])}")
        for label, field in (("min", "pages_min"), ("low", "pages_low"),
                             ("high", "pages_high"),
                             ("spanned", "spanned_pages"),
                             ("present", "present_pages"),
                             ("managed", "managed_pages")):
            lines.append(f"        {label:<8} {int(zone[field])}")
        reserve = zone["lowmem_reserve"]
        lines.append("        protection: (" + ", ".join(
            str(int(reserve[i])) for i in range(_array_len(reserve))) + ")")
        for i in range(_array_len(names)):
            lines.append(f"      {names[i].string():<12} {_zone_stat(zone, i)}")
        lines += pcp_lines(zone)
        lines.append(f"  start_pfn:           {int(zone['zone_start_pfn'])}")
    return lines


def pcp_table_lines():
    lines = ["node zone     cpu list  count  low high batch"]
    for nid, zone in _populated_zones():
        for cpu in _online_cpus():
            for j, kind in enumerate(("hot", "cold")):
                pcp = zone["pageset"][cpu]["pcp"][j]
                lines.append(f"{nid:4d} {_zone_label(zone):<8} {cpu:3d} "
                             f"{kind:<4} {int(pcp['count']):6d} "
                             f"{int(pcp['low']):4d} {int(pcp['high']):4d} "
                             f"{int(pcp['batch']):5d}")
    return lines


def slabinfo_lines():
    lines = ["slabinfo - version: 2.1",
             "# name            <active_objs> <num_objs> <objsize> "
             "<objperslab> <pagesperslab> : tunables <limit> <batchcount> "
             "<sharedfactor> : slabdata <active_slabs> <num_slabs> "
             "<sharedavail>"]
    nodes = int(_val("nr_online_nodes"))
    for cachep in _list_entries(_val("cache_chain"), "struct kmem_cache",
                                "next"):
        active_slabs = free_slabs = free_objs = 0
        for nid in range(nodes):
            l3 = cachep["nodelists"][nid]
            for name in ("slabs_full", "slabs_partial"):
                active_slabs += sum(1 for _ in _list_entries(
                    l3[name], "struct slab", "list"))
            free_slabs += sum(1 for _ in _list_entries(
                l3["slabs_free"], "struct slab", "list"))
            free_objs += int(l3["free_objects"])
        num_slabs = active_slabs + free_slabs
        num_objs = num_slabs * int(cachep["num"])
        active_objs = num_objs - free_objs
        lines.append(
            f"{cachep['name'].string():<17} {active_objs:6d} {num_objs:6d} "
            f"{int(cachep['buffer_size']):6d} {int(cachep['num']):4d} "
            f"{1 << int(cachep['gfporder']):4d} : tunables "
            f"{int(cachep['limit']):4d} {int(cachep['batchcount']):4d} "
            f"{0:4d} : slabdata {active_slabs:6d} {num_slabs:6d} {0:6d}")
    return lines


def gfp_describe(mask):
    """mm/gfp_names.c's gfp_describe(), over the tables in the image."""
    mask &= 0xffffffff
    composites = _static("gfp_composites", "mm/gfp_names.c")
    bits = _static("gfp_bits", "mm/gfp_names.c")
    words = []
    if not mask:
        words.append("GFP_NOWAIT")
    for i in range(_array_len(composites)):
        m = int(composites[i]["mask"])
        if mask & m == m:
            words.append(composites[i]["name"].string())
            mask &= ~m
            break
    for i in range(_array_len(bits)):
        m = int(bits[i]["mask"])
        if mask & m:
            words.append(bits[i]["name"].string())
            mask &= ~m
    if mask:
        words.append(f"{mask:#x}")
    return "|".join(words)


class _Command(gdb.Command):
    """Base: a command that prints lines, with gdb's errors for misuse."""

    def __init__(self, name):
        super().__init__(name, gdb.COMMAND_DATA)

    def lines(self, arg):
        raise NotImplementedError

    def invoke(self, arg, from_tty):
        for line in self.lines(arg):
            gdb.write(line + "\n")


class BuddyInfo(_Command):
    """Free blocks per node, zone and order, as /proc/buddyinfo."""

    def __init__(self):
        super().__init__("mm-buddyinfo")

    def lines(self, arg):
        return buddyinfo_lines()


class ZoneInfo(_Command):
    """Each populated zone's free pages, watermarks, sizes, counters and
    per-CPU lists, as /proc/zoneinfo."""

    def __init__(self):
        super().__init__("mm-zoneinfo")

    def lines(self, arg):
        return zoneinfo_lines()


class Pcp(_Command):
    """Each online CPU's hot and cold list per zone: count, low, high, batch."""

    def __init__(self):
        super().__init__("mm-pcp")

    def lines(self, arg):
        return pcp_table_lines()


class SlabInfo(_Command):
    """Every slab cache's objects and slabs, as /proc/slabinfo 2.1."""

    def __init__(self):
        super().__init__("mm-slabinfo")

    def lines(self, arg):
        return slabinfo_lines()


class Gfp(_Command):
    """mm-gfp MASK: a GFP mask in words, as the kernel's gfp_describe()."""

    def __init__(self):
        super().__init__("mm-gfp")

    def lines(self, arg):
        if not arg.strip():
            raise gdb.GdbError("usage: mm-gfp MASK (e.g. mm-gfp 0x250)")
        mask = int(_val(arg))
        return [f"{mask & 0xffffffff:#x}({gfp_describe(mask)})"]


BuddyInfo()
ZoneInfo()
Pcp()
SlabInfo()
Gfp()
