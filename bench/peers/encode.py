"""sentence-transformers `encode` of the texts in a JSON file: the reference vectors for the fidelity check.

usage: encode.py <model dir> <texts.json (a list of strings)> <out.f32 (row-major float32)>
"""
import sys

import numpy as np
from sentence_transformers import SentenceTransformer


def main(model_dir, texts_path, out_path):
    import json

    texts = json.load(open(texts_path, encoding="utf-8"))
    model = SentenceTransformer(model_dir, device="cpu")
    vectors = model.encode(texts, batch_size=32, convert_to_numpy=True, normalize_embeddings=True)
    np.asarray(vectors, dtype="<f4").tofile(out_path)
    print(f"{len(texts)} texts, {vectors.shape[1]} dimensions, max_seq_length {model.max_seq_length}")


if __name__ == "__main__":
    main(*sys.argv[1:4])
