rm "$(helm env HELM_PLUGINS)/helm-plugin"   # the link a failed Helm 3 install left behind
