#!/bin/sh
# The same with the options in a file: a rollcall.dev/v1 Rollcall object (the one
# kustomize takes as a transformer config serves). kpt keeps its structured results,
# one per finding, in RESULTS_DIR/results.yaml.
# Usage: docs/examples/kpt-fn-config.sh DIR CONFIG RESULTS_DIR
set -eu
kpt fn eval "${1:?usage: kpt-fn-config.sh DIR CONFIG RESULTS_DIR}" --exec "rollcall krm" \
  --fn-config "${2:?usage: kpt-fn-config.sh DIR CONFIG RESULTS_DIR}" \
  --results-dir "${3:?usage: kpt-fn-config.sh DIR CONFIG RESULTS_DIR}"
