helm plugin install integrations/helm3-plugin   # once, with Helm 3; it runs the rollcall on PATH

helm rollcall template demo charts/webapp -n demo
