"""Writes the ONNX graph of all-MiniLM-L6-v2 whose weights stay in the canonical model.safetensors.

A build tool, not part of the product, and run once by hand: its output,
service/embedding/minilm-graph.onnx, is committed. It holds the BERT encoder and
sentence-transformers' mean pooling and normalisation as ONNX operators, and no weights:
every initializer is external data that points at its tensor's byte range inside
model.safetensors (sentence-transformers/all-MiniLM-L6-v2, SHA-256 53aa5117…), which
onnxruntime reads from the graph's own folder. So the weights that run are exactly the
published ones, and the graph is checked against scripts/model/reference-embeddings.py.

    python scripts/model/build-graph.py MODEL_DIR service/embedding/minilm-graph.onnx

Needs onnx (pip install onnx).
"""

import json
import struct
import sys
from pathlib import Path

import onnx
from onnx import TensorProto, helper

WEIGHTS_FILE = "model.safetensors"
ONNX_TYPES = {"F32": TensorProto.FLOAT, "I64": TensorProto.INT64}


def external_initializers(path: Path) -> dict[str, TensorProto]:
    with path.open("rb") as stream:
        (header_length,) = struct.unpack("<Q", stream.read(8))
        header = json.loads(stream.read(header_length))
    base = 8 + header_length
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        start, end = info["data_offsets"]
        tensor = TensorProto()
        tensor.name = name.removeprefix("bert.")
        tensor.data_type = ONNX_TYPES[info["dtype"]]
        tensor.dims.extend(info["shape"])
        tensor.data_location = TensorProto.EXTERNAL
        for key, value in (("location", WEIGHTS_FILE), ("offset", str(base + start)), ("length", str(end - start))):
            entry = tensor.external_data.add()
            entry.key = key
            entry.value = value
        tensors[tensor.name] = tensor
    return tensors


class Graph:
    def __init__(self) -> None:
        self.nodes: list[onnx.NodeProto] = []
        self.constants: list[TensorProto] = []
        self.count = 0

    def op(self, op_type: str, inputs: list[str], **attributes: object) -> str:
        self.count += 1
        output = f"{op_type.lower()}_{self.count}"
        self.nodes.append(helper.make_node(op_type, inputs, [output], **attributes))
        return output

    def constant(self, name: str, values: list[int] | list[float], data_type: int = TensorProto.INT64) -> str:
        self.constants.append(helper.make_tensor(name, data_type, [len(values)], values))
        return name


def main() -> None:
    model_dir = Path(sys.argv[1])
    config = json.loads((model_dir / "config.json").read_text())
    weights = external_initializers(model_dir / WEIGHTS_FILE)
    hidden = config["hidden_size"]
    heads = config["num_attention_heads"]
    size = hidden // heads
    eps = config["layer_norm_eps"]
    g = Graph()
    used: set[str] = set()

    def w(name: str) -> str:
        used.add(name)
        return name

    def linear(x: str, prefix: str) -> str:
        weight_t = g.op("Transpose", [w(prefix + ".weight")], perm=[1, 0])
        return g.op("Add", [g.op("MatMul", [x, weight_t]), w(prefix + ".bias")])

    def norm(x: str, prefix: str) -> str:
        return g.op("LayerNormalization", [x, w(prefix + ".weight"), w(prefix + ".bias")], axis=-1, epsilon=eps)

    split_heads = g.constant("split_heads", [0, 0, heads, size])
    join_heads = g.constant("join_heads", [0, 0, hidden])
    scale = g.constant("scale", [1.0 / size**0.5], TensorProto.FLOAT)
    one = g.constant("one", [1.0], TensorProto.FLOAT)
    masked = g.constant("masked", [-1e4], TensorProto.FLOAT)
    axes_1_2 = g.constant("axes_1_2", [1, 2])
    axis_1 = g.constant("axis_1", [1])
    axis_2 = g.constant("axis_2", [2])
    start = g.constant("start", [0])

    seq_len = g.op("Gather", [g.op("Shape", ["input_ids"]), axis_1], axis=0)
    positions = g.op("Slice", [w("embeddings.position_ids"), start, seq_len, axis_1])
    x = g.op("Add", [
        g.op("Add", [
            g.op("Gather", [w("embeddings.word_embeddings.weight"), "input_ids"], axis=0),
            g.op("Gather", [w("embeddings.position_embeddings.weight"), positions], axis=0),
        ]),
        g.op("Gather", [w("embeddings.token_type_embeddings.weight"), "token_type_ids"], axis=0),
    ])
    x = norm(x, "embeddings.LayerNorm")

    mask = g.op("Cast", ["attention_mask"], to=TensorProto.FLOAT)
    bias = g.op("Mul", [g.op("Sub", [one, g.op("Unsqueeze", [mask, axes_1_2])]), masked])

    for i in range(config["num_hidden_layers"]):
        p = f"encoder.layer.{i}."

        def heads_of(name: str, perm: list[int]) -> str:
            return g.op("Transpose", [g.op("Reshape", [linear(x, p + name), split_heads])], perm=perm)

        q = heads_of("attention.self.query", [0, 2, 1, 3])
        k = heads_of("attention.self.key", [0, 2, 3, 1])
        v = heads_of("attention.self.value", [0, 2, 1, 3])
        scores = g.op("Add", [g.op("Mul", [g.op("MatMul", [q, k]), scale]), bias])
        context = g.op("MatMul", [g.op("Softmax", [scores], axis=-1), v])
        context = g.op("Reshape", [g.op("Transpose", [context], perm=[0, 2, 1, 3]), join_heads])
        x = norm(g.op("Add", [linear(context, p + "attention.output.dense"), x]), p + "attention.output.LayerNorm")
        inner = linear(x, p + "intermediate.dense")
        inner = g.op("Mul", [g.op("Mul", [inner, g.constant(f"half_{i}", [0.5], TensorProto.FLOAT)]),
                             g.op("Add", [g.op("Erf", [g.op("Div", [inner, g.constant(f"sqrt2_{i}", [2**0.5], TensorProto.FLOAT)])]), one])])
        x = norm(g.op("Add", [linear(inner, p + "output.dense"), x]), p + "output.LayerNorm")

    token_mask = g.op("Unsqueeze", [mask, axis_2])
    summed = g.op("ReduceSum", [g.op("Mul", [x, token_mask]), axis_1], keepdims=0)
    counts = g.op("Max", [g.op("ReduceSum", [token_mask, axis_1], keepdims=0), g.constant("tiny", [1e-9], TensorProto.FLOAT)])
    pooled = g.op("Div", [summed, counts])
    length = g.op("Max", [g.op("ReduceL2", [pooled, g.constant("last", [-1])], keepdims=1), g.constant("eps", [1e-12], TensorProto.FLOAT)])
    g.nodes.append(helper.make_node("Div", [pooled, length], ["sentence_embedding"]))

    batch_by_tokens = ["batch", "tokens"]
    graph = helper.make_graph(
        g.nodes,
        "all-MiniLM-L6-v2",
        [helper.make_tensor_value_info(name, TensorProto.INT64, batch_by_tokens) for name in ("input_ids", "attention_mask", "token_type_ids")],
        [helper.make_tensor_value_info("sentence_embedding", TensorProto.FLOAT, ["batch", hidden])],
        initializer=[weights[name] for name in sorted(used)] + g.constants,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], producer_name="cited scripts/model/build-graph.py")
    model.ir_version = 8
    onnx.save_model(model, sys.argv[2])


if __name__ == "__main__":
    main()
