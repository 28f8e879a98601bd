// Command etcd is etcd's own server (go.etcd.io/etcd/server/v3/etcdmain) at the
// version k8s.io/kubernetes requires, built in this module so that it shares its
// dependencies and build cache with the API server.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
