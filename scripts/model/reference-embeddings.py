"""Reference embeddings of all-MiniLM-L6-v2, computed from its safetensors weights with numpy.

A test tool, not part of the product: it is the independent check that the ONNX graph the
service runs is the model. It reads model.safetensors and tokenizer.json from MODEL_DIR,
tokenizes with Hugging Face's Rust `tokenizers`, runs BERT's forward pass in float64,
mean-pools over the attention mask and normalises, as sentence-transformers does.

    python scripts/model/reference-embeddings.py MODEL_DIR > service/embedding/reference-embeddings.json

Needs numpy and tokenizers (pip install numpy tokenizers).
"""

import json
import math
import struct
import sys
from pathlib import Path

import numpy as np
from tokenizers import Tokenizer

SENTENCES = [
    "This is an example sentence",
    "Each sentence is converted",
    "A man is eating food.",
    "A man is eating a piece of bread.",
    "The girl is carrying a baby.",
    "A man is riding a horse.",
    "To cap the log files, set max_size in the configuration.",
]

DTYPES = {"F32": np.float32, "F16": np.float16, "I64": np.int64}


def read_safetensors(path: Path) -> dict[str, np.ndarray]:
    data = path.read_bytes()
    (header_length,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + header_length])
    base = 8 + header_length
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        start, end = info["data_offsets"]
        array = np.frombuffer(data[base + start : base + end], dtype=DTYPES[info["dtype"]])
        tensors[name.removeprefix("bert.")] = array.reshape(info["shape"]).astype(np.float64)
    return tensors


def layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    variance = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(variance + eps) * weight + bias


def gelu(x: np.ndarray) -> np.ndarray:
    erf = np.vectorize(math.erf)
    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


def embed(w: dict[str, np.ndarray], config: dict, ids: list[int]) -> np.ndarray:
    heads = config["num_attention_heads"]
    eps = config["layer_norm_eps"]
    n = len(ids)
    x = (
        w["embeddings.word_embeddings.weight"][ids]
        + w["embeddings.position_embeddings.weight"][:n]
        + w["embeddings.token_type_embeddings.weight"][[0] * n]
    )
    x = layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], eps)
    size = x.shape[1] // heads
    for i in range(config["num_hidden_layers"]):
        p = f"encoder.layer.{i}."

        def linear(name: str, h: np.ndarray) -> np.ndarray:
            return h @ w[p + name + ".weight"].T + w[p + name + ".bias"]

        q = linear("attention.self.query", x).reshape(n, heads, size).transpose(1, 0, 2)
        k = linear("attention.self.key", x).reshape(n, heads, size).transpose(1, 0, 2)
        v = linear("attention.self.value", x).reshape(n, heads, size).transpose(1, 0, 2)
        scores = q @ k.transpose(0, 2, 1) / math.sqrt(size)
        scores = np.exp(scores - scores.max(-1, keepdims=True))
        scores /= scores.sum(-1, keepdims=True)
        context = (scores @ v).transpose(1, 0, 2).reshape(n, heads * size)
        x = layer_norm(
            linear("attention.output.dense", context) + x,
            w[p + "attention.output.LayerNorm.weight"],
            w[p + "attention.output.LayerNorm.bias"],
            eps,
        )
        hidden = gelu(linear("intermediate.dense", x))
        x = layer_norm(
            linear("output.dense", hidden) + x,
            w[p + "output.LayerNorm.weight"],
            w[p + "output.LayerNorm.bias"],
            eps,
        )
    pooled = x.mean(0)
    return pooled / np.linalg.norm(pooled)


def main() -> None:
    model_dir = Path(sys.argv[1])
    config = json.loads((model_dir / "config.json").read_text())
    weights = read_safetensors(model_dir / "model.safetensors")
    tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.enable_truncation(256)
    rows = []
    for sentence in SENTENCES:
        ids = tokenizer.encode(sentence).ids
        vector = embed(weights, config, ids)
        rows.append({"text": sentence, "ids": ids, "embedding": [round(float(v), 7) for v in vector]})
    json.dump({"model": "sentence-transformers/all-MiniLM-L6-v2", "sentences": rows}, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
