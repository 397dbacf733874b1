// Command etcd is etcd's own entry point, built from the published server module: etcd's root
// module, which holds the usual main, replaces its sibling modules with relative paths, so
// `go install` refuses it.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
