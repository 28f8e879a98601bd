#!/bin/sh
# Runs rollcall as a KRM function over the manifests in DIR (a kpt package, or any
# folder of YAML files) and writes the result back into the files. The options after
# `--` become the function's ConfigMap functionConfig. rollcall must be on PATH.
# Usage: docs/examples/kpt-eval.sh DIR
set -eu
kpt fn eval "${1:?usage: kpt-eval.sh DIR}" --exec "rollcall krm" -- namespace=shop
