# shellcheck shell=bash
# An Argo CD Application for rollcall's config-management plugin, for the tests that
# run the plugin as argocd-cmp-server does (tests/e2e/argocd_cmp.sh,
# scripts/sidecar-image-check.sh).
#
# application FILE NAME CHART_PATH [PARAMETER_YAML...]: writes an Application for the
# plugin, deploying to namespace prod; each PARAMETER_YAML is one flow mapping.
application() {
  local file="$1" name="$2" path="$3"
  shift 3
  {
    printf 'apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: %s\n' "$name"
    printf 'spec:\n  project: default\n  source:\n    path: %s\n    plugin:\n      name: rollcall-helm\n' "$path"
    if (($# > 0)); then
      printf '      parameters:\n'
      printf '        - %s\n' "$@"
    fi
    printf '  destination:\n    namespace: prod\n'
  } >"$file"
}
