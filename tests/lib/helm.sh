# Helpers for the tests that run rollcall under a real Helm (tests/e2e/helm3_render.sh,
# helm4_render.sh). Sourced after tests/lib/tap.sh.
# shellcheck shell=bash

# helm_sandbox DIR: Helm's config, cache, data and plugins under DIR, nothing from the
# user's environment that changes what Helm or rollcall does, and DIR as the working
# directory, so that no .rollcall.yaml above it adds rules or run-once patterns.
helm_sandbox() {
  export HELM_CONFIG_HOME="$1/helm/config" HELM_CACHE_HOME="$1/helm/cache"
  export HELM_DATA_HOME="$1/helm/data"
  unset HELM_PLUGINS HELM_NAMESPACE HELM_BIN ROLLCALL_REPORT ROLLCALL_HMAC_KEY_FILE
  cd "$1" || exit 1
}

# recording_rollcall DIR ROLLCALL: writes DIR/rollcall, a stand-in that runs ROLLCALL
# with its arguments and keeps what Helm handed it in DIR/in.yaml and what it returned
# in DIR/out.yaml; ROLLCALL's exit status is its own.
recording_rollcall() {
  mkdir -p "$1"
  cat >"$1/rollcall" <<SH
#!/bin/sh
cat >"$1/in.yaml"
"$2" "\$@" <"$1/in.yaml" >"$1/out.yaml" || exit
cat "$1/out.yaml"
SH
  chmod +x "$1/rollcall"
}
