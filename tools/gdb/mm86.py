"""gdb commands that read mm86's allocator state: `make gdb` loads this file.

    mm-buddyinfo   free blocks per node, zone and order (/proc/buddyinfo)
    mm-zoneinfo    each zone's free pages, watermarks, sizes, counters and
                   per-CPU lists (/proc/zoneinfo)
    mm-pcp         each online CPU's hot and cold list per zone
    mm-slabinfo    every cache's objects and slabs (/proc/slabinfo 2.1)
    mm-gfp MASK    a GFP mask in words, as the kernel's gfp_describe()
    mm-page X      one page frame: X a PFN, a lowmem virtual address, a
                   struct page pointer or an address inside mem_map;
                   flags, node, zone, count, free order, owner cache
    mm-physmap     the e820 map (as the boot log prints it), nodes, zones

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


# arch/x86/include/asm/page.h: lowmem is mapped at this virtual address
# (a macro, so not in the debug information of a -g build).
PAGE_OFFSET = 0xC0000000
PAGE_SHIFT = 12


def _page_flag_names():
    """(bit, name) of enum pageflags, from the debug information."""
    names = []
    for f in gdb.lookup_type("enum pageflags").fields():
        if f.name.startswith("PG_"):
            names.append((int(f.enumval), f.name[3:]))
    return names


def _zone_of_pfn(pfn):
    """(nid, zone) whose span holds pfn, or (None, None)."""
    for nid in range(int(_val("nr_online_nodes"))):
        zones = _val("node_data")[nid].dereference()["node_zones"]
        for i in range(_array_len(zones)):
            z = zones[i]
            start = int(z["zone_start_pfn"])
            if start <= pfn < start + int(z["spanned_pages"]):
                return nid, z
    return None, None


def _pfn_of(arg):
    """A PFN from mm-page's argument (see the module's docstring)."""
    value = _val(arg)
    mem_map = int(_val("mem_map"))
    page_size = gdb.lookup_type("struct page").sizeof
    max_pfn = int(_val("max_pfn"))
    code = value.type.strip_typedefs().code
    if code == gdb.TYPE_CODE_PTR:
        addr = int(value)
    else:
        addr = int(value) & 0xffffffff
        if addr < max_pfn:
            return addr
    if mem_map <= addr < mem_map + max_pfn * page_size:
        return (addr - mem_map) // page_size
    if addr >= PAGE_OFFSET:
        return (addr - PAGE_OFFSET) >> PAGE_SHIFT
    raise gdb.GdbError(f"{arg}: {addr:#x} is not a PFN below max_pfn "
                       f"({max_pfn}), an address in mem_map nor a lowmem "
                       f"address")


def page_lines(arg):
    pfn = _pfn_of(arg)
    if pfn >= int(_val("max_pfn")):
        raise gdb.GdbError(f"pfn {pfn:#x} has no struct page (max_pfn "
                           f"{int(_val('max_pfn')):#x})")
    page = _val("mem_map")[pfn]
    flags = int(page["flags"])
    names = [name for bit, name in _page_flag_names() if flags >> bit & 1]
    nid, zone = _zone_of_pfn(pfn)
    where = (f"node {nid} zone {_zone_label(zone)}" if zone is not None
             else "in no zone")
    lines = [f"pfn {pfn:#x} phys {pfn << PAGE_SHIFT:#x} page "
             f"{int(page.address):#x} {where}",
             f"flags {flags:#x}({'|'.join(names) or 'none'}) count "
             f"{int(page['_count'])} private {int(page['private'])}"]
    if "buddy" in names:
        lines.append(f"free: head of a buddy block of order "
                     f"{int(page['private'])}")
    elif "pcp" in names:
        lines.append("free: on a per-CPU list")
    else:
        # a tail of a free buddy block: a head below it of a large order
        for order in range(1, 64):
            head = pfn & ~((1 << order) - 1)
            hp = _val("mem_map")[head]
            if head != pfn and int(hp["flags"]) >> \
                    int(_val("PG_buddy")) & 1:
                if int(hp["private"]) >= order:
                    lines.append(f"free: in the buddy block of order "
                                 f"{int(hp['private'])} at pfn {head:#x}")
                break
            if head == 0:
                break
    if "slab" in names:
        cachep = page["owner_data"][0]
        cache = gdb.Value(int(cachep)).cast(
            gdb.lookup_type("struct kmem_cache").pointer())
        name = cache["name"].string() if int(cachep) else "?"
        lines.append(f"slab: cache {name} ({int(cachep):#x}) slab "
                     f"{int(page['owner_data'][1]):#x}")
    return lines


def e820_lines(table, who):
    names = _static("e820_type_names", "mm/e820.c")
    count = _array_len(names)
    lines = []
    for i in range(int(table["nr_entries"])):
        e = table["entries"][i]
        addr, size, typ = int(e["addr"]), int(e["size"]), int(e["type"])
        if typ < count and int(names[typ]):
            word = names[typ].string()
        elif typ in (int(_val("E820_TYPE_PMEM")),
                     int(_val("E820_TYPE_PRAM"))):
            word = f"persistent (type {typ})"
        else:
            word = f"type {typ}"
        lines.append(f"{who}: [mem {addr:#018x}-{addr + size - 1:#018x}] "
                     f"{word}")
    return lines


def physmap_lines():
    firmware = _val("e820_table_firmware").dereference()
    table = _val("e820_table").dereference()
    lines = e820_lines(firmware, "BIOS-e820")
    current = e820_lines(table, "e820")
    if [l.split(":", 1)[1] for l in current] != \
            [l.split(":", 1)[1] for l in lines]:
        lines += current
    for nid in range(int(_val("nr_online_nodes"))):
        pgdat = _val("node_data")[nid].dereference()
        start = int(pgdat["node_start_pfn"])
        end = start + int(pgdat["node_spanned_pages"])
        lines.append(f"node {nid}: pfn [{start:#x}, {end:#x}) present "
                     f"{int(pgdat['node_present_pages'])} pages")
        zones = pgdat["node_zones"]
        for i in range(_array_len(zones)):
            z = zones[i]
            if int(z["spanned_pages"]) == 0:
                continue
            zs = int(z["zone_start_pfn"])
            ze = zs + int(z["spanned_pages"])
            lines.append(f"  zone {_zone_label(z):<8} pfn [{zs:#x}, {ze:#x}) "
                         f"spanned {int(z['spanned_pages'])} present "
                         f"{int(z['present_pages'])} managed "
                         f"{int(z['managed_pages'])}")
    mem_map = int(_val("mem_map"))
    size = int(_val("max_pfn")) * gdb.lookup_type("struct page").sizeof
    lines.append(f"mem_map: {mem_map:#x}-{mem_map + size - 1:#x} "
                 f"({int(_val('max_pfn'))} struct pages), max_low_pfn "
                 f"{int(_val('max_low_pfn')):#x}")
    return lines


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


class Page(_Command):
    """mm-page PFN|ADDR: one page frame's flags, node, zone, count, free
    order and owner cache.  A number below max_pfn is a PFN; a pointer or
    a larger number is an address inside mem_map (a struct page or its
    lru) or a lowmem virtual address."""

    def __init__(self):
        super().__init__("mm-page")

    def lines(self, arg):
        if not arg.strip():
            raise gdb.GdbError("usage: mm-page PFN|ADDR")
        return page_lines(arg)


class PhysMap(_Command):
    """The e820 map (the boot log's BIOS-e820 lines, then the map in use
    if mem=/memmap= changed it), each node's and zone's PFN span and
    sizes, and mem_map."""

    def __init__(self):
        super().__init__("mm-physmap")

    def lines(self, arg):
        return physmap_lines()


BuddyInfo()
ZoneInfo()
Pcp()
SlabInfo()
Gfp()
Page()
PhysMap()
