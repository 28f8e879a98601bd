//go:build tools

// Package tools pins what scripts/cluster.sh builds: Kubernetes' own programs at the
// release go.mod requires (k8s.io/kubernetes, its staging modules replaced by their
// published v0.x versions at the same release), and kwok, which plays the nodes.
// Never imported; `go mod tidy` keeps their modules in go.mod and go.sum.
package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
	_ "k8s.io/kubernetes/cmd/kube-scheduler"
	_ "k8s.io/kubernetes/cmd/kubectl"
	_ "sigs.k8s.io/kwok/cmd/kwok"
)
