"""Writes a Qwen2 instruct GGUF as a transformers.js text-generation model (ONNX with past key values).

usage: export_browser_llm.py <model.gguf | transformers model dir> <out dir>
transformers reads the GGUF (dequantised to fp32 torch weights, tokenizer and chat template from its metadata).
Writes config.json, generation_config.json, tokenizer.json, tokenizer_config.json (with the chat template),
onnx/model.onnx + onnx/model.onnx_data (fp32) and onnx/model_q4.onnx (4-bit weights, MatMulNBits, block 32), in
the layout transformers.js 4 loads for decoder-only models: inputs input_ids, attention_mask, position_ids,
past_key_values.<i>.key/value; outputs logits, present.<i>.key/value. Checks both graphs against transformers and
writes export.json with the greedy reference tokens of a chat prompt (the Node fidelity test compares against them).
"""
import json
import os
import shutil
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
import torch
from onnxruntime.quantization import matmul_nbits_quantizer as nbits
from transformers import AutoModelForCausalLM, AutoTokenizer

# The prompt of the greedy reference (short: the browser check generates from it too).
REFERENCE_MESSAGES = [{"role": "user", "content": "Name three uses of a tide mill, one line each."}]
REFERENCE_TOKENS = 24


def load(source):
    if source.endswith(".gguf"):
        folder, name = os.path.split(os.path.abspath(source))
        tokenizer = AutoTokenizer.from_pretrained(folder, gguf_file=name)
        model = AutoModelForCausalLM.from_pretrained(folder, gguf_file=name, dtype=torch.float32, attn_implementation="eager")
        # The weights are dequantised; what is written is a plain fp32 model.
        del model.config.quantization_config
        model.hf_quantizer = None
    else:
        tokenizer = AutoTokenizer.from_pretrained(source)
        model = AutoModelForCausalLM.from_pretrained(source, dtype=torch.float32, attn_implementation="eager")
    if model.config.model_type != "qwen2":
        sys.exit(f"{source}: model_type {model.config.model_type}; this exporter writes Qwen2 models only")
    return tokenizer, model.eval()


class Decoder(torch.nn.Module):
    """Qwen2's forward written out over the transformers model's weights, with the cache as plain tensors. Written
    out (rather than calling the transformers model) so the graph has no mask or cache code that the tracer would
    freeze to the sample's lengths: the causal mask comes from the cache length, the padding mask from
    attention_mask, and the rotary angles from position_ids."""

    def __init__(self, model):
        super().__init__()
        self.m = model.model
        self.lm_head = model.lm_head
        c = model.config
        self.heads = c.num_attention_heads
        self.kv_heads = c.num_key_value_heads
        self.head_dim = getattr(c, "head_dim", None) or c.hidden_size // c.num_attention_heads
        self.eps = c.rms_norm_eps
        theta = (getattr(c, "rope_parameters", None) or {}).get("rope_theta") or getattr(c, "rope_theta")
        inv_freq = 1.0 / (theta ** (torch.arange(0, self.head_dim, 2, dtype=torch.int64).float() / self.head_dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    def norm(self, x, weight):
        return weight * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps))

    @staticmethod
    def rotate_half(x):
        half = x.shape[-1] // 2
        return torch.cat((-x[..., half:], x[..., :half]), dim=-1)

    def forward(self, input_ids, attention_mask, position_ids, *past):
        b, s = input_ids.shape
        x = self.m.embed_tokens(input_ids)
        freqs = position_ids[:, :, None].float() * self.inv_freq[None, None, :]
        emb = torch.cat((freqs, freqs), dim=-1)
        cos, sin = emb.cos()[:, None], emb.sin()[:, None]
        past_len = past[0].shape[2]
        total = past_len + s
        # Query i sits at cache index past_len + i and sees keys 0..past_len + i that the attention mask keeps.
        q_idx = torch.arange(s, device=x.device)[:, None] + past_len
        k_idx = torch.arange(total, device=x.device)[None, :]
        visible = (k_idx <= q_idx)[None, None] & attention_mask[:, None, None, :].bool()
        bias = torch.where(visible, torch.zeros((), dtype=x.dtype), torch.full((), torch.finfo(x.dtype).min, dtype=x.dtype))
        presents = []
        for i, layer in enumerate(self.m.layers):
            a = layer.self_attn
            h = self.norm(x, layer.input_layernorm.weight)
            q = a.q_proj(h).view(b, s, self.heads, self.head_dim).transpose(1, 2)
            k = a.k_proj(h).view(b, s, self.kv_heads, self.head_dim).transpose(1, 2)
            v = a.v_proj(h).view(b, s, self.kv_heads, self.head_dim).transpose(1, 2)
            q = q * cos + self.rotate_half(q) * sin
            k = k * cos + self.rotate_half(k) * sin
            k = torch.cat((past[2 * i], k), dim=2)
            v = torch.cat((past[2 * i + 1], v), dim=2)
            presents += [k, v]
            group = self.heads // self.kv_heads
            kk = k[:, :, None].expand(b, self.kv_heads, group, total, self.head_dim).reshape(b, self.heads, total, self.head_dim)
            vv = v[:, :, None].expand(b, self.kv_heads, group, total, self.head_dim).reshape(b, self.heads, total, self.head_dim)
            scores = torch.matmul(q, kk.transpose(2, 3)) / (self.head_dim ** 0.5) + bias
            attn = torch.matmul(torch.softmax(scores, dim=-1), vv)
            x = x + a.o_proj(attn.transpose(1, 2).reshape(b, s, self.heads * self.head_dim))
            h = self.norm(x, layer.post_attention_layernorm.weight)
            mlp = layer.mlp
            x = x + mlp.down_proj(torch.nn.functional.silu(mlp.gate_proj(h)) * mlp.up_proj(h))
        logits = self.lm_head(self.norm(x, self.m.norm.weight))
        return (logits, *presents)


def io_names(layers):
    past = [f"past_key_values.{i}.{kv}" for i in range(layers) for kv in ("key", "value")]
    present = [f"present.{i}.{kv}" for i in range(layers) for kv in ("key", "value")]
    return ["input_ids", "attention_mask", "position_ids", *past], ["logits", *present]


def empty_past(decoder, layers, batch, length=0):
    return [torch.zeros(batch, decoder.kv_heads, length, decoder.head_dim) for _ in range(2 * layers)]


def export_fp32(decoder, layers, onnx_dir):
    inputs, outputs = io_names(layers)
    ids = torch.tensor([[9707, 11, 1879, 0]], dtype=torch.int64)
    past = [torch.randn(1, decoder.kv_heads, 3, decoder.head_dim) for _ in range(2 * layers)]
    sample = (ids, torch.ones(1, 7, dtype=torch.int64), torch.arange(3, 7)[None], *past)
    dynamic = {"input_ids": {0: "batch_size", 1: "sequence_length"}, "attention_mask": {0: "batch_size", 1: "total_sequence_length"},
               "position_ids": {0: "batch_size", 1: "sequence_length"}, "logits": {0: "batch_size", 1: "sequence_length"}}
    for name in inputs[3:]:
        dynamic[name] = {0: "batch_size", 2: "past_sequence_length"}
    for name in outputs[1:]:
        dynamic[name] = {0: "batch_size", 2: "total_sequence_length"}
    with tempfile.TemporaryDirectory(dir=onnx_dir) as tmp:
        raw = os.path.join(tmp, "model.onnx")
        # The TorchScript tracer: the forward above has no Python branches on lengths, so its trace is general
        # (checked below on lengths and a padded batch the trace never saw).
        with torch.no_grad():
            torch.onnx.export(decoder, sample, raw, input_names=inputs, output_names=outputs, dynamic_axes=dynamic,
                              opset_version=17, dynamo=False, do_constant_folding=True)
        model = onnx.load(raw)
        target = os.path.join(onnx_dir, "model.onnx")
        onnx.save_model(model, target, save_as_external_data=True, all_tensors_to_one_file=True, location="model.onnx_data", size_threshold=1024)
    return target


def quantize_q4(fp32, target):
    """Weight-only 4-bit (MatMulNBits, block 32, asymmetric) for every MatMul; the embedding Gather stays fp32."""
    model = onnx.load(fp32)
    quantizer = nbits.MatMulNBitsQuantizer(model, bits=4, block_size=32, is_symmetric=False, op_types_to_quantize=("MatMul",))
    quantizer.process()
    quantizer.model.save_model_to_file(target, use_external_data_format=False)


def check(path, decoder, model, layers, tokenizer, limit):
    """Logits of a padded two-row batch (prefill) and one cached step, against the transformers model."""
    session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    texts = ["Check the exported graph on a padded batch of a length the trace never saw.", "short"]
    tokenizer.padding_side = "left"
    batch = tokenizer(texts, padding=True, return_tensors="pt")
    mask = batch["attention_mask"]
    positions = (mask.cumsum(-1) - 1).clamp(min=0)
    feeds = {"input_ids": batch["input_ids"].numpy(), "attention_mask": mask.numpy(), "position_ids": positions.numpy()}
    names = io_names(layers)[0][3:]
    for name, t in zip(names, empty_past(decoder, layers, 2)):
        feeds[name] = t.numpy()
    got = session.run(None, feeds)
    with torch.no_grad():
        ref = model(input_ids=batch["input_ids"], attention_mask=mask, position_ids=positions)
    real = mask.numpy().astype(bool)
    worst = float(np.abs(got[0] - ref.logits.numpy())[real].max())
    # One cached step: the next token of each row.
    step = np.argmax(got[0][:, -1], axis=-1)[:, None].astype(np.int64)
    step_feeds = {"input_ids": step, "attention_mask": np.concatenate([mask.numpy(), np.ones((2, 1), np.int64)], axis=1),
                  "position_ids": positions.numpy()[:, -1:] + 1}
    for name, t in zip(names, got[1:]):
        step_feeds[name] = t
    got_step = session.run(None, step_feeds)[0]
    with torch.no_grad():
        full_ids = torch.cat([batch["input_ids"], torch.from_numpy(step)], dim=1)
        full_mask = torch.from_numpy(step_feeds["attention_mask"])
        ref_step = model(input_ids=full_ids, attention_mask=full_mask, position_ids=(full_mask.cumsum(-1) - 1).clamp(min=0)).logits[:, -1:]
    worst_step = float(np.abs(got_step - ref_step.numpy()).max())
    same_top = bool((np.argmax(got_step[:, -1], -1) == ref_step[:, -1].argmax(-1).numpy()).all())
    print(f"{os.path.basename(path)}: max |onnx - torch| logits: prefill {worst:.2e}, cached step {worst_step:.2e}; next token same: {same_top}", flush=True)
    if limit is not None and max(worst, worst_step) > limit:
        sys.exit(f"{path}: the exported graph differs from the transformers model by {max(worst, worst_step):.2e} (> {limit})")
    return {"prefill_max_abs_logit_diff": worst, "cached_step_max_abs_logit_diff": worst_step, "cached_step_same_argmax": same_top}


def reference(model, tokenizer):
    ids = tokenizer.apply_chat_template(REFERENCE_MESSAGES, add_generation_prompt=True, return_tensors="pt", return_dict=True)
    with torch.no_grad():
        out = model.generate(**ids, max_new_tokens=REFERENCE_TOKENS, do_sample=False)
    new = out[0, ids["input_ids"].shape[1]:].tolist()
    return {"messages": REFERENCE_MESSAGES, "prompt_ids": ids["input_ids"][0].tolist(), "greedy_ids": new,
            "greedy_text": tokenizer.decode(new, skip_special_tokens=True)}


def write_tokenizer(tokenizer, out):
    with tempfile.TemporaryDirectory() as tmp:
        tokenizer.save_pretrained(tmp)
        shutil.copyfile(os.path.join(tmp, "tokenizer.json"), os.path.join(out, "tokenizer.json"))
        config = json.load(open(os.path.join(tmp, "tokenizer_config.json")))
    # transformers.js reads the chat template from tokenizer_config.json (transformers 5 writes chat_template.jinja).
    config["chat_template"] = tokenizer.chat_template
    for key in ("is_local", "local_files_only", "backend"):
        config.pop(key, None)
    json.dump(config, open(os.path.join(out, "tokenizer_config.json"), "w"), indent=2)


def export(source, out):
    torch.manual_seed(0)
    onnx_dir = os.path.join(out, "onnx")
    os.makedirs(onnx_dir, exist_ok=True)
    tokenizer, model = load(source)
    layers = model.config.num_hidden_layers
    config = model.config.to_dict()
    config.pop("quantization_config", None)
    config["transformers.js_config"] = {"use_external_data_format": {"model.onnx": 1}}
    json.dump(config, open(os.path.join(out, "config.json"), "w"), indent=2)
    model.generation_config.to_json_file(os.path.join(out, "generation_config.json"))
    write_tokenizer(tokenizer, out)

    decoder = Decoder(model).eval()
    fp32 = export_fp32(decoder, layers, onnx_dir)
    checks = {"model.onnx": check(fp32, decoder, model, layers, tokenizer, 1e-3)}
    q4 = os.path.join(onnx_dir, "model_q4.onnx")
    quantize_q4(fp32, q4)
    checks["model_q4.onnx"] = check(q4, decoder, model, layers, tokenizer, None)
    record = {"exported_from": os.path.basename(source), "torch": torch.__version__, "onnxruntime": ort.__version__,
              "checks": checks, "reference": reference(model, tokenizer)}
    print(f"greedy reference: {record['reference']['greedy_text']!r}", flush=True)
    json.dump(record, open(os.path.join(out, "export.json"), "w"), indent=2)


if __name__ == "__main__":
    export(sys.argv[1], sys.argv[2])
