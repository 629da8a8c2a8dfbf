"""BM25 peer: bm25s (Lucene idf, k1 0.9, b 0.4) with the workbench's analysis (lower-case, words split at
whitespace/punctuation/symbols, Lucene's 33 English stop words, Porter stemming), scored with pytrec_eval.

usage: bm25_run.py <BEIR folder> <out run file> [--k 1000]
Prints JSON {"aggregate": {...}, "queriesPerSecond": q/s of retrieval alone (index built beforehand)}.
"""
import argparse
import json
import re
import time

import bm25s
import Stemmer

import beir
from trec_eval import evaluate

STOP_WORDS = set("a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with".split())
WORD = re.compile(r"[^\W_]+|_+", re.UNICODE)  # runs of letters and digits (approximately \p{L}\p{N}\p{M})
stemmer = Stemmer.Stemmer("porter")


def terms(text):
    words = [w for w in WORD.findall(text.lower()) if not w.startswith("_") and w not in STOP_WORDS]
    return stemmer.stemWords(words)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("folder")
    p.add_argument("out")
    p.add_argument("--k", type=int, default=1000)
    a = p.parse_args()
    docs = beir.corpus(a.folder)
    ids = [d["_id"] for d in docs]
    retriever = bm25s.BM25(method="lucene", k1=0.9, b=0.4)
    retriever.index([terms(beir.document_text(d)) for d in docs], show_progress=False)
    queries = beir.queries(a.folder)
    k = min(a.k, len(ids))
    started = time.perf_counter()
    run = {}
    for q in queries:
        query_terms = [t for t in terms(q["text"]) if t in retriever.vocab_dict]
        if not query_terms:
            run[q["_id"]] = []
            continue
        scores = retriever.get_scores(query_terms)
        top = scores.argsort()[::-1][:k]
        run[q["_id"]] = [(ids[j], float(scores[j])) for j in top if scores[j] > 0 and ids[j] != q["_id"]]
    elapsed = time.perf_counter() - started
    beir.write_run(a.out, run, "peer-bm25s")
    result = evaluate(beir.qrels(a.folder), beir.read_run(a.out))
    print(json.dumps({"aggregate": result["aggregate"], "queriesPerSecond": len(queries) / elapsed}))


if __name__ == "__main__":
    main()
