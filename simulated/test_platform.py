#!/usr/bin/env python3
"""The platform generator's transport (platform.py): an rdma platform tells the simulator
to model no traffic back (smpi.cfg turns cross traffic off), a tcp one leaves it on, and
--transport overrides the ready-made choice.  Prints "N passed, N failed"."""
import os
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
passed = failed = 0


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
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
