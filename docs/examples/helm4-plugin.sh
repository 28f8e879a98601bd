helm plugin install integrations/helm-plugin   # once; the plugin runs the rollcall on PATH

helm template demo charts/webapp --namespace demo \
  --post-renderer rollcall \
  --post-renderer-args=--namespace=demo \
  --post-renderer-args=--report=rollcall-report.json
