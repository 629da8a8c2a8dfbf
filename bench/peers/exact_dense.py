"""Exact dense top-k peers over the bench's own float32 rows: numpy matmul and, when installed, faiss IndexFlatIP and
usearch's exact search (usearch.index.search with exact=True, metric ip).

usage: exact_dense.py <rows.f32> <queries.f32> <dims> <k> <rounds> [--turns]
Both files are raw little-endian float32, row-major, unit-length rows. One query at a time, one thread (the caller
sets OMP/OPENBLAS/MKL thread counts to 1; faiss and usearch are told so too). Prints JSON {"numpy_ms": [per round],
"faiss_ms": [...] or null, "usearch_ms": [...] or null, "numpy_top": [rows of query 0], "faiss_top": [...] or null,
"usearch_top": [...] or null, "usearch_version": "..." or null}: milliseconds per query, each round over all queries.
With --turns it prints {"ready": true} once warm, then runs one round of every engine for each "round" line read
from stdin (printing {"round": {"numpy": ms, "faiss": ms, ...}}), until "end": another process takes turns with it.
"""
import json
import sys
import time

import numpy as np


def per_query_ms(search, queries):
    start = time.perf_counter()
    for q in queries:
        search(q)
    return (time.perf_counter() - start) * 1000 / len(queries)


def main():
    rows_file, queries_file, dims, k, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    rows = np.fromfile(rows_file, dtype=np.float32).reshape(-1, dims)
    queries = np.fromfile(queries_file, dtype=np.float32).reshape(-1, dims)

    def numpy_search(q):
        scores = rows @ q
        top = np.argpartition(-scores, k)[:k]
        return top[np.argsort(-scores[top], kind="stable")]

    searches = {"numpy": numpy_search}
    try:
        import faiss

        faiss.omp_set_num_threads(1)
        index = faiss.IndexFlatIP(dims)
        index.add(rows)
        searches["faiss"] = lambda q: index.search(q[None, :], k)[1][0]
    except ImportError:
        pass
    usearch_version = None
    try:
        import usearch
        from usearch.index import MetricKind, search as usearch_exact

        usearch_version = usearch.__version__
        # Brute force over the same float32 rows, no index built; ip distance is 1 − dot, so ascending = best first.
        searches["usearch"] = lambda q: usearch_exact(rows, q, k, MetricKind.IP, exact=True, threads=1).keys
    except ImportError:
        pass

    for q in queries[:3]:
        for search in searches.values():
            search(q)
    out = {f"{name}_ms": [] if name in searches else None for name in ("numpy", "faiss", "usearch")}

    def one_round():
        times = {name: per_query_ms(search, queries) for name, search in searches.items()}
        for name, ms in times.items():
            out[f"{name}_ms"].append(ms)
        return times

    if "--turns" in sys.argv[6:]:
        print(json.dumps({"ready": True}), flush=True)
        for line in sys.stdin:
            if line.strip() != "round":
                break
            print(json.dumps({"round": one_round()}), flush=True)
    else:
        for _ in range(rounds):
            one_round()
    for name in ("numpy", "faiss", "usearch"):
        out[f"{name}_top"] = [int(r) for r in searches[name](queries[0])] if name in searches else None
    out["usearch_version"] = usearch_version
    print(json.dumps(out))


if __name__ == "__main__":
    main()
