#!/usr/bin/env python3
"""Generates issue exports for tests/cli/corpus.sh and bench/corpus_timing.sh, in the JSON that
`gh issue list --json number,url,title,body,createdAt,labels,comments` writes.

usage: corpus_gen.py OUTDIR [--per-source N] [--seed S] [--body-words W]
Writes OUTDIR/<source>.json for the sources atlas, borealis, cirrus (N issues each, numbers 1..N), and
OUTDIR/planted.json: the planted documents by name, for the test to check provenance on.
Planted hits (atlas/borealis keyword lists in corpus.sh): a title hit, a body hit after non-ASCII text, a
comment hit, a case-sensitive term in the right and wrong case, a whole-word term inside a word, a substring
term inside a word, and a phrase across a line break."""
import json, os, random, sys

args = sys.argv[1:]
out = args[0]
per = int(args[args.index("--per-source") + 1]) if "--per-source" in args else 667
seed = int(args[args.index("--seed") + 1]) if "--seed" in args else 7
words_per = int(args[args.index("--body-words") + 1]) if "--body-words" in args else 60
rng = random.Random(seed)
filler = ("the build fails after upgrading when loading weights from disk with an error about shapes "
          "please advise on the config our cluster runs nightly jobs and the scheduler reports timeouts").split()
# Words that contain keywords without being them (whole-word terms must not match these).
decoys = ["deadlocked", "recaches", "cachemiss", "gpus", "nondeadlock"]
os.makedirs(out, exist_ok=True)
planted = {}

def sentence(n):
    return " ".join(rng.choice(filler) for _ in range(n))

def date(k):
    # 2022-06 .. 2025-09: some fall outside the window 2023-01 .. 2025-04.
    y, m = divmod(rng.randrange(0, 40) + 5, 12)
    return "%04d-%02d-%02dT%02d:%02d:00Z" % (2022 + y, m + 1, rng.randrange(1, 29), rng.randrange(24), rng.randrange(60))

for source in ["atlas", "borealis", "cirrus"]:
    issues = []
    for n in range(1, per + 1):
        title = sentence(rng.randrange(4, 9)).capitalize()
        body = sentence(rng.randrange(words_per // 2, words_per * 3 // 2))
        comments = [{"author": {"login": "user%d" % rng.randrange(50)}, "authorAssociation": "NONE",
                     "body": sentence(rng.randrange(5, 30)), "createdAt": date(n), "id": "IC_%s_%d_%d" % (source, n, c),
                     "includesCreatedEdit": False, "isMinimized": False, "minimizedReason": "", "reactionGroups": [],
                     "url": "https://example.org/%s/issues/%d#c%d" % (source, n, c), "viewerDidAuthor": False}
                    for c in range(rng.randrange(0, 4))]
        r = rng.random()
        # Random keyword hits (the test recomputes them all by regex): roughly 40% of issues.
        if r < 0.08: title += " cache miss"
        elif r < 0.16: body += " we hit a Deadlock again"
        elif r < 0.22 and comments: comments[-1]["body"] += " QKV layout differs"
        elif r < 0.28: body += " qkv lowercase is not the term"
        elif r < 0.34: body += " " + rng.choice(decoys)
        elif r < 0.40: body += " resharding the table"
        elif r < 0.44: body += " a stack\n   overflow in the parser"
        elif r < 0.47: title += " GPU"
        issues.append({"number": n, "url": "https://example.org/%s/issues/%d" % (source, n), "title": title,
                       "body": body, "createdAt": date(n),
                       "labels": [{"id": "L%d" % n, "name": rng.choice(["bug", "question", "enhancement"]),
                                   "description": "", "color": "ededed"}], "comments": comments})
    # Planted documents with known provenance (numbers 1..8 of each list-bearing source), in the window.
    if source != "cirrus":
        def plant(n, title, body, comment=None):
            i = issues[n - 1]
            i["title"], i["body"], i["createdAt"] = title, body, "2024-02-10T08:00:00Z"
            i["comments"] = [] if comment is None else [
                {"author": {"login": "ann"}, "body": "first reply", "createdAt": "2024-02-11T08:00:00Z"},
                {"author": {"login": "ben"}, "body": comment, "createdAt": "2024-02-12T08:00:00Z"}]
            planted["%s#%d" % (source, n)] = i
        plant(1, "Cache miss on every call", "nothing else here")                        # title, case-insensitive
        plant(2, "Plain title", "Größe über alles, then a cache miss and another CACHE MISS")  # body after non-ASCII
        plant(3, "Plain title", "nothing", "the QKV projection is wrong")                   # comment 2, case-sensitive
        plant(4, "Plain title", "the qkv projection and Qkv too")                           # wrong case: no hit
        plant(5, "Plain title", "it deadlocked twice")                                      # inside a word: no hit
        plant(6, "Plain title", "resharding is slow")                                       # substring term: hit
        plant(7, "Plain title", "a stack\n\t overflow in the parser")                      # phrase across a line break
        plant(8, "zzz", "zzz", "zzz")                                                       # nothing at all
        for n in range(1, 9):
            i = issues[n - 1]
            i["title"] = i["title"].replace("zzz", "quiet")
            i["body"] = i["body"].replace("zzz", "quiet")
            for c in i["comments"]:
                c["body"] = c["body"].replace("zzz", "quiet")
    json.dump(issues, open(os.path.join(out, source + ".json"), "w"), ensure_ascii=False, indent=2)
json.dump(sorted(planted), open(os.path.join(out, "planted.json"), "w"))
