#!/usr/bin/env python3
"""Writes a simulated platform (SimGrid XML) and its host file from a few parameters.

    platform.py NAME [--hosts K] [--cores C] [--nic RATE] [--latency L]
                [--network switch|fattree] [--transport tcp|rdma] [--pstates GHZ,...]
                [--flops-per-cycle F] [--host-flops F] [--memory-rate RATE]
                [--memory-total RATE] [--memory-gb GB] --out DIR [--ranks N]

NAME is a ready-made platform (below) or "custom"; the options override its parameters.
DIR receives platform.xml, hostfile (one line per rank: ranks fill a host's cores before
the next host), platform.txt (the parameters, for reports) and smpi.cfg (the simulator's
settings the platform implies, one --cfg=... per line, for scripts/simulate).  Rates take
tc-like units: 1gbit, 10gbit, 32gbit, 100gbit, or bytes per second with Bps, kBps, MBps,
GBps.

Each node is a zone of C simulated hosts, one per core, so that every core has its own
P-states (the core's speed is frequency x flops per cycle) and its own energy, drawn from
the built-in power model of src/energy/model.c (per core: idle watts idle, busy watts at
full load).  Ranks on one node talk through its memory: each core's link at the memory
rate (what one core's copies move) and the node's backbone at the memory total (what all
of its cores' copies move together); ranks on two nodes cross both nodes' NICs and the network
between them: one switch (a shared backbone at nodes x NIC rate), or a two-level fat tree
(nodes per leaf switch = the square root of the nodes, rounded up; one uplink per leaf per
spine, at the NIC rate).  To the library every core is a node of its own.

The transport says whether a message's bytes make traffic back: over TCP (Ethernet, the
emulated hosts) acknowledgements flow against the data, which the simulator models as a
flow of a twentieth of the message the other way (its "cross traffic"); InfiniBand's RDMA
acknowledges in the link layer, at no cost a flow model would see, so an rdma platform
turns that flow off, which also spares the simulator a fifth of its work where hundreds
of messages are in flight (its bandwidth sharing solves for every flow).

--host-flops is one core's dgemm rate on the machine that runs the simulation (the rate
table's, simulated/kernels): a platform that models that machine (emulated) runs its
cores at it, so that a kernel takes the time it takes there.
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
                           transport="tcp", pstates="0.8,1.3,1.8,2.5", flops_per_cycle=4.0,
                           memory_gb=16, memory_rate="10GBps", memory_total="10GBps"),
    # The paper's InfiniBand cluster: 16 nodes of 32 cores.  The paper gives no rate:
    # QDR, 32 Gbit/s of data, 1.5 us.
    "paper-infiniband": dict(hosts=16, cores=32, nic="32gbit", latency="1.5us",
                             network="switch", transport="rdma", pstates="0.8,1.3,1.8,2.5",
                             flops_per_cycle=4.0, memory_gb=64, memory_rate="10GBps",
                             memory_total="10GBps"),
    # This machine's emulated hosts (scripts/cluster): 2 hosts of 1 core at 1 Gbit/s, each
    # core at this machine's dgemm rate (--host-flops; without it, 53 GFLOP/s, a rate
    # of AVX-512 cores, which only the correctness mode may take, where computation takes
    # no time), a fixed frequency.  An 8-byte MPI message between them takes 5 to 9 us
    # (half a round trip; their links add no delay of their own), so each of the two
    # NICs a message crosses takes 3 us.
    "emulated": dict(hosts=2, cores=1, nic="1gbit", latency="3us", network="switch",
                     transport="tcp", pstates="2.5", flops_per_cycle="host", memory_gb=12,
                     memory_rate="10GBps", memory_total="10GBps"),
    # A modern cluster for the scaling study: 64-core nodes, 100 Gbit/s RDMA, a fat tree.
    # A core copies at 10 GB/s, and the node's memory (about 200 GB/s of streams on a
    # 64-core node of the period) carries 100 GB/s of copies at once, each byte copied
    # being read and written: not 10 GB/s, less than its own NIC's rate.
    "modern": dict(hosts=64, cores=64, nic="100gbit", latency="1us", network="fattree",
                   transport="rdma", pstates="1.5,2.0,2.5,3.0", flops_per_cycle=16.0,
                   memory_gb=512, memory_rate="10GBps", memory_total="100GBps"),
    "custom": dict(hosts=2, cores=1, nic="1gbit", latency="50us", network="switch",
                   transport="tcp", pstates="2.5", flops_per_cycle=4.0, memory_gb=16,
                   memory_rate="10GBps", memory_total="10GBps"),
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


def core_props(p):
    """A core's P-states, fastest first as SimGrid numbers them: speeds, the wattages of the
    power model (idle, idle, busy: SimGrid's idle, epsilon and full load), and the
    frequencies the library's DVFS backend reads back."""
    ghz = p["pstates_ghz"]
    order = sorted(range(len(ghz)), key=lambda i: -ghz[i])
    speeds = ",".join(f"{ghz[i] * 1e9 * p['flops_per_cycle']:.6g}f" for i in order)
    wattage = ",".join(f"{p['watts'][i][1]:.2f}:{p['watts'][i][1]:.2f}:{p['watts'][i][0]:.2f}"
                       for i in order)
    khz = ",".join(f"{round(ghz[i] * 1e6)}" for i in order)
    return speeds, wattage, khz


def node_zone(n, p):
    """Node n: one host per core (each core its own P-state and energy), joined by the
    node's memory as a cluster's links and backbone, behind the node's router.  A core's
    messages to itself take a loopback link of its own, free and instant, so that they
    share nothing with the node's traffic (the library's polls send such messages under
    the simulator: simulated/requests.c)."""
    speeds, wattage, khz = core_props(p)
    mem, total = p["memory_bps"], p["memory_total_bps"]
    memory = int(p["memory_gb"] * 2**30 / p["cores"])  # the core's share of its node's
    return (f'    <cluster id="node-{n}" prefix="node-{n}-core-" suffix="" '
            f'radical="0-{p["cores"] - 1}" speed="{speeds}" core="1" bw="{mem:.6g}Bps" '
            f'lat="1e-07s" bb_bw="{total:.6g}Bps" bb_lat="0s" loopback_bw="1e+15Bps" '
            f'loopback_lat="0s" router_id="node-{n}-router">\n'
            f'      <prop id="wattage_per_state" value="{wattage}"/>\n'
            f'      <prop id="wattage_off" value="0"/>\n'
            f'      <prop id="frequencies_khz" value="{khz}"/>\n'
            f'      <prop id="memory_bytes" value="{memory}"/>\n'
            f'      <prop id="node" value="{n}"/>\n'
            f'    </cluster>')


def platform_xml(p):
    """Nodes as zones in a top zone whose routes name every link a message between two
    nodes crosses: both NICs, and in a fat tree the two leaves' uplinks to one spine
    (spine (i + j) mod spines for nodes i and j, a static spread of the pairs)."""
    hosts, nic, lat = p["hosts"], p["nic_bps"], p["latency_s"]
    lines = ["<?xml version='1.0'?>",
             '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">',
             '<platform version="4.1">',
             '  <zone id="cluster" routing="Full">']
    for n in range(hosts):
        lines.append(node_zone(n, p))
    for n in range(hosts):
        lines.append(f'    <link id="node-{n}-nic" bandwidth="{nic:.6g}Bps" latency="{lat:.6g}s" '
                     'sharing_policy="SPLITDUPLEX"/>')
    fattree = p["network"] == "fattree" and hosts > 2
    if fattree:
        per_leaf = math.ceil(math.sqrt(hosts))
        leaves = math.ceil(hosts / per_leaf)
        spines = per_leaf
        for l in range(leaves):
            for sp in range(spines):
                lines.append(f'    <link id="up-{l}-{sp}" bandwidth="{nic:.6g}Bps" '
                             f'latency="{lat / 2:.6g}s" sharing_policy="SPLITDUPLEX"/>')
    else:
        lines.append(f'    <link id="switch" bandwidth="{hosts * nic:.6g}Bps" latency="0s"/>')
    for i in range(hosts):
        for j in range(i + 1, hosts):
            via = [f'<link_ctn id="node-{i}-nic" direction="UP"/>']
            if fattree and i // per_leaf != j // per_leaf:
                sp = (i + j) % spines
                via.append(f'<link_ctn id="up-{i // per_leaf}-{sp}" direction="UP"/>')
                via.append(f'<link_ctn id="up-{j // per_leaf}-{sp}" direction="DOWN"/>')
            elif not fattree:
                via.append('<link_ctn id="switch"/>')
            via.append(f'<link_ctn id="node-{j}-nic" direction="DOWN"/>')
            lines.append(f'    <zoneRoute src="node-{i}" dst="node-{j}" gw_src="node-{i}-router" '
                         f'gw_dst="node-{j}-router">{"".join(via)}</zoneRoute>')
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
    ap.add_argument("--transport", choices=["tcp", "rdma"])
    ap.add_argument("--pstates")
    ap.add_argument("--flops-per-cycle", type=float)
    ap.add_argument("--host-flops", type=float)
    ap.add_argument("--memory-rate")
    ap.add_argument("--memory-total")
    ap.add_argument("--memory-gb", type=float)
    ap.add_argument("--ranks", type=int)
    ap.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    p = dict(READY[a.name])
    for key in ("hosts", "cores", "nic", "latency", "network", "transport", "pstates",
                "flops_per_cycle", "memory_gb", "memory_rate", "memory_total"):
        if getattr(a, key) is not None:
            p[key] = getattr(a, key)
    if p["hosts"] < 1 or p["cores"] < 1:
        raise SystemExit("platform.py: --hosts and --cores must be at least 1")
    p["pstates_ghz"] = [float(x) for x in str(p["pstates"]).split(",")]
    if p["flops_per_cycle"] == "host":
        host_flops = a.host_flops or 53e9
        if not host_flops > 0:
            raise SystemExit("platform.py: --host-flops must be a positive rate")
        p["flops_per_cycle"] = host_flops / (max(p["pstates_ghz"]) * 1e9)
    p["watts"] = watts(p["pstates_ghz"], OPTERON_2380)
    p["nic_bps"] = rate_bps(p["nic"])
    p["latency_s"] = latency_s(p["latency"])
    p["memory_bps"] = rate_bps(p["memory_rate"])
    p["memory_total_bps"] = rate_bps(p["memory_total"])
    ranks = a.ranks or p["hosts"] * p["cores"]
    if ranks > p["hosts"] * p["cores"]:
        raise SystemExit(f"platform.py: {ranks} ranks do not fit {p['hosts']} hosts of "
                         f"{p['cores']} cores")
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "platform.xml"), "w") as f:
        f.write(platform_xml(p))
    with open(os.path.join(a.out, "hostfile"), "w") as f:
        for r in range(ranks):
            f.write(f"node-{r // p['cores']}-core-{r % p['cores']}\n")
    with open(os.path.join(a.out, "platform.txt"), "w") as f:
        f.write(f"{a.name}: {p['hosts']} hosts x {p['cores']} cores, NIC {p['nic']} "
                f"{p['latency']} {p['transport']}, {p['network']}, P-states {p['pstates']} "
                f"GHz x {p['flops_per_cycle']:g} flops/cycle, {p['memory_gb']:g} GiB per "
                f"node, memory {p['memory_rate']} a core, {p['memory_total']} a node\n")
    with open(os.path.join(a.out, "smpi.cfg"), "w") as f:
        if p["transport"] == "rdma":
            f.write("--cfg=network/crosstraffic:0\n")


if __name__ == "__main__":
    main(sys.argv[1:])
