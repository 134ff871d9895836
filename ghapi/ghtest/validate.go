package ghtest

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

//go:embed openapi/api.github.com.subset.json
var subsetJSON []byte

// loadDescription parses the committed subset and points its server at the
// emulator, so the router matches requests to base.
func loadDescription(base string) (*openapi3.T, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(subsetJSON)
	if err != nil {
		return nil, fmt.Errorf("load openapi/api.github.com.subset.json: %w", err)
	}
	doc.Servers = openapi3.Servers{{URL: base}}
	return doc, nil
}

func newRouter(doc *openapi3.T) (routers.Router, error) {
	r, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("build router: %w", err)
	}
	return r, nil
}

// validate finds the operation of r and checks it against the description.
// The returned input is nil when no operation matches.
func (s *Server) validate(r *http.Request, body []byte) (*openapi3filter.RequestValidationInput, error) {
	route, params, err := s.router.FindRoute(r)
	if err != nil {
		return nil, fmt.Errorf("no operation in the description (or not one ghapi uses): %w", err)
	}
	in := &openapi3filter.RequestValidationInput{
		Request: r, PathParams: params, Route: route,
		Options: &openapi3filter.Options{MultiError: true, AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
	}
	if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
		return in, fmt.Errorf("request does not match the description: %w", err)
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	if err := strictQuery(route.Operation, route.PathItem, r); err != nil {
		return in, err
	}
	if len(body) > 0 {
		if err := strictBody(route.Operation, body); err != nil {
			return in, err
		}
	}
	return in, nil
}

// validateResponse checks one of the emulator's own answers against the
// description, so the emulator cannot drift from what GitHub sends.
func validateResponse(in *openapi3filter.RequestValidationInput, status int, h http.Header, body []byte) error {
	out := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in, Status: status, Header: h,
		Body:    io.NopCloser(bytes.NewReader(body)),
		Options: &openapi3filter.Options{MultiError: true, IncludeResponseStatus: false},
	}
	return openapi3filter.ValidateResponse(context.Background(), out)
}

// strictQuery rejects query parameters the operation does not define:
// GitHub ignores them, which hides typos, so the emulator does not.
func strictQuery(op *openapi3.Operation, item *openapi3.PathItem, r *http.Request) error {
	known := map[string]bool{}
	for _, ps := range []openapi3.Parameters{item.Parameters, op.Parameters} {
		for _, p := range ps {
			if p.Value != nil && p.Value.In == "query" {
				known[p.Value.Name] = true
			}
		}
	}
	for k := range r.URL.Query() {
		if !known[k] {
			return fmt.Errorf("query parameter %q is not defined for %s", k, op.OperationID)
		}
	}
	return nil
}

// strictBody rejects JSON members the description does not define where a
// schema lists its properties and says nothing of additional ones.
func strictBody(op *openapi3.Operation, body []byte) error {
	if op.RequestBody == nil || op.RequestBody.Value == nil {
		return fmt.Errorf("%s takes no request body", op.OperationID)
	}
	mt := op.RequestBody.Value.Content.Get("application/json")
	if mt == nil || mt.Schema == nil {
		return nil
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return fmt.Errorf("request body: %w", err)
	}
	return unknownMembers(mt.Schema.Value, v, "")
}

func unknownMembers(sc *openapi3.Schema, v any, ptr string) error {
	if sc == nil || len(sc.AllOf)+len(sc.AnyOf)+len(sc.OneOf) > 0 {
		return nil
	}
	switch x := v.(type) {
	case map[string]any:
		if len(sc.Properties) == 0 || sc.AdditionalProperties.Has != nil || sc.AdditionalProperties.Schema != nil {
			return nil
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p, ok := sc.Properties[k]
			if !ok {
				return fmt.Errorf("request body %s: member %q is not in the description", orRoot(ptr), k)
			}
			if err := unknownMembers(p.Value, x[k], ptr+"/"+k); err != nil {
				return err
			}
		}
	case []any:
		if sc.Items == nil {
			return nil
		}
		for i, e := range x {
			if err := unknownMembers(sc.Items.Value, e, fmt.Sprintf("%s/%d", ptr, i)); err != nil {
				return err
			}
		}
	}
	return nil
}

func orRoot(ptr string) string {
	if ptr == "" {
		return "/"
	}
	return ptr
}

// token returns the bearer token of r.
func token(r *http.Request) string {
	a := r.Header.Get("Authorization")
	for _, p := range []string{"Bearer ", "bearer ", "token "} {
		if t, ok := strings.CutPrefix(a, p); ok {
			return t
		}
	}
	return ""
}
