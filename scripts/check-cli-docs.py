#!/usr/bin/env python3
"""check-cli-docs.py - the command pages of docs/cli/ against the tools' --help.

    python3 scripts/check-cli-docs.py [--bin DIR] PAGE.md|DIR...

(a DIR stands for every .md file in it: docs/cli).

A page marks each table of options it documents with a comment on the line
before the table:

    <!-- options: TOOL -->
    | option | commands | meaning |
    |---|---|---|
    | `--gpu NAME\\|FILE` | analyze, predict | ... |

The first column holds the option as it is typed (several spellings of one
option in separate backtick spans: `--jobs N`, `-j N`); a column named
"commands" lists the subcommands that take it ("-" for the tool itself).

For every page it checks, with TOOL from PATH (or --bin):
  1. every option of the page's tables is mentioned by `TOOL --help`;
  2. every option `TOOL --help` mentions is in one of the page's tables;
  3. the tool accepts each option (for each of its commands): run with the
     option, the value written beside it (a placeholder, usually not a valid
     value) and a last argument that stops the tool before it does any work,
     its output must not say the option is unknown; and an option nobody has
     must be answered as unknown, so that the check can fail.
Single-dash options count by their letter (-DNAME=V is -D).  Exit status 0
when every page agrees with its tool, 1 otherwise (each mismatch on a line),
2 bad usage.
"""
import os
import re
import shutil
import subprocess
import sys

# What the tool's messages say of an option it does not have.
UNKNOWN = re.compile(r"unknown option|unknown or incomplete option|bad argument|unknown command")

# Arguments put last so that a tool stops at parsing instead of measuring a
# device: a value the tool refuses as a value (never as an unknown option).
STOP = {
    "wgperf-measure": ["--platform", "99"],
    "wgperf-calibrate": ["--platform", "99"],
    "wgbench-ocl": ["--platform", "99"],
}

# Options that end the tool at once: nothing after them is parsed.
EARLY = {"--help", "-h", "--version"}

OPT_TOKEN = re.compile(r"(?<![\w'/.\-])(--?[A-Za-z][A-Za-z0-9-]*|--(?= [A-Z]))")


def normalize(opt):
    """-DNAME -> -D, -ON -> -O; a long option is itself."""
    if opt.startswith("--"):
        return opt
    return opt[:2]


def help_options(text):
    return {normalize(m.group(1)) for m in OPT_TOKEN.finditer(text)}


def split_row(line):
    # a table row, '|' inside backticks or escaped as '\|' kept in its cell
    cells, cur, tick = [], "", False
    i = 0
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body) and body[i + 1] == "|":
            cur += "|"
            i += 2
            continue
        if c == "`":
            tick = not tick
        if c == "|" and not tick:
            cells.append(cur.strip())
            cur = ""
        else:
            cur += c
        i += 1
    cells.append(cur.strip())
    return cells


def page_tables(path):
    """[(tool, [(spelling, value, commands, line)])] of the marked tables."""
    lines = open(path, encoding="utf-8").read().split("\n")
    tables = []
    i = 0
    while i < len(lines):
        m = re.match(r"\s*<!--\s*options:\s*(\S+)\s*-->\s*$", lines[i])
        i += 1
        if not m:
            continue
        tool = m.group(1)
        if i + 1 >= len(lines) or not lines[i].lstrip().startswith("|"):
            raise SystemExit("%s:%d: an options marker must be followed by a table" % (path, i))
        header = [h.lower() for h in split_row(lines[i])]
        cmd_col = header.index("commands") if "commands" in header else None
        i += 2  # header and rule
        rows = []
        while i < len(lines) and lines[i].lstrip().startswith("|"):
            cells = split_row(lines[i])
            cmds = [None]
            if cmd_col is not None and cmd_col < len(cells):
                cmds = [c.strip() for c in cells[cmd_col].split(",")]
                cmds = [None if c in ("-", "") else c for c in cmds]
            for span in re.findall(r"`([^`]+)`", cells[0]):
                words = span.split(None, 1)
                if not words or not words[0].startswith("-"):
                    continue
                spelling = words[0]
                value = words[1] if len(words) > 1 else None
                if "=" in spelling and spelling.startswith("--"):  # --kernel=NAME
                    spelling, value = spelling.split("=", 1)
                rows.append((spelling, value, cmds, i + 1))
            i += 1
        tables.append((tool, rows))
    return tables


def run(argv):
    try:
        p = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=120)
    except subprocess.TimeoutExpired:
        return None, "(no answer within 120 s)"
    return p.returncode, p.stdout.decode("utf-8", "replace")


def probe(exe, tool, cmd, spelling, value):
    argv = [exe] + ([cmd] if cmd else []) + [spelling] + ([value] if value else [])
    if spelling not in EARLY:
        argv += STOP.get(tool, [])
    return run(argv)


def check_page(path, bindir):
    errors = []
    tables = page_tables(path)
    if not tables:
        return ["%s: no table marked <!-- options: TOOL -->" % path]
    tools = {}
    for tool, rows in tables:
        tools.setdefault(tool, []).extend(rows)
    for tool, rows in sorted(tools.items()):
        exe = os.path.join(bindir, tool) if bindir else shutil.which(tool)
        if not exe or not os.access(exe, os.X_OK):
            errors.append("%s: %s: no such program%s" % (path, tool, " in " + bindir if bindir else " in PATH"))
            continue
        rc, text = run([exe, "--help"])
        if rc != 0:
            errors.append("%s: '%s --help' exited with %s" % (path, tool, rc))
            continue
        in_help = help_options(text)
        on_page = {normalize(s) for s, _, _, _ in rows}
        for s, _, _, line in rows:
            if normalize(s) not in in_help:
                errors.append("%s:%d: %s: '%s' is on the page but not in '%s --help'" % (path, line, tool, s, tool))
        for o in sorted(in_help - on_page):
            errors.append("%s: %s: '%s' is in '%s --help' but in no options table of the page" % (path, tool, o, tool))
        cmds = sorted({c for _, _, cs, _ in rows for c in cs}, key=lambda c: c or "")
        for c in cmds:
            rc, out = probe(exe, tool, c, "--no-such-option-for-the-docs-check", None)
            if not UNKNOWN.search(out):
                errors.append("%s: %s%s: an unknown option is not answered as unknown, so acceptance cannot be "
                              "checked: %s" % (path, tool, " " + c if c else "", out.strip()[:200]))
        for s, v, cs, line in rows:
            for c in cs:
                rc, out = probe(exe, tool, c, s, v)
                if rc is None or UNKNOWN.search(out):
                    errors.append("%s:%d: %s%s does not accept '%s': %s" %
                                  (path, line, tool, " " + c if c else "", s, out.strip().split("\n")[0][:200]))
    return errors


def main(argv):
    bindir = None
    pages = []
    i = 1
    while i < len(argv):
        if argv[i] == "--bin" and i + 1 < len(argv):
            bindir = argv[i + 1]
            i += 2
            continue
        if argv[i].startswith("-"):
            print("usage: check-cli-docs.py [--bin DIR] PAGE.md|DIR...", file=sys.stderr)
            return 2
        if os.path.isdir(argv[i]):
            pages += sorted(os.path.join(argv[i], f) for f in os.listdir(argv[i]) if f.endswith(".md"))
        else:
            pages.append(argv[i])
        i += 1
    if not pages:
        print("usage: check-cli-docs.py [--bin DIR] PAGE.md|DIR...", file=sys.stderr)
        return 2
    bad = 0
    for page in pages:
        errs = check_page(page, bindir)
        for e in errs:
            print(e)
        if not errs:
            n = sum(len(r) for _, r in page_tables(page))
            print("%s: %d options agree with --help and are accepted" % (page, n))
        bad += len(errs)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
