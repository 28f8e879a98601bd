// k8sread prints what Kubernetes reads in YAML streams, in the oracle's canonical
// form (docs/yaml.md, "The oracle"): one JSON object per line for every object,
// every reference of a pod template to a Secret or ConfigMap, and a SHA-256 of
// every key of every Secret and ConfigMap. Never a value.
//
// It reads with the code kubectl and Helm read with: a stream is cut into chunks
// as k8s.io/apimachinery's YAMLReader cuts it (restated below: apimachinery is not
// packaged in Debian), each chunk goes through sigs.k8s.io/yaml's YAMLToJSON (go-yaml
// v2: YAML 1.1, merge keys), Lists are expanded as the unstructured decoder expands
// them, and the fields the canonical reading needs are decoded by encoding/json
// into typed fields as the API server decodes them, so a number where a string is
// wanted is the error Kubernetes gives.
//
// Usage: k8sread [-annotations] FILE... (or the files one a line on stdin when none
// is given). With -annotations it also prints the rollcall.dev/ annotations of
// objects and pod templates (for the check of render's output).
//
// k8sread -documents FILE prints instead, in stream order, one JSON line per piece of
// the stream: {"document": VALUE}, the piece as sigs.k8s.io/yaml hands it to
// kubectl and Helm (a List not expanded, null for an empty piece), or {"error":
// MESSAGE} for a piece Kubernetes refuses; {"error": …} last when the split fails.
// The tests read rendered streams with it (tests/lib/k8s_json.py) rather than with
// another YAML library.
package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"
)

// ---- splitting, as k8s.io/apimachinery/pkg/util/yaml's YAMLReader.Read ----

// splitStream returns the chunks of a stream: a line that starts with "---" and
// has nothing after it but blanks or a comment ends a chunk; any other text after
// "---" at the start of a line is an error, as in apimachinery.
func splitStream(data []byte) ([][]byte, error) {
	reader := bufio.NewReader(bytes.NewReader(data))
	var chunks [][]byte
	var buffer bytes.Buffer
	for {
		line, err := readLine(reader)
		if err != nil && err != io.EOF {
			return chunks, err
		}
		if bytes.HasPrefix(line, []byte("---")) {
			trimmed := strings.TrimSpace(string(line[3:]))
			if len(trimmed) > 0 && trimmed[0] != '#' {
				return chunks, errors.New("invalid Yaml document separator")
			}
			if buffer.Len() != 0 {
				chunks = append(chunks, append([]byte(nil), buffer.Bytes()...))
				buffer.Reset()
			}
			if err == io.EOF {
				return chunks, nil
			}
			continue
		}
		if err == io.EOF {
			if buffer.Len() != 0 {
				chunks = append(chunks, append([]byte(nil), buffer.Bytes()...))
			}
			return chunks, nil
		}
		buffer.Write(line)
	}
}

// readLine is apimachinery's LineReader.Read: one line, with "\n" added.
func readLine(reader *bufio.Reader) ([]byte, error) {
	var buffer bytes.Buffer
	var err error
	isPrefix := true
	for isPrefix && err == nil {
		var line []byte
		line, isPrefix, err = reader.ReadLine()
		buffer.Write(line)
	}
	buffer.WriteByte('\n')
	return buffer.Bytes(), err
}

// ---- output ----

type output struct {
	file  string
	lines []string
}

func (o *output) emit(fields map[string]interface{}) {
	fields["file"] = o.file
	b, err := json.Marshal(fields)
	if err != nil {
		panic(err)
	}
	o.lines = append(o.lines, string(b))
}

func (o *output) fail(object string, message string) {
	f := map[string]interface{}{"type": "error", "message": message}
	if object != "" {
		f["object"] = object
	}
	o.emit(f)
}

// go-yaml quotes the offending text in some messages (`…`): never print a value.
var quoted = regexp.MustCompile("`[^`]*`")

func scrub(message string) string { return quoted.ReplaceAllString(message, "…") }

// ---- typed decoding ----

// typeError is a field whose JSON type is not the Go type Kubernetes decodes it into.
type typeError struct{ message string }

func (e *typeError) Error() string { return e.message }

// decodeTyped decodes `value` (found at `path` in an object of kind `kind`) into
// `target` with encoding/json, as the API server does, and words a type error as
// json.Unmarshal into the Kubernetes type words it.
func decodeTyped(kind string, path string, value interface{}, target interface{}) error {
	raw, err := json.Marshal(caseSensitive(value))
	if err != nil {
		return err
	}
	err = json.Unmarshal(raw, target)
	var unmarshal *json.UnmarshalTypeError
	if errors.As(err, &unmarshal) {
		field := path
		if unmarshal.Field != "" {
			if field != "" {
				field += "."
			}
			field += unmarshal.Field
		}
		return &typeError{fmt.Sprintf("json: cannot unmarshal %s into Go struct field %s.%s of type %s",
			unmarshal.Value, kind, field, unmarshal.Type)}
	}
	if err != nil {
		return &typeError{err.Error()}
	}
	return nil
}

// encoding/json matches field names without regard to case; Kubernetes'
// decoder (sigs.k8s.io/json) does not. Keys that differ only in case from a field
// read here are renamed out of the way before decoding.
var fieldNames = map[string]string{}

func init() {
	for _, name := range []string{"apiVersion", "kind", "metadata", "name", "namespace",
		"annotations", "data", "stringData", "binaryData", "spec", "template", "jobTemplate",
		"containers", "initContainers", "ephemeralContainers", "env", "envFrom", "value",
		"valueFrom", "secretKeyRef", "configMapKeyRef", "key", "optional", "secretRef",
		"configMapRef", "volumes", "secret", "configMap", "secretName", "items", "path",
		"projected", "sources"} {
		fieldNames[strings.ToLower(name)] = name
	}
}

// Maps whose keys are data, not field names.
var freeForm = map[string]bool{"data": true, "stringData": true, "binaryData": true,
	"annotations": true, "labels": true}

func caseSensitive(value interface{}) interface{} {
	switch v := value.(type) {
	case map[string]interface{}:
		out := make(map[string]interface{}, len(v))
		for key, item := range v {
			if freeForm[key] {
				out[key] = item
				continue
			}
			if exact, ok := fieldNames[strings.ToLower(key)]; ok && exact != key {
				key = "\x00case:" + key
			}
			out[key] = caseSensitive(item)
		}
		return out
	case []interface{}:
		out := make([]interface{}, len(v))
		for i, item := range v {
			out[i] = caseSensitive(item)
		}
		return out
	}
	return value
}

type objectMeta struct {
	Name        string            `json:"name"`
	Namespace   string            `json:"namespace"`
	Annotations map[string]string `json:"annotations"`
}

type header struct {
	APIVersion string     `json:"apiVersion"`
	Kind       string     `json:"kind"`
	Metadata   objectMeta `json:"metadata"`
}

type secret struct {
	Data       map[string][]byte `json:"data"`
	StringData map[string]string `json:"stringData"`
}

type configMap struct {
	Data       map[string]string `json:"data"`
	BinaryData map[string][]byte `json:"binaryData"`
}

type keySelector struct {
	Name     string `json:"name"`
	Key      string `json:"key"`
	Optional *bool  `json:"optional"`
}

type localRef struct {
	Name     string `json:"name"`
	Optional *bool  `json:"optional"`
}

type envVar struct {
	Name      string `json:"name"`
	Value     string `json:"value"`
	ValueFrom *struct {
		SecretKeyRef    *keySelector `json:"secretKeyRef"`
		ConfigMapKeyRef *keySelector `json:"configMapKeyRef"`
	} `json:"valueFrom"`
}

type envFromSource struct {
	SecretRef    *localRef `json:"secretRef"`
	ConfigMapRef *localRef `json:"configMapRef"`
}

type container struct {
	Name    string          `json:"name"`
	Env     []envVar        `json:"env"`
	EnvFrom []envFromSource `json:"envFrom"`
}

type keyToPath struct {
	Key  string `json:"key"`
	Path string `json:"path"`
}

type volumeSource struct {
	Name       string      `json:"name"`
	SecretName string      `json:"secretName"`
	Items      []keyToPath `json:"items"`
	Optional   *bool       `json:"optional"`
}

type volume struct {
	Name      string        `json:"name"`
	Secret    *volumeSource `json:"secret"`
	ConfigMap *volumeSource `json:"configMap"`
	Projected *struct {
		Sources []struct {
			Secret    *volumeSource `json:"secret"`
			ConfigMap *volumeSource `json:"configMap"`
		} `json:"sources"`
	} `json:"projected"`
}

type podTemplate struct {
	Metadata objectMeta `json:"metadata"`
	Spec     struct {
		InitContainers      []container `json:"initContainers"`
		Containers          []container `json:"containers"`
		EphemeralContainers []container `json:"ephemeralContainers"`
		Volumes             []volume    `json:"volumes"`
	} `json:"spec"`
}

// ---- what is read ----

// Where each kind keeps its pod template (its API group, and the path from the
// object's root); a bare Pod is its own template.
type consumerKind struct {
	group string
	path  []string
}

var consumerKinds = map[string]consumerKind{
	"Deployment":            {"apps", []string{"spec", "template"}},
	"StatefulSet":           {"apps", []string{"spec", "template"}},
	"DaemonSet":             {"apps", []string{"spec", "template"}},
	"ReplicaSet":            {"apps", []string{"spec", "template"}},
	"ReplicationController": {"", []string{"spec", "template"}},
	"Job":                   {"batch", []string{"spec", "template"}},
	"CronJob":               {"batch", []string{"spec", "jobTemplate", "spec", "template"}},
	"PodTemplate":           {"", []string{"template"}},
	"Rollout":               {"argoproj.io", []string{"spec", "template"}},
	"Pod":                   {"", nil},
}

// jsonType names a decoded JSON value's type as encoding/json does in its errors.
func jsonType(value interface{}) string {
	switch value.(type) {
	case []interface{}:
		return "array"
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "bool"
	}
	return "object"
}

func group(apiVersion string) string {
	if i := strings.Index(apiVersion, "/"); i >= 0 {
		return apiVersion[:i]
	}
	return ""
}

// Whether to print rollcall.dev/ annotations (-annotations).
var withAnnotations bool

func annotations(object, where string, meta *objectMeta) []map[string]interface{} {
	var out []map[string]interface{}
	if !withAnnotations {
		return out
	}
	for key, value := range meta.Annotations {
		if strings.HasPrefix(key, "rollcall.dev/") {
			out = append(out, map[string]interface{}{"type": "annotation", "object": object,
				"where": where, "key": key, "value": value})
		}
	}
	return out
}

type sourceID struct{ kind, namespace, name string }

type reader struct {
	out     *output
	sources map[sourceID]map[string][]byte
	order   []sourceID
}

func digest(value []byte) string {
	sum := sha256.Sum256(value)
	return hex.EncodeToString(sum[:])
}

func sortedKeys(items []keyToPath) interface{} {
	if len(items) == 0 {
		return nil // every key
	}
	seen := map[string]bool{}
	keys := []string{}
	for _, item := range items {
		if !seen[item.Key] {
			seen[item.Key] = true
			keys = append(keys, item.Key)
		}
	}
	sort.Strings(keys)
	return keys
}

func isTrue(b *bool) bool { return b != nil && *b }

// object reads one decoded object (a chunk's, or a List's item).
func (r *reader) object(obj map[string]interface{}) {
	if obj["kind"] == nil && obj["apiVersion"] == nil {
		// A values file or a tool's config: kubectl refuses it with this message
		// before decoding anything; rollcall passes it through. No object to compare
		// (docs/yaml.md).
		r.out.emit(map[string]interface{}{"type": "not-object",
			"message": "Object 'Kind' is missing"})
		return
	}
	var head header
	kindName, _ := obj["kind"].(string)
	if kindName == "" {
		kindName = "Object"
	}
	if err := decodeTyped(kindName, "", obj, &head); err != nil {
		r.out.fail("", fmt.Sprintf("%s cannot be handled: %s", kindName, err))
		return
	}
	if head.Kind == "" && head.APIVersion == "" {
		// A values file or a tool's config: kubectl refuses it with this message;
		// rollcall passes it through. No object to compare (docs/yaml.md).
		r.out.emit(map[string]interface{}{"type": "not-object",
			"message": "Object 'Kind' is missing"})
		return
	}
	if head.Kind == "" {
		r.out.fail("", "Object 'Kind' is missing")
		return
	}
	if head.APIVersion == "" {
		r.out.fail("", "Object 'apiVersion' is missing")
		return
	}
	id := fmt.Sprintf("%s %s/%s", head.Kind, head.Metadata.Namespace, head.Metadata.Name)
	handled := func(err error) string {
		return fmt.Sprintf("%s in version %q cannot be handled as a %s: %s", head.Kind,
			head.APIVersion, head.Kind, err)
	}
	// Everything is checked before anything is printed: a refused object reads as nothing.
	var lines []map[string]interface{}
	lines = append(lines, map[string]interface{}{"type": "object", "apiVersion": head.APIVersion,
		"kind": head.Kind, "namespace": head.Metadata.Namespace, "name": head.Metadata.Name})
	lines = append(lines, annotations(id, "metadata", &head.Metadata)...)
	var content map[string][]byte
	// The core group has one version: the API server refuses a Secret or ConfigMap of any
	// other apiVersion without a group ("no matches for kind").
	core := head.APIVersion == "v1"
	switch {
	case core && head.Kind == "Secret":
		var s secret
		if err := decodeTyped(head.Kind, "", obj, &s); err != nil {
			r.out.fail(id, handled(err))
			return
		}
		content = map[string][]byte{}
		for k, v := range s.Data {
			content[k] = v
		}
		for k, v := range s.StringData { // the API server merges stringData over data
			content[k] = []byte(v)
		}
	case core && head.Kind == "ConfigMap":
		var c configMap
		if err := decodeTyped(head.Kind, "", obj, &c); err != nil {
			r.out.fail(id, handled(err))
			return
		}
		content = map[string][]byte{}
		for k, v := range c.Data {
			content[k] = []byte(v)
		}
		for k, v := range c.BinaryData {
			content[k] = v
		}
	default:
		if kind, ok := consumerKinds[head.Kind]; ok && kind.group == group(head.APIVersion) {
			// Each step is a struct to the API server: anything but an object (or
			// null) there is refused.
			var node interface{} = obj
			for i, key := range kind.path {
				m, _ := node.(map[string]interface{})
				node = m[key]
				if _, isMap := node.(map[string]interface{}); node != nil && !isMap {
					r.out.fail(id, handled(fmt.Errorf("json: cannot unmarshal %s into Go struct field %s.%s of type struct",
						jsonType(node), head.Kind, strings.Join(kind.path[:i+1], "."))))
					return
				}
			}
			if m, ok := node.(map[string]interface{}); ok {
				var tmpl podTemplate
				if err := decodeTyped(head.Kind, strings.Join(kind.path, "."), m, &tmpl); err != nil {
					r.out.fail(id, handled(err))
					return
				}
				lines = append(lines, references(id, &tmpl)...)
				if len(kind.path) > 0 {
					lines = append(lines, annotations(id, "template", &tmpl.Metadata)...)
				}
			}
		}
	}
	for _, line := range lines {
		r.out.emit(line)
	}
	if content != nil {
		source := sourceID{head.Kind, head.Metadata.Namespace, head.Metadata.Name}
		if _, seen := r.sources[source]; !seen {
			r.order = append(r.order, source)
		}
		r.sources[source] = content // a source defined twice: the last one is applied
	}
}

func references(object string, tmpl *podTemplate) []map[string]interface{} {
	var out []map[string]interface{}
	ref := func(kind, name string, keys interface{}, optional *bool, via, container, volume string) {
		out = append(out, map[string]interface{}{"type": "ref", "object": object,
			"source": kind + "/" + name, "keys": keys, "optional": isTrue(optional), "via": via,
			"container": container, "volume": volume})
	}
	spec := &tmpl.Spec
	for _, list := range [][]container{spec.InitContainers, spec.Containers, spec.EphemeralContainers} {
		for _, c := range list {
			for _, env := range c.Env {
				if env.ValueFrom == nil {
					continue
				}
				if s := env.ValueFrom.SecretKeyRef; s != nil {
					ref("Secret", s.Name, []string{s.Key}, s.Optional, "env", c.Name, "")
				}
				if s := env.ValueFrom.ConfigMapKeyRef; s != nil {
					ref("ConfigMap", s.Name, []string{s.Key}, s.Optional, "env", c.Name, "")
				}
			}
			for _, from := range c.EnvFrom {
				if s := from.SecretRef; s != nil {
					ref("Secret", s.Name, nil, s.Optional, "envFrom", c.Name, "")
				}
				if s := from.ConfigMapRef; s != nil {
					ref("ConfigMap", s.Name, nil, s.Optional, "envFrom", c.Name, "")
				}
			}
		}
	}
	for _, v := range spec.Volumes {
		if s := v.Secret; s != nil {
			ref("Secret", s.SecretName, sortedKeys(s.Items), s.Optional, "volume", "", v.Name)
		}
		if s := v.ConfigMap; s != nil {
			ref("ConfigMap", s.Name, sortedKeys(s.Items), s.Optional, "volume", "", v.Name)
		}
		if v.Projected != nil {
			for _, source := range v.Projected.Sources {
				if s := source.Secret; s != nil {
					ref("Secret", s.Name, sortedKeys(s.Items), s.Optional, "projected", "", v.Name)
				}
				if s := source.ConfigMap; s != nil {
					ref("ConfigMap", s.Name, sortedKeys(s.Items), s.Optional, "projected", "", v.Name)
				}
			}
		}
	}
	return out
}

// chunk decodes one chunk of the stream as kubectl's builder does.
func (r *reader) chunk(data []byte) {
	converted, err := yaml.YAMLToJSON(data)
	if err != nil {
		r.out.fail("", scrub(err.Error()))
		return
	}
	if len(converted) == 0 || string(converted) == "null" {
		return // an empty document: kubectl and Helm skip it
	}
	decoder := json.NewDecoder(bytes.NewReader(converted))
	var obj map[string]interface{}
	if err := decoder.Decode(&obj); err != nil {
		r.out.fail("", scrub(err.Error()))
		return
	}
	// The unstructured decoder reads any object with "items" as a List, and
	// kubectl and Helm apply each item.
	if items, ok := obj["items"]; ok && items != nil {
		list, ok := items.([]interface{})
		if !ok {
			r.out.fail("", "json: cannot unmarshal items into a list")
			return
		}
		for _, item := range list {
			m, ok := item.(map[string]interface{})
			if !ok {
				r.out.fail("", "json: cannot unmarshal a List item that is not an object")
				continue
			}
			r.object(m)
		}
		return
	}
	r.object(obj)
}

func readFile(path string) []string {
	out := &output{file: path}
	data, err := os.ReadFile(path)
	if err != nil {
		out.fail("", err.Error())
		return out.lines
	}
	r := &reader{out: out, sources: map[sourceID]map[string][]byte{}}
	chunks, err := splitStream(data)
	for _, c := range chunks {
		r.chunk(c)
	}
	if err != nil {
		out.fail("", err.Error())
	}
	for _, id := range r.order {
		name := id.kind + " " + id.namespace + "/" + id.name
		for key, value := range r.sources[id] {
			out.emit(map[string]interface{}{"type": "entry", "source": name, "key": key,
				"sha256": digest(value)})
		}
	}
	sort.Strings(out.lines)
	return out.lines
}

// documents prints the pieces of the stream in `path` as Kubernetes reads them.
func documents(path string, writer *bufio.Writer) int {
	emit := func(line map[string]interface{}) {
		encoded, _ := json.Marshal(line)
		writer.Write(encoded)
		writer.WriteByte('\n')
	}
	data, err := os.ReadFile(path)
	if err != nil {
		emit(map[string]interface{}{"error": err.Error()})
		return 1
	}
	chunks, err := splitStream(data)
	for _, c := range chunks {
		converted, convertErr := yaml.YAMLToJSON(c)
		if convertErr != nil {
			emit(map[string]interface{}{"error": convertErr.Error()})
			continue
		}
		var value interface{}
		if len(converted) > 0 {
			if decodeErr := json.Unmarshal(converted, &value); decodeErr != nil {
				emit(map[string]interface{}{"error": decodeErr.Error()})
				continue
			}
		}
		emit(map[string]interface{}{"document": value})
	}
	if err != nil {
		emit(map[string]interface{}{"error": err.Error()})
		return 1
	}
	return 0
}

func main() {
	paths := os.Args[1:]
	if len(paths) == 2 && paths[0] == "-documents" {
		writer := bufio.NewWriter(os.Stdout)
		status := documents(paths[1], writer)
		writer.Flush()
		os.Exit(status)
	}
	if len(paths) > 0 && paths[0] == "-annotations" {
		withAnnotations = true
		paths = paths[1:]
	}
	if len(paths) == 0 {
		scanner := bufio.NewScanner(os.Stdin)
		for scanner.Scan() {
			if line := scanner.Text(); line != "" {
				paths = append(paths, line)
			}
		}
	}
	writer := bufio.NewWriter(os.Stdout)
	defer writer.Flush()
	for _, path := range paths {
		for _, line := range readFile(path) {
			writer.WriteString(line)
			writer.WriteByte('\n')
		}
	}
}
