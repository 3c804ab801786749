#!/usr/bin/env python3
"""check_svg.py FILE.svg - is a plot of wgprune or wgperf-validate readable?

Checks that FILE is well-formed XML (a kernel name such as 'scale<float, 256>'
must be escaped), and that its text labels stay inside the picture and do not
overlap one another. A label is taken to be 0.6 x its font size wide per
character and its font size high (the tools place labels with the same
estimate); labels rotated by -60 degrees (wgprune's size labels, anchored at
their end) run down and to the left of their anchor; a label rotated by -90
(an axis title) is left out. Prints 'ok: N labels' or each problem, exit 1.
"""
import math
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"


def font_size(el, default):
    fs = el.get("font-size")
    return float(fs) if fs else default


problems_elsewhere = []


def boxes(root):
    default = font_size(root, 16.0)
    out = []
    for el in root.iter(NS + "text"):
        text = "".join(el.itertext())
        fs = font_size(el, default)
        x, y = float(el.get("x", 0)), float(el.get("y", 0))
        w = 0.6 * fs * len(text)
        anchor = el.get("text-anchor", "start")
        rot = re.search(r"rotate\(\s*(-?[0-9.]+)", el.get("transform", ""))
        angle = float(rot.group(1)) if rot else 0.0
        if angle == -90:
            continue
        if angle == 0:
            left = x - (w if anchor == "end" else w / 2 if anchor == "middle" else 0)
            out.append((text, left, y - fs, left + w, y + 0.25 * fs, None))
        elif angle == -60 and anchor == "end":
            # the text runs from its anchor down and to the left
            dx, dy = w * math.cos(math.radians(60)), w * math.sin(math.radians(60))
            out.append((text, x - dx - fs, y, x, y + dy + fs / 2, (x, y, fs)))
        else:
            problems_elsewhere.append("'%s': a rotation of %g degrees this check does not know" % (text, angle))
    return out


def main(path):
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        print("%s: not well-formed XML: %s" % (path, e))
        return 1
    W, H = float(root.get("width")), float(root.get("height"))
    labels = boxes(root)
    problems = list(problems_elsewhere)
    for t, x0, y0, x1, y1, _ in labels:
        if x0 < -0.5 or y0 < -0.5 or x1 > W + 0.5 or y1 > H + 0.5:
            problems.append("'%s' leaves the %gx%g picture (%.0f,%.0f)-(%.0f,%.0f)" % (t, W, H, x0, y0, x1, y1))
    for i in range(len(labels)):
        for j in range(i + 1, len(labels)):
            a, b = labels[i], labels[j]
            if a[5] and b[5]:
                # rotated size labels on one baseline: a line's height apart, measured across them
                (ax, ay, fs), (bx, by, _) = a[5], b[5]
                if ay == by and abs(ax - bx) * math.sin(math.radians(60)) < 0.95 * fs:
                    problems.append("size labels '%s' and '%s' are %.1f px apart" % (a[0], b[0], abs(ax - bx)))
                continue
            if a[1] < b[3] and b[1] < a[3] and a[2] < b[4] and b[2] < a[4]:
                problems.append("'%s' overlaps '%s'" % (a[0], b[0]))
    for p in problems:
        print("%s: %s" % (path, p))
    if not problems:
        print("ok: %d labels" % len(labels))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
