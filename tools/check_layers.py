#!/usr/bin/env python3
"""The include graph of the house, checked: folders include only the folders below them
(docs/architecture.md, "Layers"), no two files include each other through any chain (a unit is a
header with its .cpp), and no stage folder of models/ holds more than 30 % of its lines.

    tools/check_layers.py            check; exit 1 naming each violation
    tools/check_layers.py --report   also print lines per folder and the folder graph
"""
import os
import re
import sys
from collections import defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Lowest first. A file belongs to the longest folder prefix listed; it may include its own folder
# and any folder listed before it, never one after.
LAYERS = [
    "sim/core",
    "topologies",
    "sim",
    "models/economics",
    "models/input",
    "models/catalog",
    "models/perf",
    "models/scenario",
    "models/trace",
    "models/compile",
    "models/load",
    "models/quote",
    "study",
    "reports",
    "tools/gpuplan",
    "tools/gpuplan_serve",
]
MODEL_SHARE_LIMIT = 0.30
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
SOURCES = (".h", ".cpp", ".cu", ".cuh")


def layer_of(path):
    best = None
    for i, layer in enumerate(LAYERS):
        if path == layer or path.startswith(layer + "/"):
            if best is None or len(layer) > len(LAYERS[best]):
                best = i
    return best


def house_files():
    out = []
    for top in ("sim", "topologies", "models", "study", "reports", "tools/gpuplan",
                "tools/gpuplan_serve"):
        for d, _, files in os.walk(os.path.join(ROOT, top)):
            out += [os.path.relpath(os.path.join(d, f), ROOT) for f in files if f.endswith(SOURCES)]
    return sorted(out)


def unit(path):
    return os.path.splitext(path)[0]


def find_cycle(graph):
    """One cycle of `graph` (a list of nodes), or None."""
    state, stack = {}, []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in sorted(graph[n]):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if m not in state:
                c = visit(m)
                if c:
                    return c
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(graph):
        if n not in state:
            c = visit(n)
            if c:
                return c
    return None


def main():
    report = "--report" in sys.argv[1:]
    files = house_files()
    problems = []
    units = defaultdict(set)
    folder_edges = defaultdict(set)
    lines = defaultdict(int)
    for f in files:
        text = open(os.path.join(ROOT, f), encoding="utf-8").read()
        lines[f] = text.count("\n")
        me = layer_of(f)
        for inc in INCLUDE.findall(text):
            if not os.path.exists(os.path.join(ROOT, inc)):
                continue  # a system or generated header
            if unit(inc) != unit(f):
                units[unit(f)].add(unit(inc))
            units.setdefault(unit(inc), set())
            them = layer_of(inc)
            if me is None or them is None or them == me:
                continue
            folder_edges[LAYERS[me]].add(LAYERS[them])
            if them > me:
                problems.append(f"{f}: includes {inc} ({LAYERS[them]} is above {LAYERS[me]})")
    cycle = find_cycle(units)
    if cycle:
        problems.append("include cycle: " + " -> ".join(cycle))
    model_lines = {l: 0 for l in LAYERS if l.startswith("models/")}
    for f, n in lines.items():
        l = layer_of(f)
        if l is not None and LAYERS[l] in model_lines:
            model_lines[LAYERS[l]] += n
    total = sum(model_lines.values())
    for l, n in model_lines.items():
        if total and n / total > MODEL_SHARE_LIMIT:
            problems.append(f"{l}: {n} of models/'s {total} lines ({n / total:.0%} > 30 %)")
    if report:
        print(f"models/: {total} lines")
        for l, n in model_lines.items():
            print(f"  {l:20s} {n:6d}  {n / total:5.1%}")
        for l in LAYERS:
            print(f"{l} -> {', '.join(sorted(folder_edges[l], key=LAYERS.index)) or '-'}")
    for p in problems:
        print("check_layers: " + p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
