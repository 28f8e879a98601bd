#!/bin/sh
# Builds a kustomization that lists rollcall as a transformer (rollcall.yaml here)
# with kubectl's built-in kustomize. kubectl runs kustomize's exec plugins only with
# --enable-alpha-plugins, found under $KUSTOMIZE_PLUGIN_HOME; the plugin folder ships
# in integrations/kustomize/plugin. rollcall must be on PATH (or set $ROLLCALL).
# Usage, from the repository root: docs/examples/kustomize/build.sh [DIR]
set -eu
KUSTOMIZE_PLUGIN_HOME="${KUSTOMIZE_PLUGIN_HOME:-$PWD/integrations/kustomize/plugin}" \
  kubectl kustomize --enable-alpha-plugins "${1:-docs/examples/kustomize}"
