# Once: the post-renderer plugin in a plugin folder of Helm 4's own, which Helm 3 never reads
plugins4="$(helm env HELM_DATA_HOME)/plugins-helm4"
mkdir -p "$plugins4"
ln -s "$PWD/integrations/helm-plugin" "$plugins4/rollcall"

# Each Helm 4 command that names the plugin: Helm's plugin folder, then that one
HELM_PLUGINS="$(helm env HELM_PLUGINS):$plugins4" \
  helm template demo charts/webapp --namespace demo \
  --post-renderer rollcall \
  --post-renderer-args=--namespace=demo
