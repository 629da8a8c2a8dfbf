"""Exact dense top-k peers over the bench's own float32 rows: numpy matmul and, when installed, faiss IndexFlatIP.

usage: exact_dense.py <rows.f32> <queries.f32> <dims> <k> <rounds>
Both files are raw little-endian float32, row-major, unit-length rows. One query at a time, one thread (the caller
sets OMP/OPENBLAS/MKL thread counts to 1). Prints JSON {"numpy_ms": [per round], "faiss_ms": [...] or null,
"numpy_top": [rows of query 0], "faiss_top": [...] or null}: milliseconds per query, each round over all queries.
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

    try:
        import faiss

        faiss.omp_set_num_threads(1)
        index = faiss.IndexFlatIP(dims)
        index.add(rows)

        def faiss_search(q):
            return index.search(q[None, :], k)[1][0]
    except ImportError:
        faiss_search = None

    for q in queries[:3]:
        numpy_search(q)
        if faiss_search:
            faiss_search(q)
    out = {"numpy_ms": [], "faiss_ms": [] if faiss_search else None}
    for _ in range(rounds):
        out["numpy_ms"].append(per_query_ms(numpy_search, queries))
        if faiss_search:
            out["faiss_ms"].append(per_query_ms(faiss_search, queries))
    out["numpy_top"] = [int(r) for r in numpy_search(queries[0])]
    out["faiss_top"] = [int(r) for r in faiss_search(queries[0])] if faiss_search else None
    print(json.dumps(out))


if __name__ == "__main__":
    main()
