"""BM25 speed peers on one BEIR folder: bm25s and tantivy (Rust; single-threaded writer and searcher), both over
the workbench's analysis (bm25_run.terms: lower-case, Lucene's stop words, Porter), and Pyserini (Lucene, in a JVM
through pyjnius) with its own default analysis, which is the same but for the tokenizer (Lucene's StandardTokenizer,
Lucene's English stop words, Porter). Top-k per query, one query at a time, one thread; the engines take turns
round by round, after one unmeasured pass each (more for Pyserini, whose JIT needs thousands of calls).
tantivy's index build is timed with its own English analysis (en_stem, in Rust); its searches run on a second
index of the workbench's terms (whitespace tokenizer), so both engines score the same terms (tantivy's BM25 is
k1 1.2, b 0.75, not settable from Python). Pyserini's index is built by Anserini's IndexCollection (what
`python -m pyserini.index.lucene` runs) from a JsonCollection, one thread, in this process's JVM, and searched with
LuceneSearcher.search at k1 0.9, b 0.4 (Pyserini's default, set explicitly; bm25s here and the workbench's
OKAPI_BM25 use the same). Pyserini needs a JDK 21+: JAVA_HOME when it is one, else the newest in /usr/lib/jvm.
When Pyserini cannot run, its entry says why.

usage: bm25_peers.py <BEIR folder> [--k 10] [--rounds 3] [--no-pyserini]
Prints JSON {"documents", "queries", "bm25s": {"index_s", "query_ms"}, "tantivy": {"index_s", "index_bytes",
"query_ms"}, "pyserini": {"index_s", "index_bytes", "query_ms", "version", "java", "k1", "b", "top_agreement"} or
{"skipped": reason}}: query_ms holds each query's median over the rounds, in queries.jsonl order; top_agreement is
the mean share of Pyserini's top-k that bm25s also returns.
"""
import argparse
import glob
import json
import math
import os
import re
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack

import bm25s
import tantivy

import beir
from bm25_run import terms

NOT_WORD = re.compile(r"[^\w]+", re.UNICODE)
PYSERINI_K1, PYSERINI_B = 0.9, 0.4
JIT_WARM_CALLS = 2000


def folder_bytes(path):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, files in os.walk(path) for f in files)


def warm_up(searches, texts, warm_passes):
    """Unmeasured passes over all queries: one per engine, or as many as `warm_passes` says (a JIT wants more)."""
    for name, search in searches.items():
        for _ in range(warm_passes.get(name, 1)):
            for text in texts:
                search(text)


def interleaved_times(searches, texts, rounds, warm_passes):
    """Each engine's per-query median over `rounds`; each round runs every engine over all queries in turn."""
    warm_up(searches, texts, warm_passes)
    per_query = {name: [[] for _ in texts] for name in searches}
    for _ in range(rounds):
        for name, search in searches.items():
            times = per_query[name]
            for i, text in enumerate(texts):
                t = time.perf_counter()
                search(text)
                times[i].append((time.perf_counter() - t) * 1000)
    return {name: [statistics.median(t) for t in times] for name, times in per_query.items()}


def rounds_on_request(searches, texts, warm_passes, out):
    """interleaved_times, one round per 'round' line on stdin, so another process can take turns with the engines."""
    warm_up(searches, texts, warm_passes)
    out.write(json.dumps({"ready": True}) + "\n")
    out.flush()
    per_query = {name: [[] for _ in texts] for name in searches}
    for line in sys.stdin:
        words = line.split()
        if not words or words[0] == "end":
            break
        # "round" runs every engine; "round tantivy pyserini" only those named
        this_round = {}
        for name, search in searches.items():
            if len(words) > 1 and name not in words[1:]:
                continue
            times = []
            for i, text in enumerate(texts):
                t = time.perf_counter()
                search(text)
                times.append((time.perf_counter() - t) * 1000)
                per_query[name][i].append(times[-1])
            this_round[name] = times
        out.write(json.dumps({"round": this_round}) + "\n")
        out.flush()
    return {name: [statistics.median(t) for t in times] for name, times in per_query.items()}


def java_home_21():
    """(JAVA_HOME to use, its Java version) for a JDK 21+, or (None, what was found)."""
    found = {}
    for home in [os.environ.get("JAVA_HOME"), *glob.glob("/usr/lib/jvm/*")]:
        release = os.path.join(home or "", "release")
        if home and os.path.isfile(release) and os.path.realpath(home) not in found:
            version = re.search(r'^JAVA_VERSION="([^"]+)"', open(release).read(), re.M)
            if version:
                found[os.path.realpath(home)] = (home, version.group(1))
    usable = [(h, v) for h, v in found.values() if int(v.split(".")[0]) >= 21]
    if os.environ.get("JAVA_HOME") in [h for h, _ in usable]:
        return os.environ["JAVA_HOME"], found[os.path.realpath(os.environ["JAVA_HOME"])][1]
    if usable:
        return max(usable, key=lambda hv: int(hv[1].split(".")[0]))
    return None, ", ".join(f"{h}: Java {v}" for h, v in found.values()) or "no JDK found"


def pyserini_peer(stack, ids, texts, k):
    """(search function, facts) for Pyserini over these documents, or (None, {"skipped": reason})."""
    home, java = java_home_21()
    if not home:
        return None, {"skipped": f"Pyserini needs a JDK 21+ ({java})"}
    os.environ["JAVA_HOME"] = home  # read by pyjnius when it starts the JVM, in this process only
    try:
        from importlib.metadata import version

        from pyserini.pyclass import autoclass  # puts Anserini's jar on the class path before the JVM starts
        from pyserini.search.lucene import LuceneSearcher
    except Exception as err:  # ImportError, or the JVM failing to start
        return None, {"skipped": f"import pyserini failed: {type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''}"}
    collection = stack.enter_context(tempfile.TemporaryDirectory())
    index_dir = stack.enter_context(tempfile.TemporaryDirectory())
    with open(os.path.join(collection, "docs.jsonl"), "w", encoding="utf-8") as f:
        for doc_id, text in zip(ids, texts):
            f.write(json.dumps({"id": doc_id, "contents": text}) + "\n")
    t = time.perf_counter()
    autoclass("io.anserini.index.IndexCollection").main([
        "-collection", "JsonCollection", "-input", collection, "-index", index_dir,
        "-generator", "DefaultLuceneDocumentGenerator", "-threads", "1", "-quiet",
    ])
    index_s = time.perf_counter() - t
    searcher = LuceneSearcher(index_dir)
    expected = sum(1 for text in texts if text.strip())  # Anserini leaves out empty documents (2 in Cranfield)
    if searcher.num_docs != expected:
        return None, {"skipped": f"IndexCollection indexed {searcher.num_docs} of {expected} documents"}
    searcher.set_bm25(PYSERINI_K1, PYSERINI_B)
    facts = {"index_s": index_s, "index_bytes": folder_bytes(index_dir), "version": version("pyserini"), "java": java, "k1": PYSERINI_K1, "b": PYSERINI_B}
    return (lambda text: searcher.search(text, k)), facts


def main():
    p = argparse.ArgumentParser()
    p.add_argument("folder")
    p.add_argument("--k", type=int, default=10)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--no-pyserini", action="store_true")
    p.add_argument("--turns", action="store_true",
                   help="after indexing, print {\"ready\": true}, then run one round of every engine for each line "
                        "'round' read from stdin, or of those named ('round tantivy pyserini'), printing "
                        "{\"round\": {engine: per-query ms}}, until 'end'")
    args = p.parse_args()
    # The JVM writes its log lines to fd 1: keep the real stdout for the JSON alone.
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    docs = beir.corpus(args.folder)
    ids = [d["_id"] for d in docs]
    texts = [beir.document_text(d) for d in docs]
    query_texts = [q["text"] for q in beir.queries(args.folder)]

    t = time.perf_counter()
    retriever = bm25s.BM25(method="lucene", k1=0.9, b=0.4)
    retriever.index([terms(x) for x in texts], show_progress=False)
    bm25s_index_s = time.perf_counter() - t
    k = min(args.k, len(ids))

    def bm25s_search(text):
        return retriever.retrieve([terms(text)], k=k, show_progress=False, n_threads=1)

    def tantivy_index(where, tokenizer, bodies):
        builder = tantivy.SchemaBuilder()
        builder.add_integer_field("row", stored=True, fast=True)
        builder.add_text_field("body", stored=False, tokenizer_name=tokenizer)
        index = tantivy.Index(builder.build(), path=where)
        t = time.perf_counter()
        writer = index.writer(heap_size=256_000_000, num_threads=1)
        for row, body in enumerate(bodies):
            writer.add_document(tantivy.Document(row=row, body=body))
        writer.commit()
        writer.wait_merging_threads()
        seconds = time.perf_counter() - t
        index.reload()
        return index, seconds

    with ExitStack() as stack:
        own, same = (stack.enter_context(tempfile.TemporaryDirectory()) for _ in range(2))
        # Build time with tantivy's own analysis (en_stem, in Rust) ...
        _, tantivy_index_s = tantivy_index(own, "en_stem", texts)
        # ... and the searches over the workbench's terms (whitespace-joined), so both engines score the same terms.
        index, _ = tantivy_index(same, "whitespace", (" ".join(terms(x)) for x in texts))
        tantivy_searcher = index.searcher()
        tantivy_bytes = folder_bytes(same)

        def tantivy_search(text):
            words = " ".join(NOT_WORD.sub(" ", w).strip() for w in terms(text))
            return tantivy_searcher.search(index.parse_query(words or "empty", ["body"]), k).hits

        searches = {"bm25s": bm25s_search, "tantivy": tantivy_search}
        if args.no_pyserini:
            pyserini = {"skipped": "--no-pyserini"}
        else:
            try:
                pyserini_search, pyserini = pyserini_peer(stack, ids, texts, k)
            except Exception as err:
                pyserini_search, pyserini = None, {"skipped": f"{type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''}"}
            if pyserini_search:
                searches["pyserini"] = pyserini_search
        warm = {"pyserini": math.ceil(JIT_WARM_CALLS / max(1, len(query_texts)))}
        if args.turns:
            times = rounds_on_request(searches, query_texts, warm, out)
        else:
            times = interleaved_times(searches, query_texts, args.rounds, warm)
        if "pyserini" in searches:
            pyserini["query_ms"] = times["pyserini"]
            agree = []
            for text in query_texts:
                lucene = {hit.docid for hit in searches["pyserini"](text)}
                if lucene:
                    agree.append(len(lucene & {ids[j] for j in bm25s_search(text).documents[0]}) / len(lucene))
            pyserini["top_agreement"] = statistics.mean(agree) if agree else None

    out.write(json.dumps({
        "documents": len(ids),
        "queries": len(query_texts),
        "bm25s": {"index_s": bm25s_index_s, "query_ms": times["bm25s"]},
        "tantivy": {"index_s": tantivy_index_s, "index_bytes": tantivy_bytes, "query_ms": times["tantivy"]},
        "pyserini": pyserini,
    }) + "\n")
    out.flush()


if __name__ == "__main__":
    main()
