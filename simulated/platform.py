#!/usr/bin/env python3
"""Writes a simulated platform (SimGrid XML) and its host file from a few parameters.

    platform.py NAME [--hosts K] [--cores C] [--nic RATE] [--latency L]
                [--network switch|fattree] [--pstates GHZ,...] [--flops-per-cycle F]
                [--watts BUSY:IDLE,...] [--memory-rate RATE] --out DIR [--ranks N]

NAME is a ready-made platform (below) or "custom"; the options override its parameters.
DIR receives platform.xml, hostfile (one line per rank: ranks fill a host's cores before
the next host) and platform.txt (the parameters, for reports).  Rates take tc-like units:
1gbit, 10gbit, 32gbit, 100gbit, or bytes per second with Bps, kBps, MBps, GBps.

Each host is a SimGrid host with C cores and one P-state per frequency (the core's speed
is frequency x flops per cycle); each pstate's wattage is the built-in power model of
src/energy/model.c scaled to the host's cores: idle = C x idle watts, all cores busy =
C x busy watts.  Ranks on one host talk through a loopback link at the memory rate; ranks
on two hosts cross both hosts' NICs and the network between them: one switch (a shared
backbone at hosts x NIC rate), or a two-level fat tree (hosts per leaf switch = the
square root of the hosts, rounded up; one uplink per leaf per spine, at the NIC rate).
"""
import argparse
import math
import os
import re
import sys

# The power model's built-in table (src/energy/model.c): kHz, busy W, idle W per core.
OPTERON_2380 = [(800000, 7.03, 4.86), (1300000, 9.82, 5.55), (1800000, 13.36, 6.32),
                (2500000, 18.75, 7.28)]

READY = {
    # The paper's Ethernet cluster: 8 nodes of 2 x quad-core Opteron 2380, one 1 GbE NIC.
    "paper-ethernet": dict(hosts=8, cores=8, nic="1gbit", latency="50us", network="switch",
                           pstates="0.8,1.3,1.8,2.5", flops_per_cycle=4.0),
    # The paper's InfiniBand cluster: 16 nodes of 32 cores.  The paper gives no rate:
    # QDR, 32 Gbit/s of data, 1.5 us.
    "paper-infiniband": dict(hosts=16, cores=32, nic="32gbit", latency="1.5us",
                             network="switch", pstates="0.8,1.3,1.8,2.5",
                             flops_per_cycle=4.0),
    # This machine's emulated hosts (scripts/cluster): 2 hosts of 1 core at 1 Gbit/s, one
    # core's dgemm rate (53 GFLOP/s with AVX-512 here), a fixed frequency.
    "emulated": dict(hosts=2, cores=1, nic="1gbit", latency="30us", network="switch",
                     pstates="2.5", flops_per_cycle=21.2),
    # A modern cluster for the scaling study: 64-core nodes, 100 Gbit/s, a fat tree.
    "modern": dict(hosts=64, cores=64, nic="100gbit", latency="1us", network="fattree",
                   pstates="1.5,2.0,2.5,3.0", flops_per_cycle=16.0),
    "custom": dict(hosts=2, cores=1, nic="1gbit", latency="50us", network="switch",
                   pstates="2.5", flops_per_cycle=4.0),
}


def rate_bps(text):
    """Bytes per second from 1gbit, 100mbit, 125MBps and the like."""
    m = re.fullmatch(r"([0-9.]+)\s*([kmg]?)(bit|Bps)", text.strip(), re.IGNORECASE)
    if not m:
        raise SystemExit(f"platform.py: rate '{text}' is not like 1gbit or 125MBps")
    scale = {"": 1, "k": 1e3, "m": 1e6, "g": 1e9}[m.group(2).lower()]
    value = float(m.group(1)) * scale
    return value / 8 if m.group(3).lower() == "bit" else value


def latency_s(text):
    m = re.fullmatch(r"([0-9.]+)\s*(s|ms|us|ns)", text.strip())
    if not m:
        raise SystemExit(f"platform.py: latency '{text}' is not like 50us")
    return float(m.group(1)) * {"s": 1, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}[m.group(2)]


def watts(pstates_ghz, table):
    """Busy and idle watts per core at each frequency, interpolated in the table."""
    out = []
    for ghz in pstates_ghz:
        khz = ghz * 1e6
        if khz <= table[0][0]:
            out.append(table[0][1:])
            continue
        if khz >= table[-1][0]:
            out.append(table[-1][1:])
            continue
        for (k0, b0, i0), (k1, b1, i1) in zip(table, table[1:]):
            if k0 <= khz <= k1:
                x = (khz - k0) / (k1 - k0)
                out.append((b0 + x * (b1 - b0), i0 + x * (i1 - i0)))
                break
    return out


def host_xml(name, p, indent):
    ghz = p["pstates_ghz"]
    # SimGrid lists P-states fastest first: pstate 0 is the highest frequency.
    order = sorted(range(len(ghz)), key=lambda i: -ghz[i])
    speeds = ",".join(f"{ghz[i] * 1e9 * p['flops_per_cycle']:.6g}f" for i in order)
    w = [p["watts"][i] for i in order]
    cores = p["cores"]
    wattage = ",".join(f"{cores * idle:.2f}:{cores * idle:.2f}:{cores * busy:.2f}"
                       for busy, idle in w)
    pad = " " * indent
    return (f'{pad}<host id="{name}" speed="{speeds}" core="{cores}">\n'
            f'{pad}  <prop id="wattage_per_state" value="{wattage}"/>\n'
            f'{pad}  <prop id="wattage_off" value="0"/>\n'
            f'{pad}</host>\n')


def platform_xml(p):
    hosts, nic, lat = p["hosts"], p["nic_bps"], p["latency_s"]
    mem = p["memory_bps"]
    lines = ["<?xml version='1.0'?>",
             '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">',
             '<platform version="4.1">',
             '  <zone id="cluster" routing="Floyd">']
    names = [f"host-{i}" for i in range(hosts)]
    for name in names:
        lines.append(host_xml(name, p, 4).rstrip("\n"))
        lines.append(f'    <link id="{name}-nic" bandwidth="{nic:.6g}Bps" latency="{lat:.6g}s" '
                     'sharing_policy="SPLITDUPLEX"/>')
        lines.append(f'    <link id="{name}-loopback" bandwidth="{mem:.6g}Bps" '
                     'latency="1e-07s" sharing_policy="FATPIPE"/>')
    if p["network"] == "switch" or hosts <= 2:
        lines.append('    <router id="switch"/>')
        lines.append(f'    <link id="backbone" bandwidth="{hosts * nic:.6g}Bps" '
                     'latency="1e-07s"/>')
        for name in names:
            lines.append(f'    <route src="{name}" dst="switch"><link_ctn id="{name}-nic" '
                         'direction="UP"/><link_ctn id="backbone"/></route>')
    else:
        per_leaf = math.ceil(math.sqrt(hosts))
        leaves = math.ceil(hosts / per_leaf)
        spines = per_leaf
        for s in range(spines):
            lines.append(f'    <router id="spine-{s}"/>')
        for l in range(leaves):
            lines.append(f'    <router id="leaf-{l}"/>')
            for s in range(spines):
                lines.append(f'    <link id="up-{l}-{s}" bandwidth="{nic:.6g}Bps" '
                             f'latency="{lat / 2:.6g}s" sharing_policy="SPLITDUPLEX"/>')
                lines.append(f'    <route src="leaf-{l}" dst="spine-{s}"><link_ctn '
                             f'id="up-{l}-{s}" direction="UP"/></route>')
        for i, name in enumerate(names):
            lines.append(f'    <route src="{name}" dst="leaf-{i // per_leaf}"><link_ctn '
                         f'id="{name}-nic" direction="UP"/></route>')
    for name in names:
        lines.append(f'    <route src="{name}" dst="{name}" symmetrical="NO"><link_ctn id="{name}-loopback"/>'
                     '</route>')
    lines += ["  </zone>", "</platform>", ""]
    return "\n".join(lines)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("name", choices=sorted(READY))
    ap.add_argument("--hosts", type=int)
    ap.add_argument("--cores", type=int)
    ap.add_argument("--nic")
    ap.add_argument("--latency")
    ap.add_argument("--network", choices=["switch", "fattree"])
    ap.add_argument("--pstates")
    ap.add_argument("--flops-per-cycle", type=float)
    ap.add_argument("--memory-rate", default="10GBps")
    ap.add_argument("--ranks", type=int)
    ap.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    p = dict(READY[a.name])
    for key in ("hosts", "cores", "nic", "latency", "network", "pstates", "flops_per_cycle"):
        if getattr(a, key) is not None:
            p[key] = getattr(a, key)
    if p["hosts"] < 1 or p["cores"] < 1:
        raise SystemExit("platform.py: --hosts and --cores must be at least 1")
    p["pstates_ghz"] = [float(x) for x in str(p["pstates"]).split(",")]
    p["watts"] = watts(p["pstates_ghz"], OPTERON_2380)
    p["nic_bps"] = rate_bps(p["nic"])
    p["latency_s"] = latency_s(p["latency"])
    p["memory_bps"] = rate_bps(a.memory_rate)
    ranks = a.ranks or p["hosts"] * p["cores"]
    if ranks > p["hosts"] * p["cores"]:
        raise SystemExit(f"platform.py: {ranks} ranks do not fit {p['hosts']} hosts of "
                         f"{p['cores']} cores")
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "platform.xml"), "w") as f:
        f.write(platform_xml(p))
    with open(os.path.join(a.out, "hostfile"), "w") as f:
        for r in range(ranks):
            f.write(f"host-{r // p['cores']}\n")
    with open(os.path.join(a.out, "platform.txt"), "w") as f:
        f.write(f"{a.name}: {p['hosts']} hosts x {p['cores']} cores, NIC {p['nic']} "
                f"{p['latency']}, {p['network']}, P-states {p['pstates']} GHz x "
                f"{p['flops_per_cycle']:g} flops/cycle\n")


if __name__ == "__main__":
    main(sys.argv[1:])
