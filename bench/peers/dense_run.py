"""Dense retrieval peer: sentence-transformers vectors, exact cosine over the whole corpus, pytrec_eval scores.

usage: dense_run.py <model dir> <BEIR folder> <out run file> [--query-prefix P] [--passage-prefix P] [--k 1000]
Prints JSON {"nDCG@10", "R@100", "AP"} (means over the queries that are in both the qrels and the run).
Document vectors are cached beside the run file (<out>.docs.npy), keyed by the corpus size.
"""
import argparse
import json
import os

import numpy as np
from sentence_transformers import SentenceTransformer

import beir
from trec_eval import evaluate


def main():
    p = argparse.ArgumentParser()
    p.add_argument("model_dir")
    p.add_argument("folder")
    p.add_argument("out")
    p.add_argument("--query-prefix", default="")
    p.add_argument("--passage-prefix", default="")
    p.add_argument("--k", type=int, default=1000)
    a = p.parse_args()

    model = SentenceTransformer(a.model_dir, device="cpu")
    docs = beir.corpus(a.folder)
    cache = a.out + ".docs.npy"
    if os.path.exists(cache) and np.load(cache, mmap_mode="r").shape[0] == len(docs):
        doc_vectors = np.load(cache)
    else:
        texts = [a.passage_prefix + beir.document_text(d) for d in docs]
        doc_vectors = model.encode(texts, batch_size=32, convert_to_numpy=True, normalize_embeddings=True)
        np.save(cache, doc_vectors)
    queries = beir.queries(a.folder)
    query_vectors = model.encode([a.query_prefix + q["text"] for q in queries], batch_size=32, convert_to_numpy=True,
                                 normalize_embeddings=True)
    scores = query_vectors @ doc_vectors.T
    ids = [d["_id"] for d in docs]
    run = {}
    k = min(a.k, len(ids))
    for qi, q in enumerate(queries):
        top = np.argpartition(-scores[qi], k - 1)[:k]
        top = top[np.argsort(-scores[qi][top], kind="stable")]
        # BEIR's rule, as the workbench applies it: a document with the query's own id is not a result.
        run[q["_id"]] = [(ids[j], float(scores[qi][j])) for j in top if ids[j] != q["_id"]]
    beir.write_run(a.out, run, "peer-dense")
    print(json.dumps(evaluate(beir.qrels(a.folder), beir.read_run(a.out))["aggregate"]))


if __name__ == "__main__":
    main()
