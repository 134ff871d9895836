package schema

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/go-json-experiment/json/jsontext"
)

// TestGoTypesMatchSchema walks agc.Response and the schema side by side:
// every member the Go types know is a property at the same place, and every
// property is a member the Go types know, with the same JSON type and the
// same required-ness (a field without omitzero is always written, so the
// schema must require it).
func TestGoTypesMatchSchema(t *testing.T) {
	root := decodeJSON(t, schemaJSON).(map[string]any)
	d := &drift{errorf: t.Errorf, root: root}
	d.object("", reflect.TypeFor[agc.Response](), root)
	if d.fields < 30 {
		t.Errorf("walked only %d Go fields; the walk is broken", d.fields)
	}
}

// The walk must notice a renamed, an extra, a retyped and an optional
// property.
func TestDriftIsDetected(t *testing.T) {
	edits := map[string]func(defs map[string]any){
		"renamed": func(defs map[string]any) {
			props := defs["coverage"].(map[string]any)["properties"].(map[string]any)
			props["notChecked"] = props["not_checked"]
			delete(props, "not_checked")
		},
		"extra": func(defs map[string]any) {
			defs["edit"].(map[string]any)["properties"].(map[string]any)["line"] = map[string]any{"type": "integer"}
		},
		"retyped": func(defs map[string]any) {
			defs["remedy"].(map[string]any)["properties"].(map[string]any)["applied"] = map[string]any{"type": "string"}
		},
		"not required": func(defs map[string]any) {
			defs["attempt"].(map[string]any)["required"] = []any{"n"}
		},
	}
	for name, edit := range edits {
		t.Run(name, func(t *testing.T) {
			root := decodeJSON(t, schemaJSON).(map[string]any)
			edit(root["$defs"].(map[string]any))
			var errs []string
			d := &drift{root: root, errorf: func(f string, a ...any) { errs = append(errs, fmt.Sprintf(f, a...)) }}
			d.object("", reflect.TypeFor[agc.Response](), root)
			if len(errs) == 0 {
				t.Error("drift not detected")
			}
		})
	}
}

type drift struct {
	errorf func(format string, args ...any)
	root   map[string]any
	fields int
}

// resolve follows local $refs.
func (d *drift) resolve(at string, node map[string]any) map[string]any {
	for {
		ref, ok := node["$ref"].(string)
		if !ok {
			return node
		}
		name, ok := strings.CutPrefix(ref, "#/$defs/")
		def, found := d.root["$defs"].(map[string]any)[name].(map[string]any)
		if !ok || !found {
			d.errorf("%s: cannot resolve $ref %q", at, ref)
			return map[string]any{}
		}
		node = def
	}
}

func (d *drift) object(at string, typ reflect.Type, node map[string]any) {
	node = d.resolve(at, node)
	if node["type"] != "object" {
		d.errorf("%s: Go %s is a struct, the schema's type is %v", at, typ, node["type"])
	}
	props, _ := node["properties"].(map[string]any)
	var required []string
	for _, r := range asSlice(node["required"]) {
		required = append(required, r.(string))
	}
	known := map[string]bool{}
	for f := range typ.Fields() {
		name, opts := jsonTag(f)
		if name == "" {
			continue
		}
		d.fields++
		known[name] = true
		sub, ok := props[name].(map[string]any)
		if !ok {
			d.errorf("%s: Go field %s.%s (%q) has no schema property", at, typ.Name(), f.Name, name)
			continue
		}
		optional := slices.Contains(opts, "omitzero") || slices.Contains(opts, "omitempty")
		if req := slices.Contains(required, name); req == optional {
			d.errorf("%s/%s: schema required=%v, but Go field %s.%s optional=%v", at, name, req, typ.Name(), f.Name, optional)
		}
		d.value(at+"/"+name, f.Type, sub)
	}
	for name := range props {
		if !known[name] {
			d.errorf("%s: schema property %q has no Go field in %s", at, name, typ)
		}
	}
}

// jsonTag returns a field's member name and options; name is "" for fields
// that hold unknown members or are not marshalled.
func jsonTag(f reflect.StructField) (string, []string) {
	parts := strings.Split(f.Tag.Get("json"), ",")
	name, opts := parts[0], parts[1:]
	if name == "-" || !f.IsExported() || slices.ContainsFunc(opts, func(o string) bool {
		return o == "unknown" || o == "embed" || o == "inline"
	}) {
		return "", nil
	}
	if name == "" {
		name = f.Name
	}
	return name, opts
}

func (d *drift) value(at string, typ reflect.Type, node map[string]any) {
	node = d.resolve(at, node)
	if typ == reflect.TypeFor[jsontext.Value]() {
		if _, typed := node["type"]; typed {
			d.errorf("%s: Go holds any JSON value, the schema restricts its type to %v", at, node["type"])
		}
		return
	}
	if typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	switch typ.Kind() {
	case reflect.Struct:
		d.object(at, typ, node)
	case reflect.Slice:
		d.want(at, typ, node, "array")
		items, _ := node["items"].(map[string]any)
		if items == nil {
			d.errorf("%s: array without items", at)
			return
		}
		d.value(at+"/items", typ.Elem(), items)
	case reflect.String:
		d.want(at, typ, node, "string")
	case reflect.Bool:
		d.want(at, typ, node, "boolean")
	case reflect.Int, reflect.Int64:
		d.want(at, typ, node, "integer")
	default:
		d.errorf("%s: Go type %s has no schema counterpart in this test", at, typ)
	}
}

// want checks the node's JSON type; an enum or const of strings is a string.
func (d *drift) want(at string, typ reflect.Type, node map[string]any, jsonType string) {
	if got, ok := node["type"]; ok {
		if got != jsonType {
			d.errorf("%s: Go %s wants JSON %s, the schema says %v", at, typ, jsonType, got)
		}
		return
	}
	vals := asSlice(node["enum"])
	if c, ok := node["const"]; ok {
		vals = append(vals, c)
	}
	if len(vals) == 0 {
		d.errorf("%s: the schema does not constrain the type (Go %s)", at, typ)
	}
	for _, v := range vals {
		if _, ok := v.(string); !ok || jsonType != "string" {
			d.errorf("%s: schema value %v does not fit Go %s", at, v, typ)
		}
	}
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}
