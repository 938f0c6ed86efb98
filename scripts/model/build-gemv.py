"""Writes service/index/int8-gemv.onnx: one MatMulInteger, an int8 matrix times an int8 query.

A build tool, run once by hand; its 163-byte output is committed. onnxruntime runs it with SIMD on
every core, about six times faster than a JavaScript scan of the same vectors (see service/index/int8-scan.ts).

    python scripts/model/build-gemv.py service/index/int8-gemv.onnx

Needs onnx (pip install onnx).
"""

import sys

import onnx
from onnx import TensorProto, helper


def main() -> None:
    graph = helper.make_graph(
        [helper.make_node("MatMulInteger", ["matrix", "query"], ["dots"])],
        "int8-gemv",
        [
            helper.make_tensor_value_info("matrix", TensorProto.INT8, ["rows", "dimensions"]),
            helper.make_tensor_value_info("query", TensorProto.INT8, ["dimensions", 1]),
        ],
        [helper.make_tensor_value_info("dots", TensorProto.INT32, ["rows", 1])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save_model(model, sys.argv[1])


if __name__ == "__main__":
    main()
