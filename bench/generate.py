#!/usr/bin/env python3
"""Writes a Helm-like rendered stream for the benchmark (bench/run.sh).

  generate.py workloads N   N releases' worth of Secret + ConfigMap + Deployment +
                            Service, each Deployment reading its Secret and
                            ConfigMap through env, envFrom and volumes: every
                            document but the Service is one rollcall reads.
  generate.py crds N        N documents, most bytes in CustomResourceDefinitions (large
                            openAPIV3Schema trees as controller-gen writes them); of
                            each ten documents, three CRDs, a ServiceAccount, Role and
                            RoleBinding (kinds rollcall neither edits nor reads) and
                            one workload as above.

Shapes with little text per record, for the memory target (bench/memory.sh):

  generate.py empty N       N documents of only "---".
  generate.py values N      N values-like documents, "a: 1".
  generate.py configmaps N  N ConfigMaps with a name and nothing else, one line of
                            metadata each: the most sources per byte.
  generate.py wide N        ConfigMaps of 100,000 one-line entries each, N entries in
                            all: the most entries per byte.
  generate.py consumers N   one Secret, then N - 1 Deployments of one flow-style line
                            each that read it through envFrom: the most consumers per
                            byte.
  generate.py references N  one Secret, then Deployments of one flow-style line each
                            reading it through 1,000 envFrom entries, N entries in
                            all: the most references per byte.

The output is deterministic: the same arguments give the same bytes.
"""
import base64
import sys


def b64(text):
    return base64.b64encode(text.encode()).decode()


def source_line(chart, template):
    return f"---\n# Source: {chart}/templates/{template}\n"


def app_header(i, template, api_version, kind, name):
    """A document of release i's chart up to its labels, as Helm renders it."""
    return source_line(f"app{i}", template) + f"""apiVersion: {api_version}
kind: {kind}
metadata:
  name: {name}
  namespace: team-{i % 7}
  labels:
    app.kubernetes.io/name: app{i}
"""


def secret(i):
    return app_header(i, "secret.yaml", "v1", "Secret", f"app{i}-credentials") + f"""\
    app.kubernetes.io/managed-by: Helm
type: Opaque
data:
  username: {b64(f"app{i}-user")}
  password: {b64(f"password-{i * 7919 % 100003}")}
"""


def config_map(i):
    return app_header(i, "configmap.yaml", "v1", "ConfigMap", f"app{i}-config") + f"""\
data:
  LOG_LEVEL: "info"
  MAX_CONNECTIONS: "{100 + i % 50}"
  app.properties: |
    server.port=8080
    cache.size={i % 512}
    upstream.url=http://backend-{i % 13}.svc.cluster.local:9000
"""


def deployment(i):
    return app_header(i, "deployment.yaml", "apps/v1", "Deployment", f"app{i}") + f"""\
spec:
  replicas: 2
  selector:
    matchLabels:
      app.kubernetes.io/name: app{i}
  template:
    metadata:
      labels:
        app.kubernetes.io/name: app{i}
    spec:
      serviceAccountName: app{i}
      containers:
        - name: app
          image: "registry.example.com/app{i}:1.4.2"
          env:
            - name: DB_PASSWORD
              valueFrom:
                secretKeyRef:
                  name: app{i}-credentials
                  key: password
            - name: LOG_LEVEL
              valueFrom:
                configMapKeyRef:
                  name: app{i}-config
                  key: LOG_LEVEL
          envFrom:
            - configMapRef:
                name: app{i}-config
          volumeMounts:
            - name: config
              mountPath: /etc/app
            - name: credentials
              mountPath: /var/run/secrets/app
      volumes:
        - name: config
          configMap:
            name: app{i}-config
            items:
              - key: app.properties
                path: app.properties
        - name: credentials
          secret:
            secretName: app{i}-credentials
"""


def service(i):
    return source_line(f"app{i}", "service.yaml") + f"""apiVersion: v1
kind: Service
metadata:
  name: app{i}
  namespace: team-{i % 7}
spec:
  type: ClusterIP
  ports:
    - port: 80
      targetPort: http
      name: http
  selector:
    app.kubernetes.io/name: app{i}
"""


def crd_property(name, depth, width):
    """An openAPIV3Schema fragment as controller-gen writes them."""
    pad = "  " * depth
    if depth >= 13:
        return (f"{pad}{name}:\n{pad}  description: {name} is a leaf field of the "
                f"resource; see the API reference for its meaning.\n{pad}  type: string\n")
    out = (f"{pad}{name}:\n{pad}  description: {name} holds the settings of this part of the "
           f"resource.\n{pad}  type: object\n{pad}  properties:\n")
    for k in range(width):
        out += crd_property(f"{name}Field{k}", depth + 2, width)
    return out


def crd(i):
    group = f"group{i % 11}.example.com"
    plural = f"widgets{i}"
    schema = crd_property("spec", 7, 4)
    return source_line(f"operator{i % 5}", f"crds/{plural}.yaml") + f"""apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: {plural}.{group}
  annotations:
    controller-gen.kubebuilder.io/version: v0.14.0
spec:
  group: {group}
  names:
    kind: Widget{i}
    listKind: Widget{i}List
    plural: {plural}
    singular: widget{i}
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          description: Widget{i} is the Schema for the {plural} API.
          type: object
          properties:
            apiVersion:
              type: string
            kind:
              type: string
            metadata:
              type: object
{schema}      subresources:
        status: {{}}
"""


def rbac(i):
    return source_line(f"operator{i % 5}", "rbac.yaml") + f"""apiVersion: v1
kind: ServiceAccount
metadata:
  name: operator{i}
  namespace: operators
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: operator{i}
  namespace: operators
rules:
  - apiGroups: ["group{i % 11}.example.com"]
    resources: ["widgets{i}", "widgets{i}/status"]
    verbs: ["get", "list", "watch", "update", "patch"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: operator{i}
  namespace: operators
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: operator{i}
subjects:
  - kind: ServiceAccount
    name: operator{i}
    namespace: operators
"""


def workloads(n):
    for i in range(n // 4):
        yield secret(i)
        yield config_map(i)
        yield deployment(i)
        yield service(i)


def crds(n):
    # Per group of ten documents: three CRDs (about 95% of the bytes), a
    # ServiceAccount, Role and RoleBinding, and one workload (Secret, ConfigMap,
    # Deployment, Service).
    i = 0
    emitted = 0
    while emitted < n:
        yield from (crd(3 * i), crd(3 * i + 1), crd(3 * i + 2))
        yield rbac(i)
        yield from (secret(i), config_map(i), deployment(i), service(i))
        emitted += 10
        i += 1


def empty(n):
    return ("---\n" for _ in range(n))


def values(n):
    return ("---\na: 1\n" for _ in range(n))


def configmaps(n):
    return (f"---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: c{i}}}\n" for i in range(n))


def wide(n):
    per_map = 100_000
    for m in range((n + per_map - 1) // per_map):
        entries = range(m * per_map, min(n, (m + 1) * per_map))
        yield (f"---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: wide{m}\ndata:\n" +
               "".join(f"  k{i:07d}: v\n" for i in entries))


def consumers(n):
    yield "---\napiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {k: v}\n"
    for i in range(n - 1):
        yield (f"---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: d{i}}}\n"
               "spec: {template: {spec: {containers: [{name: a, envFrom: [{secretRef: {name: s}}]}]}}}\n")


def references(n):
    per_deployment = 1_000
    yield "---\napiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {k: v}\n"
    for d in range((n + per_deployment - 1) // per_deployment):
        entries = min(per_deployment, n - d * per_deployment)
        yield (f"---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: d{d}}}\n"
               "spec: {template: {spec: {containers: [{name: a, envFrom: [" +
               ", ".join(["{secretRef: {name: s}}"] * entries) + "]}]}}}\n")


SHAPES = {"workloads": workloads, "crds": crds, "empty": empty, "values": values,
          "configmaps": configmaps, "wide": wide, "consumers": consumers,
          "references": references}


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in SHAPES:
        sys.exit("usage: generate.py " + "|".join(SHAPES) + " N")
    out = sys.stdout
    for doc in SHAPES[sys.argv[1]](int(sys.argv[2])):
        out.write(doc)


if __name__ == "__main__":
    main()
