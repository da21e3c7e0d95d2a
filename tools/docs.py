#!/usr/bin/env python3
"""Executable docs: every figure a page shows is produced by the command it shows.

A page marks each example with an HTML comment (invisible when rendered) before the block the
command produces, and a closing comment after it:

    <!-- docs:run id=NAME [tolerance=ci] [mask=RULE,...] [exit=N] [prompt=no]
         cmd: gpuplan run scenarios/quickstart.json -->
    ```text
    $ gpuplan run scenarios/quickstart.json
    ...the command's output...
    ```
    <!-- docs:end -->

The block is either one fenced block (its lines between the fences are the output; a `$ CMD`
first line is written unless `prompt=no`) or plain Markdown such as a table (the output as is).
`--check` runs every marked command and fails naming page:line and the two differing values;
`--update` rewrites the blocks in place. See docs/architecture.md, "How to add an example to a
page".

Prose numbers: on a page marked `<!-- docs:prose checked -->` (before its first `##` heading; in a
section, one a `##` or `###` heading starts, it checks that section only), a figure in prose (a number with a
decimal point, a thousands separator, a currency sign or a percent sign, or an integer of 100 or
more) must appear in a marked block of its section or an earlier one (a summary follows the
figures it quotes), in the page's `<!-- docs:numbers ... -->` list (the scenario's inputs and the
page's own arithmetic on them), or in a line that carries a link (its public source). Figures
of a block are also matched rounded to thousands, millions and billions ($5,957,729 as $5.96 M).
Pages with `<!-- docs:exempt REASON -->` hold measurements (benchmarks) and are not run.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
from datetime import datetime, timezone
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The date the pages' outputs are as of: every command runs with SOURCE_DATE_EPOCH at this date,
# so price ages, stale-price flags and a quote's date reproduce on any later day.
# `--update --refresh-date` moves it to today.
DATE_FILE = ROOT / "docs" / "examples" / "as-of-date"

RUN_RE = re.compile(r"<!--\s*docs:run\b(.*?)-->", re.S)
END_RE = re.compile(r"^\s*<!--\s*docs:end\s*-->\s*$")
OPTION_RE = re.compile(r"(\w+)=(\"[^\"]*\"|\S+)")
FENCE_RE = re.compile(r"^(\s*)(```+|~~~+)")

# Declared masks: each replaces what it matches by a placeholder in both the page and the output
# before comparing. An example names the ones it needs; nothing is masked by default.
MASKS = {
    # today's date (and a time of day after it), as a quote's title or a file's timestamp shows
    # it; other dates, such as a price's, are compared as they are
    "today": re.compile(r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z?)?\b"),
    # ages in months relative to today, as the catalog prints them: "(3 months old)"
    "age": re.compile(r"\b\d+ months? old\b|\b\d+ days? old\b"),
    # wall-clock times the CLI prints about itself: "in 0.42 s", "took 12 ms", "1.2 s wall"
    "time": re.compile(r"\b(?:in|took)\s+[\d.,]+\s*(?:s|ms|µs|us|min)\b|[\d.,]+\s*(?:s|ms)\s+wall\b"),
    # the CPU backend's thread count, which is the machine's core count unless --threads sets it
    "threads": re.compile(r"\(\d+ threads?\)"),
    # replications per second and similar throughput figures
    "rate": re.compile(r"[\d.,]+\s*(?:replicas?|replications?|events?|jobs?)/s\b"),
}

NUMBER_RE = re.compile(r"\d{4}-\d{2}-\d{2}|(?<![\d\w])-?\$?\d[\d,]*(?:\.\d+)?|\d[\d,]*(?:\.\d+)?")
CI_PAIR_RE = re.compile(r"(\$?-?\d[\d,]*(?:\.\d+)?)\s*(?:±|\+/-)\s*(\$?\d[\d,]*(?:\.\d+)?)")


@dataclass
class Example:
    page: Path
    marker_line: int  # 1-based line of the docs:run comment's first line
    block_start: int  # 0-based index of the first line after the comment
    block_end: int  # 0-based index of the docs:end line
    cmd: str
    options: dict = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.options.get("id", f"line{self.marker_line}")

    def where(self, offset: int = 0) -> str:
        return f"{rel(self.page)}:{self.block_start + 1 + offset}"


def outside_fences(lines: list[str]) -> list[str]:
    """The page's lines with every fenced code block blanked, so markers quoted in a code block
    (as docs/architecture.md shows them) are not read as markers."""
    out, fence = [], None
    for line in lines:
        m = FENCE_RE.match(line)
        if fence is None and m:
            fence = m.group(2)
            out.append("")
        elif fence is not None:
            if line.strip() == fence or (line.strip().startswith(fence) and not line.strip().strip(fence[0])):
                fence = None
            out.append("")
        else:
            out.append(line)
    return out


PROSE_MARK_RE = re.compile(r"^\s*<!--\s*docs:prose checked\s*-->\s*$")
NUMBERS_RE = re.compile(r"^\s*<!--\s*docs:numbers(.*?)-->", re.S | re.M)
EXEMPT_RE = re.compile(r"^\s*<!--\s*docs:exempt\s+(.*?)-->", re.S | re.M)


class DocsError(Exception):
    pass


def rel(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def parse_marker(text: str) -> tuple[str, dict]:
    """`id=x tolerance=ci cmd: COMMAND` -> (COMMAND, {id: x, tolerance: ci})."""
    head, sep, cmd = text.partition("cmd:")
    if not sep:
        raise DocsError("docs:run without `cmd:`")
    options = {k: v.strip('"') for k, v in OPTION_RE.findall(head)}
    cmd = " ".join(line.strip().rstrip("\\").strip() for line in cmd.strip().splitlines())
    return cmd.strip(), options


KNOWN_OPTIONS = {"id", "tolerance", "mask", "exit", "prompt", "lang", "wrap", "fence"}


def find_examples(page: Path, lines: list[str]) -> list[Example]:
    examples = []
    visible = outside_fences(lines)
    i = 0
    while i < len(lines):
        if visible[i].lstrip().startswith("<!-- docs:run"):
            start = i
            text = lines[i]
            while "-->" not in text[text.index("<!-- docs:run"):] and i + 1 < len(lines):
                i += 1
                text += "\n" + lines[i]
            m = RUN_RE.search(text)
            if not m:
                raise DocsError(f"{rel(page)}:{start + 1}: unterminated docs:run comment")
            try:
                cmd, options = parse_marker(m.group(1))
            except DocsError as e:
                raise DocsError(f"{rel(page)}:{start + 1}: {e}") from None
            unknown = set(options) - KNOWN_OPTIONS
            if unknown:
                raise DocsError(f"{rel(page)}:{start + 1}: unknown docs:run option(s) {sorted(unknown)}; "
                                f"known: {sorted(KNOWN_OPTIONS)}")
            for rule in filter(None, options.get("mask", "").split(",")):
                if rule not in MASKS:
                    raise DocsError(f"{rel(page)}:{start + 1}: unknown mask '{rule}'; known: {sorted(MASKS)}")
            if options.get("tolerance", "exact") not in ("exact", "ci"):
                raise DocsError(f"{rel(page)}:{start + 1}: tolerance must be exact or ci")
            j = i + 1
            while j < len(lines) and not END_RE.match(lines[j]):
                if "<!-- docs:run" in lines[j]:
                    break
                j += 1
            if j >= len(lines) or not END_RE.match(lines[j]):
                raise DocsError(f"{rel(page)}:{start + 1}: docs:run '{options.get('id', '')}' has no "
                                f"<!-- docs:end --> before the next example or the end of the page")
            examples.append(Example(page, start + 1, i + 1, j, cmd, options))
            i = j
        i += 1
    ids = [e.name for e in examples]
    dup = {x for x in ids if ids.count(x) > 1}
    if dup:
        raise DocsError(f"{rel(page)}: duplicate example id(s) {sorted(dup)}")
    return examples


def block_body(lines: list[str], ex: Example) -> tuple[list[str], int, str | None]:
    """The shown output lines, the index of the first of them, and the fence (None: plain Markdown)."""
    body = lines[ex.block_start:ex.block_end]
    k = 0
    while k < len(body) and not body[k].strip():
        k += 1
    if k < len(body) and FENCE_RE.match(body[k]):
        fence = FENCE_RE.match(body[k]).group(2)
        close = next((n for n in range(len(body) - 1, k, -1) if body[n].strip() == fence), None)
        if close is None:
            raise DocsError(f"{ex.where(k)}: fenced block of example '{ex.name}' is not closed")
        shown = body[k + 1:close]
        first = ex.block_start + k + 1
        if ex.options.get("prompt", "yes") != "no" and shown and shown[0].startswith("$ "):
            shown = shown[1:]
            first += 1
        return shown, first, body[k]
    while body and not body[-1].strip():
        body = body[:-1]
    shown = body[k:]
    return shown, ex.block_start + k, None


def pinned_epoch() -> int:
    day = DATE_FILE.read_text().strip()
    try:
        return int(datetime.strptime(day, "%Y-%m-%d").replace(tzinfo=timezone.utc).timestamp())
    except ValueError:
        raise DocsError(f"{rel(DATE_FILE)}: '{day}' is not a YYYY-MM-DD date") from None


def prepare_workdir(gpuplan: Path) -> Path:
    """A clean folder whose entries point at the repository's inputs, with `build/gpuplan` and
    `gpuplan` on PATH resolving to the binary under test; outputs land in it, not in the tree."""
    work = Path(tempfile.mkdtemp(prefix="gpuplan-docs-"))
    for entry in ROOT.iterdir():
        if entry.name in {"build", "out", ".git"} or entry.name.startswith("build-"):
            continue
        (work / entry.name).symlink_to(entry)
    (work / "build").mkdir()
    (work / "build" / "gpuplan").symlink_to(gpuplan)
    (work / "bin").mkdir()
    (work / "bin" / "gpuplan").symlink_to(gpuplan)
    (work / "bin" / "docs-table").symlink_to(ROOT / "tools" / "docs_table.py")
    return work


def run_example(ex: Example, gpuplan: Path, timeout: int) -> tuple[Example, list[str] | str]:
    work = prepare_workdir(gpuplan)
    try:
        env = dict(os.environ)
        env["PATH"] = f"{work / 'bin'}:{env.get('PATH', '')}"
        env["GPUPLAN_DOCS_ROOT"] = str(ROOT)
        env.setdefault("LC_ALL", "C.UTF-8")
        env["COLUMNS"] = "100"
        env.setdefault("OMP_NUM_THREADS", "2")
        env["SOURCE_DATE_EPOCH"] = str(pinned_epoch())  # the Monte Carlo backend names its thread count
        try:
            proc = subprocess.run(["bash", "-o", "pipefail", "-c", ex.cmd + " 2>&1"], cwd=work, env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
        except subprocess.TimeoutExpired:
            return ex, f"timed out after {timeout} s"
        text = proc.stdout.decode("utf-8", errors="replace")
        want = int(ex.options.get("exit", "0"))
        if proc.returncode != want:
            tail = "\n".join(text.rstrip().splitlines()[-6:])
            return ex, f"exit status {proc.returncode}, expected {want}; output ends:\n{tail}"
        text = text.replace(str(work) + "/", "").replace(str(work), ".").replace(str(ROOT) + "/", "")
        lines = [line.rstrip() for line in text.rstrip("\n").splitlines()]
        width = int(ex.options.get("wrap", "0"))
        if width:
            lines = [w for line in lines for w in (textwrap.wrap(line, width, break_long_words=False,
                     break_on_hyphens=False, subsequent_indent=re.match(r"\s*", line).group(0)) or [""])]
        return ex, lines
    finally:
        shutil.rmtree(work, ignore_errors=True)


def matches_masked(page_line: str, out_line: str, rules: list[str]) -> bool:
    """The page's line equals the output's with each masked span of the output allowed to be any
    text the same mask matches (so a date shown on the page matches today's date)."""
    if not rules:
        return page_line == out_line
    today = datetime.now(timezone.utc).strftime("%Y-%m-%d")
    spans = sorted((m.start(), m.end(), MASKS[r].pattern) for r in rules for m in MASKS[r].finditer(out_line)
                   if r != "today" or m.group(0).startswith(today))
    pattern, pos = "", 0
    for start, end, mask in spans:
        if start < pos:
            continue
        pattern += re.escape(out_line[pos:start]) + f"(?:{mask})"
        pos = end
    pattern += re.escape(out_line[pos:])
    return re.fullmatch(pattern, page_line) is not None


def to_float(token: str) -> float:
    return float(token.replace("$", "").replace(",", ""))


NUM = r"\$?-?\d[\d,]*(?:\.\d+)?"
UNIT = r"(?:\s?(?:%|s|h|d|ms|GPUs?|jobs|M|k))?"
CI_INTERVAL_RE = re.compile(rf"({NUM}){UNIT}\s*\[({NUM}){UNIT},\s*({NUM}){UNIT}\]")


def within_ci(shown: str, printed: str) -> bool:
    """Monte Carlo lines (`tolerance=ci`): each estimate the command prints with its 95% CI,
    as `mean ± half` or `mean [low, high]`, lies within the interval the page prints; the new
    interval's width is within a factor of 2 of the page's; the rest of the line is equal."""
    def intervals(line):
        found = [(to_float(m), to_float(m) - to_float(h), to_float(m) + to_float(h)) for m, h in CI_PAIR_RE.findall(line)]
        found += [tuple(map(to_float, g)) for g in CI_INTERVAL_RE.findall(line)]
        return found

    def skeleton(line):
        return CI_INTERVAL_RE.sub("<ci>", CI_PAIR_RE.sub("<ci>", line))

    shown_ci, new_ci = intervals(shown), intervals(printed)
    if not shown_ci or len(shown_ci) != len(new_ci) or skeleton(shown) != skeleton(printed):
        return False
    for (_, low, high), (new_mean, new_low, new_high) in zip(shown_ci, new_ci):
        if not low <= new_mean <= high:
            return False
        width, new_width = high - low, new_high - new_low
        if width > 0 and not (width / 2 <= new_width <= 2 * width):
            return False
    return True


def first_difference(a: str, b: str) -> tuple[str, str]:
    """The first differing number of two lines, or the lines themselves."""
    na, nb = NUMBER_RE.findall(a), NUMBER_RE.findall(b)
    if NUMBER_RE.sub("#", a) == NUMBER_RE.sub("#", b):
        for x, y in zip(na, nb):
            if x != y:
                return x, y
    return a.strip(), b.strip()


def compare(ex: Example, lines: list[str], output: list[str]) -> list[str]:
    shown, first, _ = block_body(lines, ex)
    rules = list(filter(None, ex.options.get("mask", "").split(",")))
    ci = ex.options.get("tolerance") == "ci"
    problems = []
    for n in range(max(len(shown), len(output))):
        page_line = shown[n] if n < len(shown) else "<no line>"
        out_line = output[n] if n < len(output) else "<no line>"
        a, b = page_line.rstrip(), out_line
        if matches_masked(a, b, rules) or (ci and within_ci(a, b)):
            continue
        x, y = first_difference(a, b)
        problems.append(f"{rel(ex.page)}:{first + n + 1}: example '{ex.name}': page shows '{x}', "
                        f"`{ex.cmd}` prints '{y}'")
        if len(problems) == 5:
            problems.append(f"{rel(ex.page)}:{first + n + 1}: example '{ex.name}': further differences not listed")
            break
    return problems


def rewrite(lines: list[str], ex: Example, output: list[str]) -> list[str]:
    body = lines[ex.block_start:ex.block_end]
    _, _, fence = block_body(lines, ex)
    if fence is not None:
        lang = ex.options.get("lang")
        opener = fence if lang is None else FENCE_RE.match(fence).group(2) + lang
        prompt = [] if ex.options.get("prompt", "yes") == "no" else [f"$ {ex.cmd}"]
        closer = FENCE_RE.match(fence).group(2)
        new = [opener] + prompt + output + [closer]
    elif ex.options.get("fence") == "no" or (body and any(line.strip() for line in body)):
        new = [""] + output + [""]
    else:  # a new example with an empty block: fenced by default
        prompt = [] if ex.options.get("prompt", "yes") == "no" else [f"$ {ex.cmd}"]
        new = ["```" + ex.options.get("lang", "text")] + prompt + output + ["```"]
    return lines[:ex.block_start] + new + lines[ex.block_end:]


GPUPLAN_CALL_RE = re.compile(r"(?:^|[;&|(]\s*)((?:\./build/)?gpuplan\s[^;&|)]*)")


def visible_commands(page: Path, lines: list[str], examples: list[Example]) -> list[str]:
    """A plain-Markdown block (a table) shows no prompt line, so the gpuplan call that produces it
    must be visible in its section's text (`-q`, `--out DIR`, `--threads N` and redirections
    aside), and so must the
    docs/examples script it runs: the reader sees what was run."""
    problems = []
    for ex in examples:
        _, _, fence = block_body(lines, ex)
        if fence is not None:
            continue
        top = ex.marker_line - 1
        while top > 0 and not lines[top].startswith("#"):
            top -= 1
        bottom = ex.block_end
        while bottom < len(lines) and not lines[bottom].startswith("#"):
            bottom += 1
        section = " ".join(COMMENT_RE.sub("", "\n".join(lines[top:bottom])).replace("\\\n", " ").split())
        for script in re.findall(r"docs/examples/[\w.-]+", ex.cmd):
            if script not in section:
                problems.append(f"{rel(ex.page)}:{ex.marker_line}: example '{ex.name}': its section does not "
                                f"name the script `{script}` (a table has no prompt line; name it beside it)")
        for call in GPUPLAN_CALL_RE.findall(ex.cmd):
            tokens = call.split()
            kept = [t for n, t in enumerate(tokens)
                    if t not in ("-q", "--quiet", "--out", "--threads")
                    and not (n and tokens[n - 1] in ("--out", "--threads")) and not re.match(r"\d?>", t)]
            shown = " ".join(kept)
            shown = shown.removeprefix("./build/")
            if shown not in section:
                problems.append(f"{rel(ex.page)}:{ex.marker_line}: example '{ex.name}': its section does not show "
                                f"the command `{shown}` (a table has no prompt line; write the command beside it)")
    return problems


# ---- prose numbers -------------------------------------------------------------------------------

PROSE_NUMBER_RE = re.compile(
    r"(?<![\w.\-/#])(\$\s?\d[\d,]*(?:\.\d+)?\s?[MKkB]?|\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+|\d+\s?%|\d{3,})(?![\w\-]|\.\d)")
# a link, or a citation a reader can look up: a paper (arXiv id, DOI, "et al." with a year), a
# repository file (github.com/..., owner/repo `path`), a datasheet
LINK_RE = re.compile(r"\]\([^)]*\)|https?://\S+|arXiv[: ]\d|doi\.org|\bdoi:|et al\.,? \(?\d{4}|github\.com/|datasheet")
CODE_SPAN_RE = re.compile(r"`[^`]*`")
COMMENT_RE = re.compile(r"<!--.*?-->", re.S)


def canonical(token: str) -> str:
    t = token.replace("$", "").replace(" ", "").replace(",", "")
    t = t.rstrip("%MKkB")
    try:
        v = float(t)
    except ValueError:
        return t
    return f"{v:g}"


def block_numbers(text: str) -> set[str]:
    found = set()
    for token in re.findall(r"\$?\d[\d,]*(?:\.\d+)?", text):
        c = canonical(token)
        found.add(c)
        try:  # $5,957,729 is quoted as $5.96 M or $6.0 M; 1,210,000 as 1.21 M
            v = float(c)
            for scale in (1e3, 1e6, 1e9):
                if abs(v) >= scale:
                    for digits in (0, 1, 2):
                        found.add(f"{round(v / scale, digits):g}")
        except ValueError:
            pass
    return found


def prose_check(page: Path, lines: list[str], examples: list[Example]) -> list[str]:
    visible = outside_fences(lines)
    if not any(PROSE_MARK_RE.match(line) for line in visible):
        return []
    text = "\n".join(visible)
    allowed = set()
    for m in NUMBERS_RE.finditer(text):
        allowed |= {canonical(t) for t in re.findall(r"\$?\d[\d,]*(?:\.\d+)?", m.group(1))}
    # sections: a heading starts one; each section's allowed numbers are those of its marked blocks
    section_of = []
    section = 0
    for line in lines:
        if re.match(r"#{1,3} ", line):
            section += 1
        section_of.append(section)
    per_section: dict[int, set[str]] = {}
    in_block = [False] * len(lines)
    for ex in examples:
        numbers = block_numbers("\n".join(lines[ex.block_start:ex.block_end]))
        per_section.setdefault(section_of[ex.marker_line - 1], set()).update(numbers)
        for k in range(ex.marker_line - 1, ex.block_end + 1):
            in_block[k] = True
    # the marker checks its own section, or the whole page where it stands before the first
    checked_sections = {section_of[n] for n, line in enumerate(visible) if PROSE_MARK_RE.match(line)}
    whole_page = any(k <= 1 for k in checked_sections)
    problems = []
    fence = None
    for n, line in enumerate(lines):
        if not whole_page and section_of[n] not in checked_sections:
            continue
        m = FENCE_RE.match(line)
        if m:
            fence = None if fence and line.strip().startswith(fence) else (fence or m.group(2))
            continue
        if fence or in_block[n] or line.lstrip().startswith("|") and in_block[n]:
            continue
        if LINK_RE.search(line) or line.startswith("#") or "<!--" in line:
            continue
        prose = CODE_SPAN_RE.sub("", COMMENT_RE.sub("", line))
        for token in PROSE_NUMBER_RE.findall(prose):
            c = canonical(token)
            if c in allowed or any(c in per_section.get(k, set()) for k in range(section_of[n] + 1)):
                continue
            if re.fullmatch(r"(19|20)\d\d", c):  # a year
                continue
            problems.append(f"{rel(page)}:{n + 1}: prose quotes {token.strip()} but no marked output of its section or an "
                            f"earlier one shows it, the line cites no source, and the page's docs:numbers does not list it")
    return problems


# ---- main ----------------------------------------------------------------------------------------

def default_pages() -> list[Path]:
    return [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="run every example and compare (default)")
    mode.add_argument("--update", action="store_true", help="rewrite every example's block in place")
    mode.add_argument("--list", action="store_true", help="list the examples and the exempt pages")
    parser.add_argument("--refresh-date", action="store_true",
                        help=f"with --update: run as of today and record it in {rel(DATE_FILE)}")
    parser.add_argument("--jobs", "-j", type=int, default=int(os.environ.get("GPUPLAN_DOCS_JOBS", "2")))
    parser.add_argument("--only", help="run only the examples whose id matches this regular expression")
    parser.add_argument("--timeout", type=int, default=600, help="seconds per example")
    parser.add_argument("pages", nargs="*", type=Path)
    args = parser.parse_args()

    if args.refresh_date:
        if not args.update:
            parser.error("--refresh-date needs --update")
        DATE_FILE.write_text(datetime.now(timezone.utc).strftime("%Y-%m-%d") + "\n")
    try:
        pinned_epoch()
    except DocsError as e:
        print(e, file=sys.stderr)
        return 2
    gpuplan = Path(os.environ.get("GPUPLAN_BIN", ROOT / "build" / "gpuplan")).resolve()
    pages = args.pages or default_pages()
    page_lines: dict[Path, list[str]] = {}
    examples: list[Example] = []
    problems: list[str] = []
    for page in pages:
        lines = page.read_text(encoding="utf-8").split("\n")
        page_lines[page] = lines
        exempt = EXEMPT_RE.search("\n".join(outside_fences(lines)))
        try:
            found = find_examples(page, lines)
        except DocsError as e:
            problems.append(str(e))
            continue
        if exempt and found:
            problems.append(f"{rel(page)}: marked docs:exempt but holds docs:run examples")
        if args.list:
            visible = outside_fences(lines)
            marks = [n for n, line in enumerate(visible) if PROSE_MARK_RE.match(line)]
            first_section = next((n for n, line in enumerate(visible) if line.startswith("## ")), len(visible))
            prose = ("prose not checked" if not marks else "prose checked" if marks[0] < first_section
                     else f"prose checked in {len(marks)} section(s)")
            if exempt:
                print(f"{rel(page)}: exempt: {' '.join(exempt.group(1).split())}")
            elif found:
                print(f"{rel(page)}: {len(found)} example(s), {prose}")
            else:
                print(f"{rel(page)}: no examples, {prose}")
            for ex in found:
                print(f"  {ex.where()}: {ex.name}: {ex.cmd[:100]}")
        examples += found
    if args.only:
        examples = [e for e in examples if re.search(args.only, e.name)]
    if args.list:
        return 0
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 2
    if examples and not os.access(gpuplan, os.X_OK):
        print(f"docs: {gpuplan} is not an executable; build it (ninja -C build gpuplan) or set GPUPLAN_BIN",
              file=sys.stderr)
        return 2

    outputs: dict[int, list[str] | str] = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        # the scripts that run several studies first, so the two workers finish together
        longest_first = sorted(examples, key=lambda e: "docs/examples/" not in e.cmd)
        futures = [pool.submit(run_example, ex, gpuplan, args.timeout) for ex in longest_first]
        for future in concurrent.futures.as_completed(futures):
            ex, out = future.result()
            outputs[id(ex)] = out

    failed = 0
    for ex in examples:
        out = outputs[id(ex)]
        if isinstance(out, str):
            problems.append(f"{rel(ex.page)}:{ex.marker_line}: example '{ex.name}': `{ex.cmd}`: {out}")
    if args.update:
        # rewrite from the last example of each page up, so earlier line numbers stay valid
        for page in pages:
            lines = page_lines[page]
            for ex in sorted((e for e in examples if e.page == page), key=lambda e: -e.block_start):
                out = outputs[id(ex)]
                if not isinstance(out, str):
                    lines = rewrite(lines, ex, out)
            if lines != page_lines[page]:
                page.write_text("\n".join(lines), encoding="utf-8")
                page_lines[page] = lines
                print(f"docs: updated {rel(page)}")
    else:
        for ex in examples:
            out = outputs[id(ex)]
            if not isinstance(out, str):
                problems += compare(ex, page_lines[ex.page], out)
    for page in pages:
        lines = page_lines[page]
        try:
            found = find_examples(page, lines)
            problems += prose_check(page, lines, found) + visible_commands(page, lines, found)
        except DocsError as e:
            problems.append(str(e))
    if problems:
        print("\n".join(problems), file=sys.stderr)
        failed = 1
    print(f"docs: {len(examples)} example(s) on {len(pages)} page(s): "
          f"{'updated' if args.update else 'checked'}{', FAILED' if failed else ''}", file=sys.stderr)
    return failed


if __name__ == "__main__":
    sys.exit(main())
