package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
	"github.com/google/go-cmp/cmp"
)

// fixtureFiles lists every JSON file under fixtures/agc, at any depth.
func fixtureFiles(t testing.TB) []string {
	t.Helper()
	var files []string
	root := filepath.Join(repoRoot, "fixtures", "agc")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".json") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures under %s (err %v)", root, err)
	}
	return files
}

// TestSchemaAndTypesAgree holds the schema and the Go types to the same
// contract on every fixture: what the schema accepts decodes and re-encodes
// without losing a member, and what the decoder rejects for its shape the
// schema rejects too.
func TestSchemaAndTypesAgree(t *testing.T) {
	for _, f := range fixtureFiles(t) {
		t.Run(filepath.ToSlash(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := agreement(f, data, goCodec); err != nil {
				t.Error(err)
			}
		})
	}
}

// agreement checks one document and returns what disagrees. Documents
// that are not one well-formed JSON value are the syntax checker's, not the
// schema's, and pass.
func agreement(file string, data []byte, c codec) error {
	if err := agc.CheckSyntax(file, data, agc.Limits{}); err != nil {
		return nil
	}
	vs, err := ValidateBytes(data)
	if err != nil {
		return fmt.Errorf("agc.CheckSyntax accepts it, ValidateBytes does not: %w", err)
	}
	r, derr := c.decode(file, data, agc.Limits{})
	switch {
	case len(vs) > 0:
		return nil
	case decoderRejectsShape(derr):
		return fmt.Errorf("agc.Decode rejects its shape, the schema accepts it: %w", derr)
	case derr != nil:
		return fmt.Errorf("the schema accepts it, agc.Decode fails: %w", derr)
	}
	out, err := c.encode(r)
	if err != nil {
		return fmt.Errorf("agc.Encode: %w", err)
	}
	if diff := cmp.Diff(meaning(data), meaning(out)); diff != "" {
		return fmt.Errorf("agc.Encode(agc.Decode(x)) differs from x (-in +out):\n%s", diff)
	}
	return nil
}

// codec is the pair of functions the agreement holds to the schema.
type codec struct {
	decode func(file string, data []byte, lim agc.Limits) (*agc.Response, error)
	encode func(r *agc.Response) ([]byte, error)
}

var goCodec = codec{decode: agc.Decode, encode: agc.Encode}

// The agreement must notice a decoder that rejects what the schema accepts
// and an encoder that loses a member.
func TestAgreementCanFail(t *testing.T) {
	data := readFixture(t, "fixtures/agc/valid/block-patch.json")
	if err := agreement("block-patch.json", data, goCodec); err != nil {
		t.Skipf("the fixture itself disagrees (TestSchemaAndTypesAgree reports it): %v", err)
	}
	strict := codec{
		decode: func(f string, _ []byte, _ agc.Limits) (*agc.Response, error) {
			return nil, &diag.Error{Place: diag.Place{File: f}, Class: agc.ClassSchema, Msg: "refused"}
		},
		encode: agc.Encode,
	}
	lossy := codec{
		decode: agc.Decode,
		encode: func(r *agc.Response) ([]byte, error) {
			r.Coverage.NotChecked = nil
			return agc.Encode(r)
		},
	}
	for name, c := range map[string]codec{"strict decoder": strict, "lossy encoder": lossy} {
		if agreement("block-patch.json", data, c) == nil {
			t.Errorf("%s: no disagreement reported", name)
		}
	}
}

// decoderRejectsShape reports whether err is a schema-class decode error.
func decoderRejectsShape(err error) bool {
	var ae *diag.Error
	return errors.As(err, &ae) && ae.Class == agc.ClassSchema
}

func meaning(data []byte) any {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return "unparsable: " + err.Error()
	}
	return v
}
