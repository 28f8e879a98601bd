helm plugin install integrations/helm4-cli-plugin   # once, beside integrations/helm-plugin

helm rollcall template demo charts/webapp -n demo
