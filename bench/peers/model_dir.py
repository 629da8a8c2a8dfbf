"""Prints the folder of the sentence-transformers model a Python package carries.

usage: model_dir.py <package> <subfolder>
"""
import importlib.util
import os
import sys

spec = importlib.util.find_spec(sys.argv[1])
if spec is None or spec.origin is None:
    sys.exit(f"Python package {sys.argv[1]} is not installed in this environment")
print(os.path.join(os.path.dirname(spec.origin), sys.argv[2]))
