#!/usr/bin/env python3
"""The layering of src/ (docs/ARCHITECTURE.md, "Layers") and the typed kernels, checked.

A folder includes its own headers and those of the layers below it, never a folder of
its own layer or above.  Only kernel/ names a BLAS, LAPACK or PBLAS routine of the
element's family: everything else calls the typed kernels (kernel/kernel.h) or names
the routine through HPD_ELEM_BLAS / HPD_ELEM_PBLAS, so that the element type is named
in one place.  pblas/reference.c looks the reference routines up by their names, as
strings, which the check reads past.
"""
import os
import re
import sys

LAYERS = [
    ["kernel"],
    ["core"],
    ["bcast", "dvfs", "energy"],
    ["pblas"],
    ["local"],
    ["phase"],
    ["pdgemm"],
    ["level3", "swap"],
    ["factor"],
]
APART = {"guard"}  # a library of its own, preloaded (README, "The finalize hang")

INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z0-9_]+)/')
# A d- or pd-prefixed Fortran symbol called or declared: dgemm_(, pdgeadd_ (...
ROUTINE = re.compile(r'\bp?d[a-z][a-z0-9]*_\s*\(')
STRING = re.compile(r'"(?:\\.|[^"\\])*"')
COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)


def layer_of(folder):
    for i, names in enumerate(LAYERS):
        if folder in names:
            return i
    return None


def main():
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
    checks = failed = 0
    folders = sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d)))
    for folder in folders:
        checks += 1
        if folder not in APART and layer_of(folder) is None:
            failed += 1
            print(f"FAIL src/{folder}: in no layer (add it to LAYERS and ARCHITECTURE.md)")
            continue
        for name in sorted(os.listdir(os.path.join(src, folder))):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(src, folder, name)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for n, line in enumerate(text.splitlines(), 1):
                m = INCLUDE.match(line)
                if not m or m.group(1) == folder:
                    continue
                checks += 1
                other = m.group(1)
                if folder in APART or other in APART or layer_of(other) is None or \
                        layer_of(other) >= layer_of(folder):
                    failed += 1
                    print(f"FAIL src/{folder}/{name}:{n}: includes {other}/, "
                          f"not below {folder}/")
            if folder == "kernel":
                continue
            code = STRING.sub('""', COMMENT.sub(" ", text))
            checks += 1
            for m in ROUTINE.finditer(code):
                failed += 1
                print(f"FAIL src/{folder}/{name}: names {m.group(0).rstrip('( ')}; "
                      "use the typed kernels (kernel/kernel.h)")
    print(f"test_layers: {checks} checks, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
