#!/usr/bin/env python3
"""Generates the hostile inputs of issue #16 (the findings of a hostile review) into OUTDIR/<target>/, for
replay.sh (through the fuzz targets) and bench/hostile_timing.sh (through the CLI). The big ones are
generated at test time rather than committed. Each must be accepted or refused within 2 s and 512 MiB.

Usage: make_hostile.py OUTDIR            (all of them)
       make_hostile.py OUTDIR --small    (skip the zip bombs, which take a few seconds to compress)
"""
import os
import sys
import zipfile
import zlib

FRONT = "---\nparticipant: E09\nrole: employee\ncoder: dana\n"
TURN = "---\n\n## I.1 Tenure\nI: How many years have you worked remotely?\nE09: One year.\n"
MB = 1024 * 1024


def put(out, target, name, data):
    os.makedirs(os.path.join(out, target), exist_ok=True)
    path = os.path.join(out, target, name)
    with open(path, "wb") as f:
        f.write(data.encode() if isinstance(data, str) else data)
    return path


def zip_with(path, entries):
    """entries: (name, bytes or (byte, size)) -- (byte, size) streams `size` copies of one byte, compressed."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name, content in entries:
            if isinstance(content, tuple):
                byte, size = content
                chunk = byte * MB
                info = zipfile.ZipInfo(name, (2020, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                with z.open(info, "w", force_zip64=True) as f:
                    for _ in range(size // MB):
                        f.write(chunk)
            else:
                z.writestr(zipfile.ZipInfo(name, (2020, 1, 1, 0, 0, 0)), content, zipfile.ZIP_DEFLATED)


def main():
    out = sys.argv[1]
    small = "--small" in sys.argv[2:]
    # Generated once per version of this script (the zip bombs take a few seconds of CPU to compress).
    with open(__file__, "rb") as f:
        stamp = "%08x%s" % (zlib.crc32(f.read()), " small" if small else "")
    stamp_path = os.path.join(out, ".stamp")
    if os.path.exists(stamp_path) and open(stamp_path).read() == stamp:
        return
    # Quadratic time: one error per comma, its column recounted from the line start.
    put(out, "transcript", "commas-1M.md", FRONT + TURN + "@code B.1" + "," * 1_000_000 + "\n")
    put(out, "standoff", "commas-100K.codes", "t1: COM.1" + "," * 100_000 + "\n")
    # Issue #22: searches for a closing bracket or brace that rescanned the rest of the line per error.
    put(out, "transcript", "open-brackets-2M.md", FRONT + TURN + "E09: " + "[" * 2_000_000 + "\n")
    put(out, "transcript", "open-bracket-x-4M.md", FRONT + TURN + "E09: " + "[x" * 2_000_000 + "\n")
    put(out, "transcript", "close-open-2M.md", FRONT + TURN + "E09: " + "]{" * 1_000_000 + "\n")
    put(out, "transcript", "interviewer-spans-2M.md", FRONT + TURN + "I: Why? " + "[a]{B.1} " * 250_000 + "\n")
    # A 2 MB line echoed in full by every message about it.
    put(out, "transcript", "long-code-2M.md", FRONT + TURN + "@code " + "X" * 2_000_000 + "\n")
    put(out, "labels", "long-cell-2M.csv", "id,Label_1,Label_2\nu1,COM.1," + "B" * 2_000_000 + "\n")
    put(out, "ranking", "long-item-2M.csv", "participant,question,ranking\np1,Q," + "Z" * 2_000_000 + "\n")
    # 50,000 duplicate nodes: 50,000 errors before the cap.
    nodes = "".join("  - id: DUP\n    name: Dup %d\n" % i for i in range(50_000))
    put(out, "taxonomy", "duplicates-50K.yaml", "taxonomy: t\ntitle: T\nnodes:\n" + nodes)
    put(out, "labels", "duplicate-units-50K.csv", "id,Label_1,Label_2\n" + "u,COM.1,COM.2\n" * 50_000)  # (the fieldwork study's nodes)
    # Alias expansion: one 1 MB anchored string named 5,000 times (a 1 MB taxonomy standing for 5 GB).
    big = "x" * MB
    put(out, "taxonomy", "alias-5000x1M.yaml",
        "taxonomy: t\ntitle: &s " + big + "\nnodes:\n  - id: A\n    name: A\n    keywords: [" +
        ", ".join(["*s"] * 5000) + "]\n")
    put(out, "yaml", "alias-5000x1M.yaml", "s: &s " + big + "\nl: [" + ", ".join(["*s"] * 5000) + "]\n")
    # Front matter with 3,000 aliases of a 1 MB string.
    put(out, "transcript", "front-matter-aliases.md",
        "---\nparticipant: E09\nrole: employee\nnote: &s " + big + "\nattributes:\n" +
        "".join("  a%d: *s\n" % i for i in range(3000)) + TURN)
    # Billion laughs: 10 levels of 10 aliases each.
    laughs = ['a0: &a0 "lol"']
    for i in range(1, 10):
        laughs.append("a%d: &a%d [%s]" % (i, i, ", ".join(["*a%d" % (i - 1)] * 10)))
    put(out, "yaml", "billion-laughs.yaml", "\n".join(laughs) + "\n")
    put(out, "guideline", "billion-laughs.yaml", "\n".join(laughs) + "\nquestions: *a9\n")
    # Nesting: 100,000 open brackets; and a 10 MB flat document.
    put(out, "yaml", "deep-100K.yaml", "a: " + "[" * 100_000 + "\n")
    put(out, "yaml", "flat-10M.yaml", "".join("k%d: %s\n" % (i, "v" * 80) for i in range(110_000)))
    # Issue #29: what the fold that finds names by meaning decodes, 1-4 MB of it: unclosed comments, references
    # and escapes cut short, a million combining marks on one letter, emphasis runs, invisible characters.
    put(out, "names", "unclosed-comments-4M.txt", "<!--" * 1_000_000 + "Maria Schmidt")
    put(out, "names", "cut-references-2M.txt", "&#x" * 350_000 + "&aacute" * 150_000 + "\\u00" * 100_000)
    put(out, "names", "marks-1M.txt", "Maria e" + "\u0301\u0323" * 500_000 + " Schmidt")
    put(out, "names", "stars-2M.txt", ("Ma" + "*" * 1000 + "ria ") * 2000)
    put(out, "names", "invisible-2M.txt", "Maria" + "\u200b\u00ad" * 300_000 + " Schmidt")
    put(out, "names", "spaces-4M.txt", "Maria" + " \u00a0\r\n\t_" * 800_000 + "Schmidt")
    # A 10 MB transcript with many ordinary turns and codes.
    turns = "".join("I: Question %d?\nE09: Answer %d, %s.\n@code COM.1, WELL.1\n" % (i, i, "w" * 40)
                    for i in range(90_000))
    put(out, "transcript", "turns-10M.md", FRONT + "---\n\n## I.1 Tenure\n" + turns)
    # Invalid UTF-8 where it once reached a workbook: a participant id and a role in a ranking table.
    put(out, "ranking", "invalid-utf8.csv", b"participant,question,ranking,role\np\xc0,Q,COM.1>WELL.1,r\xc0\n")
    # A history cut off after "accept:" / "reject:" / "propose:" (once json type_error.302, an internal error).
    fixture = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "fieldwork", "codebooks",
                           "remote-work.history.yaml")
    history = open(fixture).read()
    for key in ("accept", "reject", "propose"):
        put(out, "history", "truncated-%s.yaml" % key, history + "  - %s:\n" % key)
    # Deeply nested codes (was: 100,000 levels a crash, 20,000 over 30 s and 2.9 GB, 1,000 an internal error).
    def nested_qdc(n):
        return ('<?xml version="1.0" encoding="utf-8"?>\n<CodeBook xmlns="urn:QDA-XML:codebook:1.0" origin="x"><Codes>\n'
                + "".join('<Code guid="%08d-0000-4000-8000-000000000000" name="c%d" isCodable="true">\n' % (i, i) for i in range(n))
                + "</Code>\n" * n + "</Codes></CodeBook>\n")
    put(out, "qdc", "nested-100K.qdc", nested_qdc(100_000))
    put(out, "qdc", "nested-1K.qdc", nested_qdc(1_000))
    # Issue #22, accepted large inputs: 200,000 coded spans on one turn (4.6 s: each span's code-point offset
    # counted from the turn's start); 850,000 near misses "[x] {COM.1}" (9 MB; 57 s and 1.5 GB: each kept as a
    # span past the diagnostics' cap); 1,000 codes sharing one GUID (accepted); 60,000 flat codes in a .qdc
    # (refused since issue #32: more than 10,000 codes).
    put(out, "transcript", "spans-200K.md", FRONT + TURN + "E09: " + "[a]{COM.1} " * 200_000 + "\n")
    put(out, "transcript", "near-miss-850K.md", FRONT + TURN + "E09: " + "[x] {COM.1}" * 850_000 + "\n")
    codebook = '<?xml version="1.0" encoding="utf-8"?>\n<CodeBook xmlns="urn:QDA-XML:codebook:1.0" origin="x"><Codes>\n'
    put(out, "qdc", "flat-60K.qdc", codebook + "".join(
        '<Code guid="%08d-0000-4000-8000-%012d" name="code number %d with a longer name" isCodable="true"/>\n' % (i, i, i)
        for i in range(60_000)) + "</Codes></CodeBook>\n")
    # A period list of 1,000,000 ids (9 MB), none in the table: one warning with the count, not a million.
    put(out, "periods", "ids-1M.txt", "".join("u%07d\n" % i for i in range(1_000_000)))
    # Issue exports: nesting a million deep (refused before parsing), 20,000 issues with a comment each, a
    # field over its 1 MiB limit; a stored line nested a million deep and one of 8 MB of escapes.
    put(out, "corpus_export", "nested-1M.json", "[" * 1_000_000 + "]" * 1_000_000)
    put(out, "corpus_export", "issues-20K.json", "[" + ",".join(
        '{"number":%d,"title":"t %d","body":"a cache miss here","createdAt":"2024-01-01T00:00:00Z",'
        '"labels":[{"name":"bug"}],"comments":[{"author":{"login":"u"},"body":"QKV","createdAt":"2024-01-02T00:00:00Z"}]}'
        % (i, i) for i in range(20_000)) + "]")
    put(out, "corpus_export", "body-2M.jsonl", '{"number":1,"body":"' + "x" * (2 * MB) + '"}\n')
    put(out, "corpus_store", "nested-1M.jsonl", '{"id":"1","extra":' + "[" * 1_000_000 + "]" * 1_000_000 + "}\n")
    put(out, "corpus_store", "escapes-8M.jsonl", '{"id":"1","body":"' + "\\n\\u00e9" * (MB) + '"}\n')
    # findings.yaml past its limit of 1,000 findings, and a claim of 1 MB.
    put(out, "findings", "findings-1001.yaml", "findings:\n" + "".join(
        "  - id: F%d\n    claim: c\n    codes: [COM.1]\n" % i for i in range(1001)))
    put(out, "findings", "claim-1M.yaml", "findings:\n  - id: F1\n    claim: " + "x" * MB + "\n    codes: [COM.1]\n")
    put(out, "qdc", "same-guid-1K.qdc", codebook + "".join(
        '<Code guid="00000001-0000-4000-8000-000000000000" name="c%d" isCodable="true"/>\n' % i for i in range(1000))
        + "</Codes></CodeBook>\n")
    # Issue #32: 4,000 coder columns (4.5 s and 2.7 GB in coder pairs; refused past 100); 10 MB of rankings,
    # each participant a group of their own (10 s; refused past 100,000 rows); 10 MB of codings in one .codes
    # file (1.5 s and 0.9 GB; refused past 250,000); a YAML list of 1.9 million items (2.8 s and 0.9 GB; refused
    # past 500,000 nodes).
    put(out, "labels", "coders-4000.csv", "unit," + ",".join("coder%d" % c for c in range(4000)) + "\nu1," +
        ",".join("COM.1" for _ in range(4000)) + "\n")
    put(out, "ranking", "groups-10M.csv", "participant,question,ranking,role\n" + "".join(
        "p%d,III.R,TOOL.1 > TOOL.2 > TOOL.3,role%d\n" % (i, i) for i in range(240_000)))
    put(out, "standoff", "codings-10M.codes", "t2: COM.1.a\n" * 870_000)
    put(out, "yaml", "nodes-1900K.yaml", "title: x\nextra: [" + ",".join(["a"] * 1_900_000) + "]\n")
    if small:
        with open(stamp_path, "w") as f:
            f.write(stamp)
        return
    # Zip bombs: a .qdpx whose sources inflate to 3 x 480 MB, a .docx whose document inflates to 500 MB, and an
    # archive of 20,000 empty entries.
    qde = ('<?xml version="1.0" encoding="utf-8"?>\n<Project xmlns="urn:QDA-XML:project:1.0" name="p">'
           '<Sources>' + "".join(
               '<TextSource guid="00000000-0000-0000-0000-00000000000%d" name="s%d" plainTextPath="internal://s%d.txt"/>'
               % (i, i, i) for i in range(3)) + '</Sources></Project>\n')
    zip_with(os.path.join(os.makedirs(os.path.join(out, "qdpx"), exist_ok=True) or os.path.join(out, "qdpx"),
                          "bomb-3x480M.qdpx"),
             [("project.qde", qde)] + [("sources/s%d.txt" % i, (b"a", 480 * MB)) for i in range(3)])
    os.makedirs(os.path.join(out, "docx"), exist_ok=True)
    zip_with(os.path.join(out, "docx", "bomb-500M.docx"),
             [("[Content_Types].xml", "<Types/>"), ("word/document.xml", (b" ", 500 * MB))])
    zip_with(os.path.join(out, "qdpx", "entries-20K.qdpx"),
             [("project.qde", qde)] + [("e%d" % i, b"") for i in range(20_000)])
    with open(stamp_path, "w") as f:
        f.write(stamp)


if __name__ == "__main__":
    main()
