"""pytrec_eval (trec_eval's own code) on a TREC run: the reference for `dsw eval`.

usage: trec_eval.py <BEIR folder> <run file>
Prints JSON {"aggregate": {measure: mean}, "perQuery": {qid: {measure: value}}} for nDCG@10, R@100, AP, P@10,
over the queries that have a relevant judgement and appear in the run.
"""
import json
import sys

import pytrec_eval

import beir

MEASURES = {"ndcg_cut_10": "nDCG@10", "recall_100": "R@100", "map": "AP", "P_10": "P@10"}


def evaluate(qrels, run):
    relevant = {q: j for q, j in qrels.items() if any(g > 0 for g in j.values())}
    evaluator = pytrec_eval.RelevanceEvaluator(relevant, {"ndcg_cut.10", "recall.100", "map", "P.10"})
    per_query = {q: {MEASURES[m]: v for m, v in values.items() if m in MEASURES} for q, values in evaluator.evaluate(run).items()}
    names = list(MEASURES.values())
    aggregate = {n: sum(v[n] for v in per_query.values()) / max(1, len(per_query)) for n in names}
    return {"aggregate": aggregate, "perQuery": per_query}


if __name__ == "__main__":
    print(json.dumps(evaluate(beir.qrels(sys.argv[1]), beir.read_run(sys.argv[2]))))
