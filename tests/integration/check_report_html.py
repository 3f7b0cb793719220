#!/usr/bin/env python3
"""Checks of an iolens-report page for tests/integration/test_report_html.sh.

  structure PAGE           well-formed, self-contained, strict CSP; prints "ok"
  ids PAGE ID...           every id is on an element; prints the missing ones
  perf PAGE PERF_TXT       every line of iolens-parser --perf is a cell with
                           exactly its text, and no other cell; prints "ok"
  titles PAGE SVG_ID CLASS the <title> of each element of CLASS in that svg
  text PAGE ID             the text of the element with that id (decoded)
  count PAGE TAG           elements of TAG (the dumped DOM of a browser too)
  png FILE W H             a PNG of W x H with more than a few colours

Exit status 0 when the check passed (titles, text, count: always 0 once the
page parsed), 1 otherwise, with the reasons on standard output.
"""
import html.parser
import re
import struct
import sys
import zlib

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
        "source", "track", "wbr"}
# elements that may be self-closed: the SVG ones the report writes
SVG_SELF = {"rect", "line", "stop", "path", "circle"}


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []
        self.errors = []
        self.ids = {}
        self.elements = []      # (tag, attrs, parent ids chain)
        self.text_of = {}       # id -> text collected inside it
        self.open_ids = []
        self.title_for = []     # (svg id, class, title text)
        self.in_title = None
        self.csp = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.elements.append((tag, a))
        if tag == "meta" and a.get("http-equiv", "").lower() == "content-security-policy":
            self.csp = a.get("content", "")
        if "id" in a:
            if a["id"] in self.ids:
                self.errors.append("duplicate id %s" % a["id"])
            self.ids[a["id"]] = tag
        if tag == "title" and self.stack and self.stack[-1][0] != "head":
            parent = self.stack[-1]
            svg = next((s[1].get("id") for s in reversed(self.stack) if s[0] == "svg"), None)
            self.in_title = [svg, parent[1].get("class", ""), ""]
        if tag not in VOID:
            self.stack.append((tag, a))
            if "id" in a:
                self.open_ids.append((a["id"], len(self.stack)))
                self.text_of[a["id"]] = ""

    def handle_startendtag(self, tag, attrs):
        if tag not in SVG_SELF and tag not in VOID:
            self.errors.append("self-closed <%s/>" % tag)
        self.elements.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1][0] != tag:
            top = self.stack[-1][0] if self.stack else "nothing"
            self.errors.append("</%s> closes <%s> (line %d)" % (tag, top, self.getpos()[0]))
            return
        if tag == "title" and self.in_title is not None:
            self.title_for.append(tuple(self.in_title))
            self.in_title = None
        self.stack.pop()
        while self.open_ids and self.open_ids[-1][1] > len(self.stack):
            self.open_ids.pop()

    def handle_data(self, data):
        for i, _ in self.open_ids:
            self.text_of[i] += data
        if self.in_title is not None:
            self.in_title[2] += data


def parse(path):
    with open(path, "rb") as f:
        raw = f.read()
    p = Page()
    p.feed(raw.decode("utf-8"))     # the page must be valid UTF-8
    p.close()
    if p.stack:
        p.errors.append("unclosed: " + " ".join(t for t, _ in p.stack))
    return raw, p


def cmd_structure(path):
    raw, p = parse(path)
    errs = list(p.errors)
    low = raw.lower()
    for bad in (b"http://", b"https://", b"<script", b"@import", b"url(http", b"<iframe",
                b"<link", b"<object", b"<embed", b"<img"):
        if bad in low:
            errs.append("contains %r" % bad.decode())
    for tag, a in p.elements:
        for attr in ("src", "href", "xlink:href", "action"):
            v = a.get(attr)
            if v is not None and not v.startswith("#"):
                errs.append("<%s %s=%r> points outside the page" % (tag, attr, v))
        if any(k.startswith("on") for k in a):
            errs.append("<%s> has an event handler" % tag)
    if p.csp is None:
        errs.append("no Content-Security-Policy meta tag")
    else:
        policy = {d.split()[0]: d.split()[1:] for d in p.csp.split(";") if d.strip()}
        if policy.get("default-src") != ["'none'"]:
            errs.append("CSP default-src is not 'none': %r" % p.csp)
        if "script-src" in policy:
            errs.append("CSP allows scripts: %r" % p.csp)
    print("\n".join(errs) if errs else "ok")
    return 1 if errs else 0


def cmd_ids(path, ids):
    _, p = parse(path)
    missing = [i for i in ids if i not in p.ids]
    for i in missing:
        print("missing id", i)
    return 1 if missing else 0


def cmd_perf(path, perf_txt):
    _, p = parse(path)
    cells = {}
    for tag, a in p.elements:
        if "data-metric" in a:
            cells[(a["data-layer"], a["data-metric"])] = None
    # the cell texts: collect with a second pass keyed by position
    # a figure may be followed by a note of its wide bounds
    texts = re.findall(r'<td class="n" data-layer="([^"]*)" data-metric="([^"]*)">([^<]*)'
                       r'(?:<span class="wide">\(wide bounds: ([^<]*)\)</span>)?</td>',
                       open(path, encoding="utf-8").read())
    got = {(l, m): v.rstrip(" ") for l, m, v, _ in texts}
    noted = {(l, m) for l, m, _, note in texts if note}
    errs = []
    want = {}
    for line in open(perf_txt, encoding="utf-8"):
        if line.startswith("#"):
            continue
        layer, metric, value = line.rstrip("\n").split("\t")
        want[(layer, metric)] = value
    for k, v in want.items():
        if got.get(k) != v:
            errs.append("%s %s: --perf %r, page %r" % (k[0], k[1], v, got.get(k)))
    for k in got:
        if k not in want:
            errs.append("%s %s on the page, not in --perf" % k)
    # the union's figures carry the note exactly when --perf says wide
    for (layer, metric), v in want.items():
        if metric != "union_bounds":
            continue
        for figure in ("union_time", "union_mib_s"):
            if ((layer, figure) in noted) != (v == "wide"):
                errs.append("%s %s: bounds %s, note on the page: %s"
                            % (layer, figure, v, (layer, figure) in noted))
    if len(cells) != len(got):
        errs.append("%d data-metric cells, %d parsed" % (len(cells), len(got)))
    print("\n".join(errs) if errs else "ok %d" % len(want))
    return 1 if errs else 0


def cmd_titles(path, svg_id, cls):
    _, p = parse(path)
    for svg, c, text in p.title_for:
        if svg == svg_id and cls in c.split():
            print(text)
    return 0


def cmd_text(path, ident):
    _, p = parse(path)
    sys.stdout.write(p.text_of.get(ident, ""))
    return 0


def cmd_count(path, tag):
    _, p = parse(path)
    print(sum(1 for t, _ in p.elements if t == tag))
    return 0


def png_colours(data, width, height):
    """Distinct RGB(A) pixels of an 8-bit RGB or RGBA PNG (non-interlaced)."""
    pos, idat, bpp = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            depth, ctype = body[8], body[9]
            if depth != 8 or ctype not in (2, 6):
                return None
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    colours = set()
    i = 0
    for _ in range(height):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[x] = (line[x] + pr) & 255
        for x in range(0, stride, bpp * 7):     # a sample is enough
            colours.add(bytes(line[x:x + 3]))
        prev = line
    return len(colours)


def cmd_png(path, w, h):
    data = open(path, "rb").read()
    errs = []
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        print("not a PNG")
        return 1
    width, height = struct.unpack(">II", data[16:24])
    if (width, height) != (int(w), int(h)):
        errs.append("size %dx%d, expected %sx%s" % (width, height, w, h))
    else:
        n = png_colours(data, width, height)
        if n is not None and n < 20:
            errs.append("only %d colours: a blank page?" % n)
    print("\n".join(errs) if errs else "ok")
    return 1 if errs else 0


def main(argv):
    cmd, args = argv[1], argv[2:]
    table = {"structure": cmd_structure, "ids": cmd_ids, "perf": cmd_perf,
             "titles": cmd_titles, "text": cmd_text, "count": cmd_count, "png": cmd_png}
    if cmd == "ids":
        return cmd_ids(args[0], args[1:])
    return table[cmd](*args)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
