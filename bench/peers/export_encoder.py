"""Writes a sentence-transformers encoder (BERT, MPNet) in the layout transformers.js loads.

usage: export_encoder.py <sentence-transformers model dir> <out dir>
Writes config.json, tokenizer.json, tokenizer_config.json, special_tokens_map.json, vocab.txt,
onnx/model.onnx (fp32, output last_hidden_state) and onnx/model_quantized.onnx (onnxruntime dynamic uint8, per channel),
then checks both against the PyTorch model and prints the largest differences.
"""
import json
import os
import shutil
import sys

import numpy as np
import onnx
import onnxruntime as ort
import torch
from onnxruntime.quantization import QuantType, quantize_dynamic
from transformers import AutoModel, AutoTokenizer

TOKENIZER_FILES = ["config.json", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "vocab.txt"]
# The graph's inputs, in this order, as far as the tokenizer makes them: BERT (MiniLM) takes all three; MPNet has
# no token_type_ids (its tokenizer makes none and its forward rejects them). transformers.js feeds what the graph names.
ALL_INPUTS = ["input_ids", "attention_mask", "token_type_ids"]


def feed_forward_outputs(path, config):
    """The MatMuls that project the feed-forward block back to the hidden size. Their input is the GELU output,
    whose outliers a per-tensor dynamic uint8 scale cannot hold: quantised, some texts' vectors fall to cosine
    0.97 against fp32; kept in fp32, every text stays above 0.99 (measured on 300 texts per shared collection)."""
    graph = onnx.load(path, load_external_data=False).graph
    shape = [config.intermediate_size, config.hidden_size]
    weights = {i.name for i in graph.initializer if list(i.dims) == shape}
    return [n.name for n in graph.node if n.op_type == "MatMul" and any(x in weights for x in n.input)]


def mpnet_fp32_nodes(path, config):
    """all-mpnet-base-v2 needs more of its graph in fp32 than MiniLM. MPNet-base's hidden states carry a few large
    outlier dimensions, and the LayerNorm outputs that feed the feed-forward input projection (and the embedding
    tables) lose the other dimensions to a per-tensor dynamic uint8 scale. Measured on adi's 117 texts against
    sentence-transformers (onnxruntime CPU, worst / mean cosine): MiniLM's rule alone (feed-forward outputs fp32)
    0.974 in transformers.js (Node), 0.985 in the browser; with the embedding Gathers also fp32 0.981 / 0.993;
    with the feed-forward input projections also fp32 0.9966 / 0.9982 (no text below 0.99). That last is kept:
    only the query/key/value and attention output projections are quantised (335 MB beside 437 MB fp32)."""
    graph = onnx.load(path, load_external_data=False).graph
    dims = {i.name: list(i.dims) for i in graph.initializer}
    shape = [config.hidden_size, config.intermediate_size]
    weights = {name for name, d in dims.items() if d == shape}
    return [n.name for n in graph.node if n.op_type == "MatMul" and any(x in weights for x in n.input)]


def quantize(fp32, quantized, config):
    """Dynamic uint8 per channel, with the nodes each model needs in fp32 (see the two functions above); for MPNet
    only MatMuls are quantised (its embedding Gathers stay fp32)."""
    keep = feed_forward_outputs(fp32, config)
    options = {}
    if config.model_type == "mpnet":
        keep += mpnet_fp32_nodes(fp32, config)
        options["op_types_to_quantize"] = ["MatMul"]
    quantize_dynamic(fp32, quantized, weight_type=QuantType.QUInt8, per_channel=True, nodes_to_exclude=keep, **options)


def export(src: str, out: str) -> None:
    onnx_dir = os.path.join(out, "onnx")
    os.makedirs(onnx_dir, exist_ok=True)
    for name in TOKENIZER_FILES:
        if os.path.exists(os.path.join(src, name)):
            shutil.copyfile(os.path.join(src, name), os.path.join(out, name))

    model = AutoModel.from_pretrained(src).eval()
    tokenizer = AutoTokenizer.from_pretrained(src)
    sample = tokenizer(["a short text", "a somewhat longer text with more words in it"], padding=True, return_tensors="pt")
    fp32 = os.path.join(onnx_dir, "model.onnx")

    inputs = [name for name in ALL_INPUTS if name in sample]
    if inputs[:2] != ["input_ids", "attention_mask"]:
        sys.exit(f"{src}: the tokenizer makes {list(sample.keys())}; expected input_ids and attention_mask")

    class Encoder(torch.nn.Module):
        def __init__(self, bert):
            super().__init__()
            self.bert = bert

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.bert(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids).last_hidden_state

    class EncoderWithoutTokenTypes(torch.nn.Module):
        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, input_ids, attention_mask):
            return self.model(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state

    # torch.export-based exporter: the TorchScript tracer freezes transformers' mask code to the sample's length.
    batch, sequence = torch.export.Dim("batch_size"), torch.export.Dim("sequence_length")
    program = torch.onnx.export(
        Encoder(model) if "token_type_ids" in inputs else EncoderWithoutTokenTypes(model),
        tuple(sample[name] for name in inputs),
        input_names=inputs,
        output_names=["last_hidden_state"],
        dynamic_shapes={name: {0: batch, 1: sequence} for name in inputs},
        opset_version=18,
        dynamo=True,
    )
    program.save(fp32, external_data=False)
    quantized = os.path.join(onnx_dir, "model_quantized.onnx")
    quantize(fp32, quantized, model.config)

    check = tokenizer(["Check the exported graph on a padded batch of a length the trace never saw, please.", "short"],
                      padding=True, return_tensors="pt")
    with torch.no_grad():
        expected = model(**check).last_hidden_state.numpy()
    feeds = {name: check[name].numpy().astype(np.int64) for name in inputs}
    real = check["attention_mask"].numpy().astype(bool)
    for path, limit in ((fp32, 1e-4), (quantized, None)):
        got = ort.InferenceSession(path, providers=["CPUExecutionProvider"]).run(None, feeds)[0]
        worst = float(np.abs(got - expected)[real].max())
        print(f"{os.path.relpath(path, out)}: max |onnx - torch| over real tokens = {worst:.2e}")
        if limit is not None and worst > limit:
            sys.exit(f"{path}: the exported graph differs from the PyTorch model by {worst:.2e} (> {limit})")
    json.dump({"exported_from": os.path.abspath(src), "torch": torch.__version__, "onnxruntime": ort.__version__},
              open(os.path.join(out, "export.json"), "w"), indent=2)


if __name__ == "__main__":
    export(sys.argv[1], sys.argv[2])
