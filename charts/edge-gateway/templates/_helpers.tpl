{{/* Labels shared by every object of the release. */}}
{{- define "edge-gateway.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/* Labels that select the gateway pods; must stay stable across upgrades (the
     Deployment's spec.selector is immutable). */}}
{{- define "edge-gateway.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: gateway
{{- end }}

{{/* Name of the bootstrap Job: one name per token, so a new token runs a new Job. */}}
{{- define "edge-gateway.bootstrapJobName" -}}
{{ .Release.Name }}-boot-{{ .Values.bootstrap.tls.token | sha256sum | trunc 8 }}
{{- end }}

{{/* Secret the bootstrap Job writes: the staging Secret, or the live one. */}}
{{- define "edge-gateway.bootstrapTarget" -}}
{{- if .Values.bootstrap.stageSecret -}}
{{ .Release.Name }}-client-next
{{- else -}}
{{ .Release.Name }}-client-tls
{{- end }}
{{- end }}
