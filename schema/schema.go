// Package schema holds the JSON Schema (draft 2020-12) of an AGC 0.1
// response and validates decoded documents against it. The schema encodes
// the fields of spec §3–§10; the rules a schema cannot express are the
// validator's (package validate). It does no I/O: the schema is embedded.
//
// Section numbers refer to agc-spec-v0.1.1.
package schema

import (
	"bytes"
	_ "embed"
	"fmt"
	"sync"

	"github.com/agcgate/agc-action/diag"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// ID is the schema's $id.
const ID = "https://agcgate.github.io/agc-action/schema/agc-0.1.schema.json"

//go:embed agc.schema.json
var schemaJSON []byte

// JSON returns the schema document's bytes.
func JSON() []byte { return bytes.Clone(schemaJSON) }

// Violation is one place where an instance breaks the schema. Its place
// is the JSON pointer into the instance ("" is the whole document); the
// schema knows no file, line or column.
type Violation struct {
	diag.Place
	Keyword string // the schema keyword that failed, e.g. "required", "enum"
	Message string // plain English, for a person
}

var compiled = sync.OnceValue(func() *jsonschema.Schema {
	sch, err := compile(schemaJSON)
	if err != nil {
		panic(fmt.Sprintf("schema: agc.schema.json does not compile: %v", err))
	}
	return sch
})

// compile compiles a schema document, checking it against the draft 2020-12
// metaschema on the way.
func compile(doc []byte) (*jsonschema.Schema, error) {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return nil, fmt.Errorf("parse schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(ID, v); err != nil {
		return nil, fmt.Errorf("add schema %s: %w", ID, err)
	}
	return c.Compile(ID)
}

// Validate checks a decoded instance (as jsonschema.UnmarshalJSON produces
// it: json.Number for numbers) and returns every violation, sorted by
// pointer. Each violation is a leaf of the validator's error tree, the most
// specific cause. A valid instance gives nil.
func Validate(instance any) []Violation {
	err := compiled().Validate(instance)
	if err == nil {
		return nil
	}
	return violations(err)
}

// ValidateBytes parses data with jsonschema.UnmarshalJSON and validates it.
// The error is set only when data is not one JSON value.
func ValidateBytes(data []byte) ([]Violation, error) {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("parse JSON: %w", err)
	}
	return Validate(v), nil
}
