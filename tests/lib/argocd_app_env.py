"""The environment argocd-cmp-server gives a config-management plugin's generate
command for an Application (as Argo CD 2.x/3.x derive it: ARGOCD_APP_*, ARGOCD_ENV_*
from spec.source.plugin.env, PARAM_* from its parameters), for the tests that run the
plugin the way the sidecar does (tests/e2e/argocd_cmp.sh, scripts/sidecar-image-check.sh).
Empty values are left out, as the CMP server does."""
import json
import re


def escaped(name):
    return re.sub("[^A-Z0-9_]", "_", name.upper())


def plugin_environment(app):
    source = app["spec"]["source"]
    plugin = source.get("plugin") or {}
    sent = {
        "ARGOCD_APP_NAME": app["metadata"]["name"],
        "ARGOCD_APP_NAMESPACE": app["spec"]["destination"].get("namespace", ""),
        "ARGOCD_APP_PROJECT_NAME": app["spec"].get("project", ""),
        "ARGOCD_APP_REVISION": "0123456789abcdef0123456789abcdef01234567",
        "ARGOCD_APP_REVISION_SHORT": "0123456",
        "ARGOCD_APP_REVISION_SHORT_8": "01234567",
        "ARGOCD_APP_SOURCE_PATH": source.get("path", ""),
        "ARGOCD_APP_SOURCE_REPO_URL": source.get("repoURL", ""),
        "ARGOCD_APP_SOURCE_TARGET_REVISION": source.get("targetRevision", ""),
        "KUBE_VERSION": "1.32.0",
        "KUBE_API_VERSIONS": "v1,apps/v1,batch/v1",
    }
    for entry in plugin.get("env") or []:
        sent["ARGOCD_ENV_" + entry["name"]] = entry["value"]
    parameters = plugin.get("parameters") or []
    sent["ARGOCD_APP_PARAMETERS"] = json.dumps(parameters, separators=(",", ":"))
    for p in parameters:
        base = "PARAM_" + escaped(p["name"])
        if "string" in p:
            sent[base] = p["string"]
        for key, value in (p.get("map") or {}).items():
            sent[base + "_" + escaped(key)] = value
        for index, value in enumerate(p.get("array") or []):
            sent["%s_%d" % (base, index)] = value
    return {k: v for k, v in sent.items() if v != ""}
