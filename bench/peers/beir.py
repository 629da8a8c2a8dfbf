"""Reads a BEIR folder (corpus.jsonl, queries.jsonl, qrels/test.tsv) and writes TREC run files."""
import glob
import json
import os


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def document_text(doc):
    """The workbench's documentText: title + '. ' + text, or the text alone when the title is blank."""
    title = (doc.get("title") or "").strip()
    return f"{title}. {doc.get('text', '')}" if title else doc.get("text", "")


def corpus(folder):
    return read_jsonl(os.path.join(folder, "corpus.jsonl"))


def queries(folder):
    return read_jsonl(os.path.join(folder, "queries.jsonl"))


def qrels(folder):
    """query id -> doc id -> grade, from the BEIR test split (TSV with a header)."""
    files = sorted(glob.glob(os.path.join(folder, "qrels", "test.tsv"))) or sorted(glob.glob(os.path.join(folder, "qrels", "*.tsv")))
    judged = {}
    for path in files:
        with open(path, encoding="utf-8") as f:
            for line in f:
                parts = line.split()
                if len(parts) < 3 or not parts[2].lstrip("-").isdigit():
                    continue
                judged.setdefault(parts[0], {})[parts[1]] = int(parts[2])
    return judged


def write_run(path, run, tag):
    """run: query id -> list of (doc id, score), best first."""
    with open(path, "w", encoding="utf-8") as f:
        for qid, ranked in run.items():
            for rank, (doc_id, score) in enumerate(ranked, start=1):
                f.write(f"{qid} Q0 {doc_id} {rank} {score:.9g} {tag}\n")


def read_run(path):
    run = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 6:
                run.setdefault(parts[0], {})[parts[2]] = float(parts[4])
    return run
