#!/usr/bin/env python3
"""docs-table: a Markdown table (or lines) from result.json files, for executable docs pages.

    docs-table [--rows POINTER] [--only KEY,...] FILE.json [FILE.json ...] -- 'HEADER={TEMPLATE}' ...
    docs-table --lines FILE.json -- 'TEMPLATE' ...

Rows: with --rows, one row per element of the array (or member of the object) at POINTER in each
file; without it, one row per file. A column is HEADER=TEMPLATE; a template is text with fields
`{/json/pointer|format}` read from the row (`{^/pointer|format}` reads from the file's root,
`{@key}` is the object member's name, `{@dir}` the file's LABEL (FILE given as LABEL=PATH) or
its folder's name). `{/p|FORMAT|NULL|MISSING}`
prints NULL where the value is null and MISSING where the key is absent (both default to "—"). --only keeps the object
members or array elements (by their `name`) listed, in that order. --lines prints each template
once per row instead of a table.

Formats: int (1,234), f0..f3 (fixed decimals, thousands separated), pct0..pct2 (x100, "%"),
usd0, usd2, usd3 ($1,234.56), kusd ($211k), musd1, musd2 ($7.92 M), minutes, hours and days (from
seconds, 1 decimal),
month ("month 6"), raw (as JSON writes it, the default).
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

FIELD_RE = re.compile(r"\{([\^@]?)([^}|]*)(?:\|(\w*))?(?:\|([^}|]*))?(?:\|([^}|]*))?\}")


def pointer(doc, path: str):
    if path in ("", "/"):
        return doc
    for part in path.lstrip("/").split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(doc, list):
            doc = doc[int(part)]
        elif isinstance(doc, dict):
            doc = doc[part]
        else:
            raise KeyError(path)
    return doc


def fmt(value, how: str | None) -> str:
    if how in (None, "", "raw"):
        return value if isinstance(value, str) else json.dumps(value)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise SystemExit(f"docs-table: format {how} needs a number, got {value!r}")
    if how == "int":
        return f"{round(value):,}"
    m = re.fullmatch(r"(f|pct|usd|musd)(\d)", how)
    if m:
        kind, digits = m.group(1), int(m.group(2))
        if kind == "f":
            return f"{value:,.{digits}f}"
        if kind == "pct":
            return f"{value * 100:,.{digits}f}%"
        if kind == "usd":
            return f"${value:,.{digits}f}"
        return f"${value / 1e6:,.{digits}f} M"
    if how == "kusd":
        return f"${value / 1e3:,.0f}k"
    if how == "month":
        return f"month {round(value)}"
    if how == "minutes":
        return f"{value / 60:,.1f}"
    if how == "days":
        return f"{value / 86400:,.1f}"
    if how == "hours":
        return f"{value / 3600:,.1f}"
    raise SystemExit(f"docs-table: unknown format '{how}'")


def render(template: str, row, root, key: str, folder: str) -> str:
    def field(m):
        scope, path, how, if_null, if_missing = m.groups()
        if scope == "@":
            return key if path == "key" else folder
        if_null = "—" if if_null is None else if_null
        try:
            value = pointer(root if scope == "^" else row, path)
        except (KeyError, IndexError, ValueError):
            return if_null if if_missing is None else if_missing
        return if_null if value is None else fmt(value, how)

    return FIELD_RE.sub(field, template)


def main(argv: list[str]) -> int:
    if "--" not in argv:
        print(__doc__, file=sys.stderr)
        return 2
    split = argv.index("--")
    opts, columns = argv[:split], argv[split + 1:]
    rows_at, only, lines_mode, files = None, None, False, []
    i = 0
    while i < len(opts):
        if opts[i] == "--rows":
            rows_at, i = opts[i + 1], i + 2
        elif opts[i] == "--only":
            only, i = opts[i + 1].split(","), i + 2
        elif opts[i] == "--lines":
            lines_mode, i = True, i + 1
        else:
            label, _, path = opts[i].rpartition("=")
            files.append((label, Path(path)))
            i += 1
    rows = []
    for label, f in files:
        root = json.loads(f.read_text())
        folder = label or f.parent.name
        if rows_at is None:
            rows.append((root, root, folder, folder))
            continue
        items = pointer(root, rows_at)
        pairs = list(items.items()) if isinstance(items, dict) else [(str(x.get("name", n)) if isinstance(x, dict) else str(n), x)
                                                                      for n, x in enumerate(items)]
        if only:
            by_key = dict(pairs)
            missing = [k for k in only if k not in by_key]
            if missing:
                raise SystemExit(f"docs-table: {f}: no rows {missing} at {rows_at}")
            pairs = [(k, by_key[k]) for k in only]
        rows += [(row, root, key, folder) for key, row in pairs]
    if lines_mode:
        for row, root, key, folder in rows:
            for template in columns:
                print(render(template, row, root, key, folder))
        return 0
    headers = [c.split("=", 1)[0] for c in columns]
    templates = [c.split("=", 1)[1] if "=" in c else "{" + c + "}" for c in columns]
    print("| " + " | ".join(headers) + " |")
    print("|" + "---|" * len(headers))
    for row, root, key, folder in rows:
        print("| " + " | ".join(render(t, row, root, key, folder) for t in templates) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
