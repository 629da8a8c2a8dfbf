"""BM25 speed peers on one BEIR folder: bm25s and tantivy (Rust; single-threaded writer and searcher), both over
the workbench's analysis (bm25_run.terms: lower-case, Lucene's stop words, Porter), top-k per query, one query at a
time. tantivy's index build is timed with its own English analysis (en_stem, in Rust); its searches run on a second
index of the workbench's terms (whitespace tokenizer), so both engines score the same terms (tantivy's BM25 is
k1 1.2, b 0.75, not settable from Python).

usage: bm25_peers.py <BEIR folder> [--k 10] [--rounds 3]
Prints JSON {"documents", "queries", "bm25s": {"index_s", "query_ms"}, "tantivy": {"index_s", "index_bytes",
"query_ms"}}: query_ms holds each query's median over the rounds, in queries.jsonl order.
"""
import argparse
import json
import os
import re
import statistics
import tempfile
import time

import bm25s
import tantivy

import beir
from bm25_run import terms

NOT_WORD = re.compile(r"[^\w]+", re.UNICODE)


def folder_bytes(path):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, files in os.walk(path) for f in files)


def timed_queries(search, texts, rounds):
    per_query = [[] for _ in texts]
    for _ in range(rounds):
        for i, text in enumerate(texts):
            t = time.perf_counter()
            search(text)
            per_query[i].append((time.perf_counter() - t) * 1000)
    return [statistics.median(times) for times in per_query]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("folder")
    p.add_argument("--k", type=int, default=10)
    p.add_argument("--rounds", type=int, default=3)
    args = p.parse_args()
    docs = beir.corpus(args.folder)
    ids = [d["_id"] for d in docs]
    texts = [beir.document_text(d) for d in docs]
    query_texts = [q["text"] for q in beir.queries(args.folder)]

    t = time.perf_counter()
    retriever = bm25s.BM25(method="lucene", k1=0.9, b=0.4)
    retriever.index([terms(x) for x in texts], show_progress=False)
    bm25s_index_s = time.perf_counter() - t
    k = min(args.k, len(ids))
    bm25s_ms = timed_queries(lambda q: retriever.retrieve([terms(q)], k=k, show_progress=False, n_threads=1), query_texts, args.rounds)

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

    with tempfile.TemporaryDirectory() as own, tempfile.TemporaryDirectory() as same:
        # Build time with tantivy's own analysis (en_stem, in Rust) ...
        _, tantivy_index_s = tantivy_index(own, "en_stem", texts)
        # ... and the searches over the workbench's terms (whitespace-joined), so both engines score the same terms.
        index, _ = tantivy_index(same, "whitespace", (" ".join(terms(x)) for x in texts))
        searcher = index.searcher()
        index_bytes = folder_bytes(same)

        def tantivy_search(text):
            words = " ".join(NOT_WORD.sub(" ", w).strip() for w in terms(text))
            return searcher.search(index.parse_query(words or "empty", ["body"]), k).hits

        tantivy_ms = timed_queries(tantivy_search, query_texts, args.rounds)

    print(json.dumps({
        "documents": len(ids),
        "queries": len(query_texts),
        "bm25s": {"index_s": bm25s_index_s, "query_ms": bm25s_ms},
        "tantivy": {"index_s": tantivy_index_s, "index_bytes": index_bytes, "query_ms": tantivy_ms},
    }))


if __name__ == "__main__":
    main()
