helm template demo charts/webapp --namespace demo \
  --post-renderer rollcall \
  --post-renderer-args=--namespace=demo
