"""sentence-transformers `encode` speed on the texts of a JSON file: the embedding peer of `npm run bench -- peers`.

usage: embed_speed.py <model dir> <texts.json (a list of strings)> <rounds> <threads>
Prints JSON: {"seconds": [one per round], "texts": n, "threads": t}. One untimed warm-up round first.
"""
import json
import sys
import time


def main(model_dir, texts_path, rounds, threads):
    import torch

    torch.set_num_threads(int(threads))
    from sentence_transformers import SentenceTransformer

    texts = json.load(open(texts_path, encoding="utf-8"))
    model = SentenceTransformer(model_dir, device="cpu")
    model.encode(texts[:64], batch_size=32, normalize_embeddings=True)
    seconds = []
    for _ in range(int(rounds)):
        start = time.perf_counter()
        model.encode(texts, batch_size=32, convert_to_numpy=True, normalize_embeddings=True)
        seconds.append(time.perf_counter() - start)
    print(json.dumps({"seconds": seconds, "texts": len(texts), "threads": torch.get_num_threads()}))


if __name__ == "__main__":
    main(*sys.argv[1:5])
