#!/usr/bin/env python3
"""The platform generator (platform.py): an rdma platform tells the simulator to model no
traffic back (smpi.cfg turns cross traffic off), a tcp one leaves it on, and --transport
overrides the ready-made choice; a node's cores reach its memory at the memory rate each
and its backbone carries the memory total, modern's 10 and 100 GB/s, the others' 10 and
10, and --memory-rate and --memory-total override them.  Prints "N passed, N failed"."""
import os
import re
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
passed = failed = 0


def memory_rates(*args):
    """A node's core link and backbone rates, in bytes per second."""
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([sys.executable, os.path.join(here, "platform.py"), *args, "--out", out],
                       check=True)
        with open(os.path.join(out, "platform.xml")) as f:
            m = re.search(r'<cluster id="node-0"[^>]* bw="([0-9.e+]+)Bps"[^>]* bb_bw="([0-9.e+]+)Bps"',
                          f.read())
        return (float(m.group(1)), float(m.group(2))) if m else None


def settings(*args):
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([sys.executable, os.path.join(here, "platform.py"), *args, "--out", out],
                       check=True)
        with open(os.path.join(out, "smpi.cfg")) as f:
            lines = f.read().split()
        with open(os.path.join(out, "platform.txt")) as f:
            return lines, f.read()


def check(ok, what):
    global passed, failed
    passed += bool(ok)
    failed += not ok
    print(("ok: " if ok else "FAIL: ") + what)


OFF = "--cfg=network/crosstraffic:0"
for name, transport in (("paper-infiniband", "rdma"), ("modern", "rdma"),
                        ("paper-ethernet", "tcp"), ("emulated", "tcp"), ("custom", "tcp")):
    lines, text = settings(name)
    check((OFF in lines) == (transport == "rdma") and f" {transport}," in text,
          f"{name} is {transport}: cross traffic {'off' if transport == 'rdma' else 'on'}")
lines, _ = settings("custom", "--transport", "rdma")
check(lines == [OFF], "--transport rdma turns a tcp platform's cross traffic off")
lines, _ = settings("paper-infiniband", "--transport", "tcp")
check(lines == [], "--transport tcp leaves an rdma platform's cross traffic on")
check(memory_rates("modern") == (10e9, 100e9), "modern: 10 GB/s a core, 100 GB/s a node")
for name in ("paper-ethernet", "paper-infiniband", "emulated", "custom"):
    check(memory_rates(name) == (10e9, 10e9), f"{name}: 10 GB/s a core and a node")
check(memory_rates("modern", "--memory-rate", "20GBps", "--memory-total", "400gbit") ==
      (20e9, 50e9), "--memory-rate and --memory-total override a platform's rates")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
