// kubectlread reads files with the code `kubectl apply -f FILE` reads them with:
// k8s.io/cli-runtime's builder (FileVisitor, StreamVisitor over apimachinery's
// YAMLOrJSONDecoder, the unstructured decoder, FlattenListVisitor), local (no
// server: no REST mapping), continuing on errors as kubectl apply does. For each FILE
// it prints, in order, each object kubectl would apply as {"object": VALUE}, then
// {"errors": N} (the errors it collected, flattened). tests/oracle/crosscheck.py
// compares that with `k8sread -objects`, the oracle's restatement (docs/yaml.md,
// "The oracle").
//
// Usage: kubectlread FILE...   (one JSON line {"file": FILE} before each file's lines)
//
// It is a Go module of its own (k8s.io modules at the cluster suite's release, from
// the module proxy or the local module cache), built and run by
// tests/oracle/crosscheck.sh, never by the default build.
package main

import (
	"bufio"
	"encoding/json"
	"os"

	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	"k8s.io/cli-runtime/pkg/resource"
)

func main() {
	writer := bufio.NewWriter(os.Stdout)
	defer writer.Flush()
	emit := func(line map[string]interface{}) {
		encoded, err := json.Marshal(line)
		if err != nil {
			encoded, _ = json.Marshal(map[string]interface{}{"marshal-error": err.Error()})
		}
		writer.Write(encoded)
		writer.WriteByte('\n')
	}
	for _, path := range os.Args[1:] {
		emit(map[string]interface{}{"file": path})
		result := resource.NewLocalBuilder().
			Unstructured().
			ContinueOnError().
			Flatten().
			Path(false, path).
			Do()
		err := result.Visit(func(info *resource.Info, err error) error {
			if err != nil {
				return err
			}
			if u, ok := info.Object.(interface{ UnstructuredContent() map[string]interface{} }); ok {
				emit(map[string]interface{}{"object": u.UnstructuredContent()})
			} else {
				emit(map[string]interface{}{"object": nil})
			}
			return nil
		})
		count := 0
		var messages []string
		if err != nil {
			if agg, ok := err.(utilerrors.Aggregate); ok {
				for _, e := range utilerrors.Flatten(agg).Errors() {
					messages = append(messages, e.Error())
				}
			} else {
				messages = append(messages, err.Error())
			}
			count = len(messages)
		}
		emit(map[string]interface{}{"errors": count, "messages": messages})
	}
}
