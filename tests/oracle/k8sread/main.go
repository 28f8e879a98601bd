// k8sread prints what Kubernetes reads in YAML and JSON streams, in the oracle's
// canonical form (docs/yaml.md, "The oracle"): one JSON object per line for every
// object, every reference of a pod template to a Secret or ConfigMap, and a SHA-256
// of every key of every Secret and ConfigMap. Never a value.
//
// It restates the path of `kubectl apply -f FILE` (and of Helm's KubeClient.Build,
// which is the same from the stream on), from k8s.io/apimachinery and
// k8s.io/cli-runtime (neither is packaged in Debian; each rule below names the code it
// restates, and tests/oracle/kubectlread runs that code itself over the oracle's cases
// to check the restatement, docs/yaml.md):
//
//   - the file: cli-runtime's FileVisitor drops a UTF-8 byte-order mark at its start,
//     decodes UTF-16 after a UTF-16 mark, and replaces bytes that are not UTF-8 with
//     U+FFFD. Helm's Build reads the stream as it is (Builder.Stream); where the two
//     readings differ, the stream is refused here (no single reading to compare with);
//   - the stream: apimachinery's YAMLOrJSONDecoder (NewYAMLOrJSONDecoder(r, 4096)): a
//     stream whose first 4096 bytes, less leading Unicode white space, start with '{'
//     is a sequence of JSON values (encoding/json's Decoder); when JSON fails after 0
//     or 1 values, the rest is read as YAML from where the last value ended (its white
//     space up to and including the first line break skipped); after 2 or more it is
//     an error. YAML is cut into documents by YAMLReader (a line starting with "---"
//     and nothing after it but Unicode white space or a '#' ends a document; anything
//     else after "---" is an error) and each goes through sigs.k8s.io/yaml (go-yaml v2:
//     YAML 1.1, merge keys, the first YAML document of the piece only);
//   - each value: StreamVisitor skips null and empty ones; the unstructured decoder
//     reads any object with an "items" field (null included) as a List: items must be
//     an array of objects (null items as {}), and an item with neither kind nor
//     apiVersion takes the List's apiVersion and its kind less "List" (SecretList ->
//     Secret); FlattenListVisitor applies each item, refuses a List nested in one, and
//     refuses an item without kind or apiVersion. Field names are matched
//     case-sensitively, as sigs.k8s.io/json matches them; metadata is decoded into
//     ObjectMeta's types (the metadata check of cli-runtime's decoder);
//   - the fields the reading needs are then decoded by encoding/json into typed fields
//     as the API server decodes them, so a number where a string is wanted is the
//     error Kubernetes gives.
//
// Usage: k8sread [-annotations] FILE... (or the files one a line on stdin when none
// is given). With -annotations it also prints the rollcall.dev/ annotations of
// objects and pod templates (for the check of render's output).
//
// k8sread -documents FILE prints instead, in stream order, one JSON line per piece of
// the stream: {"document": VALUE}, the piece as the stream decoder hands it to
// kubectl and Helm (a List not expanded, null for an empty piece), or {"error":
// MESSAGE} for a piece Kubernetes refuses; {"error": …} last when the stream fails.
// The tests read rendered streams with it (tests/lib/k8s_json.py) rather than with
// another YAML library.
//
// k8sread -objects FILE prints, in order, each object kubectl applies (Lists
// expanded, kinds inferred) as {"object": VALUE}, or {"error": MESSAGE} where kubectl
// refuses one, a List or the rest of the stream: the form tests/oracle/kubectlread
// prints with the real code, for the cross-check.
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
	"reflect"
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"sigs.k8s.io/yaml"
)

// ---- the file, as k8s.io/cli-runtime's FileVisitor hands it on ----

// fileBytes is transform.NewReader(f, unicode.BOMOverride(unicode.UTF8.NewDecoder()))
// (golang.org/x/text): a UTF-8 byte-order mark at the start is dropped, a UTF-16 one
// switches to UTF-16, and each maximal ill-formed part of the UTF-8 is one U+FFFD.
func fileBytes(data []byte) []byte {
	switch {
	case bytes.HasPrefix(data, []byte("\xef\xbb\xbf")):
		data = data[3:]
	case bytes.HasPrefix(data, []byte("\xfe\xff")), bytes.HasPrefix(data, []byte("\xff\xfe")):
		big := data[0] == 0xfe
		data = data[2:]
		units := make([]uint16, 0, len(data)/2)
		for i := 0; i+1 < len(data); i += 2 {
			if big {
				units = append(units, uint16(data[i])<<8|uint16(data[i+1]))
			} else {
				units = append(units, uint16(data[i+1])<<8|uint16(data[i]))
			}
		}
		var out bytes.Buffer
		for _, r := range utf16.Decode(units) {
			out.WriteRune(r)
		}
		if len(data)%2 == 1 {
			out.WriteRune(utf8.RuneError)
		}
		return out.Bytes()
	}
	if utf8.Valid(data) {
		return data
	}
	var out bytes.Buffer
	for i := 0; i < len(data); {
		c := data[i]
		if c < utf8.RuneSelf {
			out.WriteByte(c)
			i++
			continue
		}
		if _, size := utf8.DecodeRune(data[i:]); size > 1 {
			out.Write(data[i : i+size])
			i += size
			continue
		}
		out.WriteRune(utf8.RuneError)
		i += illFormedLength(data[i:])
	}
	return out.Bytes()
}

// illFormedLength is the length of the maximal subpart of the ill-formed sequence at
// the start of b (1 to 3 bytes), as x/text's UTF-8 decoder measures it.
func illFormedLength(b []byte) int {
	c := b[0]
	var size int
	lo, hi := byte(0x80), byte(0xbf)
	switch {
	case c >= 0xc2 && c <= 0xdf:
		size = 2
	case c == 0xe0:
		size, lo = 3, 0xa0
	case c == 0xed:
		size, hi = 3, 0x9f
	case c >= 0xe1 && c <= 0xef:
		size = 3
	case c == 0xf0:
		size, lo = 4, 0x90
	case c == 0xf4:
		size, hi = 4, 0x8f
	case c >= 0xf1 && c <= 0xf3:
		size = 4
	default:
		return 1 // an invalid starter byte
	}
	n := 1
	for n < size && n < len(b) {
		low, high := byte(0x80), byte(0xbf)
		if n == 1 {
			low, high = lo, hi
		}
		if b[n] < low || b[n] > high {
			break
		}
		n++
	}
	return n
}

// ---- the stream, as k8s.io/apimachinery/pkg/util/yaml's YAMLOrJSONDecoder ----

// streamPieces restates StreamVisitor's loop over NewYAMLOrJSONDecoder(r, 4096):
// each value decoded into a runtime.RawExtension (its Raw: nil for a JSON null or an
// empty YAML document), then the error that ended the stream (nil at its end).
func streamPieces(data []byte) ([][]byte, error) {
	var pieces [][]byte
	// GuessJSONStream: the first 4096 bytes, less leading unicode.IsSpace runes,
	// start with '{'.
	peek := data
	if len(peek) > 4096 {
		peek = peek[:4096]
	}
	if !bytes.HasPrefix(bytes.TrimLeftFunc(peek, unicode.IsSpace), []byte("{")) {
		more, err := yamlPieces(data)
		return append(pieces, more...), err
	}
	decoder := json.NewDecoder(bytes.NewReader(data))
	consumed := 0 // what the StreamReader has consumed: the end of the last value
	count := 0
	for {
		var raw json.RawMessage
		err := decoder.Decode(&raw)
		if err == nil {
			count++
			consumed = int(decoder.InputOffset())
			if bytes.Equal(raw, []byte("null")) { // RawExtension.UnmarshalJSON skips null
				raw = nil
			}
			pieces = append(pieces, append([]byte(nil), raw...))
			continue
		}
		if err == io.EOF {
			return pieces, nil
		}
		firstErr := err
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) {
			firstErr = fmt.Errorf("json: offset %d: %s", syntax.Offset, syntax.Error())
		}
		if count > 1 {
			// More than one JSON value: a JSON stream, never YAML.
			return pieces, err
		}
		// Rewind to the end of the last value, consumeWhitespace, and YAML from there.
		skip, wsErr := consumeWhitespace(data[consumed:])
		if wsErr != nil {
			return pieces, firstErr
		}
		more, yamlErr := yamlPieces(data[consumed+skip:])
		pieces = append(pieces, more...)
		if yamlErr != nil && len(more) == 0 {
			// The first YAML Decode call fails: it returns the JSON error.
			return pieces, firstErr
		}
		return pieces, yamlErr
	}
}

var errInvalidRune = errors.New("invalid utf8 rune")

// consumeWhitespace is YAMLOrJSONDecoder.consumeWhitespace: how many bytes of white
// space (unicode.IsSpace) to skip, up to and including the first '\n'; it reads 4
// bytes at a time (StreamReader.ReadN(4)), so fewer than 4 bytes left is io.EOF, and
// utf8.RuneError (U+FFFD included) is an error. Either error leaves the JSON error.
func consumeWhitespace(rest []byte) (int, error) {
	consumed := 0
	for {
		if len(rest)-consumed < 4 {
			return 0, io.EOF
		}
		r, size := utf8.DecodeRune(rest[consumed : consumed+4])
		if r == utf8.RuneError || size == 0 {
			return 0, errInvalidRune
		}
		if !unicode.IsSpace(r) {
			return consumed, nil
		}
		consumed += size
		if r == '\n' {
			return consumed, nil
		}
	}
}

// yamlPieces is YAMLToJSONDecoder.Decode called until the end: each document of
// YAMLReader through sigs.k8s.io/yaml into a RawExtension. An error ends the stream.
func yamlPieces(data []byte) ([][]byte, error) {
	var pieces [][]byte
	reader := bufio.NewReader(bytes.NewReader(data))
	for {
		document, err := readDocument(reader)
		if err != nil && err != io.EOF {
			return pieces, err
		}
		if len(document) != 0 {
			converted, convertErr := yaml.YAMLToJSON(document)
			if convertErr != nil {
				return pieces, fmt.Errorf("error converting YAML to JSON: %s", convertErr)
			}
			converted = bytes.TrimSpace(converted)
			if len(converted) == 0 || bytes.Equal(converted, []byte("null")) {
				converted = nil
			}
			pieces = append(pieces, converted)
		}
		if err == io.EOF {
			return pieces, nil
		}
	}
}

// readDocument is YAMLReader.Read: a line that starts with "---" and has nothing
// after it but white space (strings.TrimSpace: Unicode's) or text starting with '#'
// ends a document; any other text after "---" is an error.
func readDocument(reader *bufio.Reader) ([]byte, error) {
	var buffer bytes.Buffer
	for {
		line, err := readLine(reader)
		if err != nil && err != io.EOF {
			return nil, err
		}
		if bytes.HasPrefix(line, []byte("---")) {
			trimmed := strings.TrimSpace(string(line[3:]))
			if len(trimmed) > 0 && trimmed[0] != '#' {
				return nil, fmt.Errorf("invalid Yaml document separator: %s", trimmed)
			}
			if buffer.Len() != 0 {
				return buffer.Bytes(), nil
			}
			if err == io.EOF {
				return nil, err
			}
		}
		if err == io.EOF {
			if buffer.Len() != 0 {
				return buffer.Bytes(), nil
			}
			return nil, err
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

// ---- each value, as StreamVisitor, the unstructured decoder and FlattenListVisitor ----

// visited is what kubectl gets from one value: an object to apply, a refusal (of an
// object, of a List or of the value), or a mapping that is no object (neither kind
// nor apiVersion: a values file, which rollcall passes through; docs/yaml.md).
type visited struct {
	object    map[string]interface{}
	err       string
	notObject bool
	item      bool // a List's item (not checked by cli-runtime's metadata check)
}

// decodeJSON decodes as k8s.io/apimachinery/pkg/util/json does (numbers kept as
// written: json.Number).
func decodeJSON(data []byte, target interface{}) error {
	decoder := json.NewDecoder(bytes.NewReader(data))
	decoder.UseNumber()
	if err := decoder.Decode(target); err != nil {
		return err
	}
	if decoder.More() {
		return errors.New("invalid character after top-level value")
	}
	return nil
}

// nestedString is unstructured's getNestedString: "" when absent or not a string.
func nestedString(obj map[string]interface{}, key string) string {
	s, _ := obj[key].(string)
	return s
}

// absent: no field, or a null one (neither is an apiVersion or a kind).
func absent(obj map[string]interface{}, key string) bool {
	value, ok := obj[key]
	return !ok || value == nil || value == ""
}

// visitPiece restates, for one RawExtension.Raw: StreamVisitor (bytes.TrimSpace;
// empty and null skipped), mapper.infoForData with the builder's decoder
// (metadataValidatingDecoder over unstructured.UnstructuredJSONScheme), and
// FlattenListVisitor with unstructuredscheme's typer.
func visitPiece(raw []byte) []visited {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil
	}
	refuse := func(format string, args ...interface{}) []visited {
		return []visited{{err: fmt.Sprintf(format, args...)}}
	}
	// unstructuredJSONScheme.decode: a detector for "items" (case-sensitive).
	var fields map[string]json.RawMessage
	if err := decodeJSON(raw, &fields); err != nil {
		return refuse("%s", err)
	}
	itemsRaw, isList := fields["items"]
	var obj map[string]interface{}
	if err := decodeJSON(raw, &obj); err != nil {
		return refuse("%s", err)
	}
	// k8s.io/apimachinery/pkg/util/json keeps each number as an int64 or a float64:
	// one that is neither (1e400) is an error.
	if bad := outOfRange(obj); bad != "" {
		return refuse("json: cannot unmarshal number %s into Go value of type float64", bad)
	}
	if absent(obj, "kind") && absent(obj, "apiVersion") {
		return []visited{{notObject: true}}
	}
	var items []map[string]interface{}
	if isList {
		// decodeToList: items must be an array (null: none), each item an object
		// (null: {}); an item with neither kind nor apiVersion gets the List's.
		var list []json.RawMessage
		if err := decodeJSON(itemsRaw, &list); err != nil {
			return refuse("json: cannot unmarshal %s into Go struct field decodeList.items of type []json.RawMessage", jsonTypeOf(itemsRaw))
		}
		itemKind := strings.TrimSuffix(nestedString(obj, "kind"), "List")
		for _, itemRaw := range list {
			item := map[string]interface{}{}
			if !bytes.Equal(bytes.TrimSpace(itemRaw), []byte("null")) {
				var decoded map[string]interface{}
				if err := decodeJSON(itemRaw, &decoded); err != nil {
					return refuse("json: cannot unmarshal %s into Go value of type map[string]interface {}", jsonTypeOf(itemRaw))
				}
				item = decoded
			}
			if nestedString(item, "kind") == "" && nestedString(item, "apiVersion") == "" {
				item["kind"] = itemKind
				item["apiVersion"] = nestedString(obj, "apiVersion")
			}
			items = append(items, item)
		}
		delete(obj, "items")
	}
	// UnstructuredJSONScheme.Decode: a kind is required.
	if nestedString(obj, "kind") == "" {
		return refuse("Object 'Kind' is missing")
	}
	// metadataValidatingDecoder: TypeMeta and ObjectMeta must decode.
	var head header
	if err := decodeTyped(nestedString(obj, "kind"), "", obj, &head); err != nil {
		return refuse("%s cannot be handled: %s", nestedString(obj, "kind"), err)
	}
	if !isList {
		return []visited{{object: obj}}
	}
	// FlattenListVisitor: a List in a List is no list to meta.ExtractList (an
	// Unstructured has no Items field): the whole List is refused.
	for _, item := range items {
		if _, nested := item["items"].([]interface{}); nested {
			return refuse("*unstructured.Unstructured is not a list: no Items field in this object")
		}
	}
	var out []visited
	for _, item := range items {
		switch {
		case nestedString(item, "kind") == "":
			out = append(out, visited{err: "unable to get type info from the object \"*unstructured.Unstructured\": Object 'Kind' is missing in 'object has no kind field '"})
		case nestedString(item, "apiVersion") == "":
			out = append(out, visited{err: "unable to get type info from the object \"*unstructured.Unstructured\": Object 'apiVersion' is missing in 'object has no apiVersion field'"})
		default:
			out = append(out, visited{object: item, item: true})
		}
	}
	return out
}

// outOfRange is the first number in value that is no float64 ("" when none).
func outOfRange(value interface{}) string {
	switch v := value.(type) {
	case json.Number:
		if _, err := v.Float64(); err != nil {
			return v.String()
		}
	case map[string]interface{}:
		for _, item := range v {
			if bad := outOfRange(item); bad != "" {
				return bad
			}
		}
	case []interface{}:
		for _, item := range v {
			if bad := outOfRange(item); bad != "" {
				return bad
			}
		}
	}
	return ""
}

// jsonTypeOf names the JSON type of a raw value as encoding/json's errors do.
func jsonTypeOf(raw json.RawMessage) string {
	var value interface{}
	if err := decodeJSON(raw, &value); err != nil {
		return "value"
	}
	return jsonType(value)
}

// readStream is the whole path for one file's bytes as kubectl reads them: the
// values kubectl applies or refuses, in order, then the error that ended the stream.
func readStream(data []byte) ([]visited, error) {
	pieces, err := streamPieces(data)
	var out []visited
	for _, piece := range pieces {
		out = append(out, visitPiece(piece)...)
	}
	return out, err
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

// encoding/json matches field names without regard to case (strings.EqualFold);
// Kubernetes' decoder (sigs.k8s.io/json) does not. Keys that differ only in case
// from a field of the types below are renamed out of the way before decoding.
var fieldNames = map[string]bool{}

func collectFields(t reflect.Type, seen map[reflect.Type]bool) {
	for t.Kind() == reflect.Ptr || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || seen[t] {
		return
	}
	seen[t] = true
	for i := 0; i < t.NumField(); i++ {
		field := t.Field(i)
		if name := strings.Split(field.Tag.Get("json"), ",")[0]; name != "" && name != "-" {
			fieldNames[name] = true
		}
		collectFields(field.Type, seen)
	}
}

func init() {
	seen := map[reflect.Type]bool{}
	for _, value := range []interface{}{header{}, secret{}, configMap{}, podTemplate{}} {
		collectFields(reflect.TypeOf(value), seen)
	}
}

// caseFold: a key that encoding/json would match to a field it is not exactly.
func caseFold(key string) bool {
	if fieldNames[key] {
		return false
	}
	for name := range fieldNames {
		if strings.EqualFold(name, key) {
			return true
		}
	}
	return false
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
			if caseFold(key) {
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

// metaTime is metav1.Time's UnmarshalJSON: null, or a string in RFC 3339.
type metaTime struct{}

func (t *metaTime) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	_, err := time.Parse(time.RFC3339, s)
	return err
}

// objectMeta is metav1.ObjectMeta's fields and types (k8s.io/apimachinery v0.37).
type objectMeta struct {
	Name                       string            `json:"name"`
	GenerateName               string            `json:"generateName"`
	Namespace                  string            `json:"namespace"`
	SelfLink                   string            `json:"selfLink"`
	UID                        string            `json:"uid"`
	ResourceVersion            string            `json:"resourceVersion"`
	Generation                 int64             `json:"generation"`
	CreationTimestamp          metaTime          `json:"creationTimestamp"`
	DeletionTimestamp          *metaTime         `json:"deletionTimestamp"`
	DeletionGracePeriodSeconds *int64            `json:"deletionGracePeriodSeconds"`
	Labels                     map[string]string `json:"labels"`
	Annotations                map[string]string `json:"annotations"`
	OwnerReferences            []struct {
		APIVersion         string `json:"apiVersion"`
		Kind               string `json:"kind"`
		Name               string `json:"name"`
		UID                string `json:"uid"`
		Controller         *bool  `json:"controller"`
		BlockOwnerDeletion *bool  `json:"blockOwnerDeletion"`
	} `json:"ownerReferences"`
	Finalizers    []string `json:"finalizers"`
	ManagedFields []struct {
		Manager     string          `json:"manager"`
		Operation   string          `json:"operation"`
		APIVersion  string          `json:"apiVersion"`
		Time        *metaTime       `json:"time"`
		FieldsType  string          `json:"fieldsType"`
		FieldsV1    json.RawMessage `json:"fieldsV1"`
		Subresource string          `json:"subresource"`
	} `json:"managedFields"`
}

type header struct {
	APIVersion string     `json:"apiVersion"`
	Kind       string     `json:"kind"`
	Metadata   objectMeta `json:"metadata"`
}

// core/v1's Secret and ConfigMap content (k8s.io/api v0.37).
type secret struct {
	Immutable  *bool             `json:"immutable"`
	Data       map[string][]byte `json:"data"`
	StringData map[string]string `json:"stringData"`
	Type       string            `json:"type"`
}

type configMap struct {
	Immutable  *bool             `json:"immutable"`
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
	case float64, json.Number:
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

// object reads one object kubectl applies (a value's, or a List's item).
func (r *reader) object(obj map[string]interface{}, item bool) {
	if meta, ok := obj["metadata"].(map[string]interface{}); ok && item {
		if _, isString := meta["namespace"].(string); !isString && meta["namespace"] != nil {
			// A List's item is not checked by cli-runtime's metadata check: a namespace
			// that is no string reads as "" to metadataAccessor, and kubectl and Helm
			// set the namespace they apply to (SetNamespace) before the API server
			// decodes it. As if absent.
			copied := map[string]interface{}{}
			for k, v := range meta {
				copied[k] = v
			}
			delete(copied, "namespace")
			obj = shallowWith(obj, "metadata", copied)
		}
	}
	var head header
	kindName := nestedString(obj, "kind")
	if err := decodeTyped(kindName, "", obj, &head); err != nil {
		r.out.fail("", fmt.Sprintf("%s cannot be handled: %s", kindName, err))
		return
	}
	if head.APIVersion == "" {
		// kubectl apply finds no REST mapping for an empty version (a List's item
		// was refused before, by the typer).
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
		// The API server's validation (ValidateConfigMap), the one rule of it restated
		// here: a key in both data and binaryData.
		for k := range c.Data {
			if _, both := c.BinaryData[k]; both {
				r.out.fail(id, "ConfigMap is invalid: data[…]: Invalid value: duplicate of key present in binaryData")
				return
			}
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

// shallowWith is a copy of obj with key set to value.
func shallowWith(obj map[string]interface{}, key string, value interface{}) map[string]interface{} {
	out := make(map[string]interface{}, len(obj))
	for k, v := range obj {
		out[k] = v
	}
	out[key] = value
	return out
}

// value reads what kubectl gets from one value of the stream.
func (r *reader) value(v visited) {
	switch {
	case v.notObject:
		// A values file or a tool's config: kubectl refuses it ("Object 'Kind' is
		// missing"); rollcall passes it through. No object to compare (docs/yaml.md).
		r.out.emit(map[string]interface{}{"type": "not-object",
			"message": "Object 'Kind' is missing"})
	case v.err != "":
		r.out.fail("", scrub(v.err))
	default:
		r.object(v.object, v.item)
	}
}

// reading is the canonical reading of a stream's bytes as the stream decoder gets them.
func reading(path string, data []byte) []string {
	out := &output{file: path}
	r := &reader{out: out, sources: map[sourceID]map[string][]byte{}}
	values, err := readStream(data)
	for _, v := range values {
		r.value(v)
	}
	if err != nil {
		out.fail("", scrub(err.Error()))
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

// readFile reads a file as `kubectl apply -f` reads it. When kubectl's FileVisitor
// rewrites its bytes (a byte-order mark, UTF-16, bytes that are not UTF-8) and Helm,
// which reads the stream as it is, would read it otherwise, the stream is refused:
// the two readers that apply it do not agree on what it holds.
func readFile(path string) []string {
	data, err := os.ReadFile(path)
	if err != nil {
		out := &output{file: path}
		out.fail("", err.Error())
		return out.lines
	}
	kubectl := fileBytes(data)
	lines := reading(path, kubectl)
	if !bytes.Equal(kubectl, data) {
		helm := reading(path, data)
		if strings.Join(helm, "\n") != strings.Join(lines, "\n") {
			out := &output{file: path}
			out.fail("", "kubectl apply -f and Helm read this stream differently: kubectl's file "+
				"reader drops a byte-order mark, decodes UTF-16 and replaces bytes that are not "+
				"UTF-8 with U+FFFD; Helm reads the bytes as they are")
			return out.lines
		}
	}
	return lines
}

// writeJSONLine writes one JSON line. encoding/json escapes U+2028 and U+2029 but
// not U+0085, which Python's str.splitlines() also takes for a line break: it is
// escaped too (it can only be inside a string).
func writeJSONLine(writer *bufio.Writer, line map[string]interface{}) {
	encoded, _ := json.Marshal(line)
	writer.Write(bytes.ReplaceAll(encoded, []byte("\u0085"), []byte(`\u0085`)))
	writer.WriteByte('\n')
}

// documents prints the pieces of the stream in `path` as the stream decoder hands
// them to kubectl and Helm (Lists not expanded).
func documents(path string, writer *bufio.Writer) int {
	emit := func(line map[string]interface{}) { writeJSONLine(writer, line) }
	data, err := os.ReadFile(path)
	if err != nil {
		emit(map[string]interface{}{"error": err.Error()})
		return 1
	}
	if !utf8.Valid(data) {
		emit(map[string]interface{}{"error": "bytes that are not UTF-8: kubectl apply -f reads each as U+FFFD, Helm refuses the stream"})
		return 1
	}
	pieces, err := streamPieces(fileBytes(data))
	for _, piece := range pieces {
		var value interface{}
		if piece != nil {
			if decodeErr := json.Unmarshal(piece, &value); decodeErr != nil {
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

// objects prints each object kubectl applies from the file at `path`, in order, or
// the error where it refuses one (the form of tests/oracle/kubectlread).
func objects(path string, writer *bufio.Writer) int {
	emit := func(line map[string]interface{}) { writeJSONLine(writer, line) }
	data, err := os.ReadFile(path)
	if err != nil {
		emit(map[string]interface{}{"error": err.Error()})
		return 1
	}
	values, err := readStream(fileBytes(data))
	for _, v := range values {
		switch {
		case v.notObject:
			emit(map[string]interface{}{"error": "Object 'Kind' is missing"})
		case v.err != "":
			emit(map[string]interface{}{"error": v.err})
		default:
			// The builder's FilterNamespace, local (no REST mapping): an object whose
			// namespace is empty or no string (metadataAccessor reads "") loses it.
			if meta, ok := v.object["metadata"].(map[string]interface{}); ok && nestedString(meta, "namespace") == "" {
				delete(meta, "namespace")
			}
			emit(map[string]interface{}{"object": v.object})
		}
	}
	if err != nil {
		emit(map[string]interface{}{"error": err.Error()})
		return 1
	}
	return 0
}

func main() {
	paths := os.Args[1:]
	if len(paths) == 2 && (paths[0] == "-documents" || paths[0] == "-objects") {
		writer := bufio.NewWriter(os.Stdout)
		status := 0
		if paths[0] == "-documents" {
			status = documents(paths[1], writer)
		} else {
			status = objects(paths[1], writer)
		}
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
