package ghtest

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

//go:embed openapi/api.github.com.subset.json
var subsetJSON []byte

// newRouter parses the committed subset, points its server at base (the
// emulator) and closes its request bodies (closeBody).
func newRouter(base string) (routers.Router, error) {
	doc, err := openapi3.NewLoader().LoadFromData(subsetJSON)
	if err != nil {
		return nil, fmt.Errorf("load openapi/api.github.com.subset.json: %w", err)
	}
	doc.Servers = openapi3.Servers{{URL: base}}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			if op.RequestBody != nil && op.RequestBody.Value != nil {
				if mt := op.RequestBody.Value.Content.Get("application/json"); mt != nil {
					closeBody(mt.Schema, map[*openapi3.Schema]bool{})
				}
			}
		}
	}
	r, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("build router: %w", err)
	}
	return r, nil
}

// closeBody makes each object schema of a request body that lists its
// properties, and says nothing of others, refuse others: GitHub ignores
// an unknown member, which hides a typo, so the emulator does not.
func closeBody(ref *openapi3.SchemaRef, seen map[*openapi3.Schema]bool) {
	if ref == nil || ref.Value == nil || seen[ref.Value] {
		return
	}
	sc := ref.Value
	seen[sc] = true
	if len(sc.AllOf)+len(sc.AnyOf)+len(sc.OneOf) > 0 {
		return
	}
	if len(sc.Properties) > 0 && sc.AdditionalProperties.Has == nil && sc.AdditionalProperties.Schema == nil {
		sc.AdditionalProperties.Has = new(bool)
	}
	for _, p := range sc.Properties {
		closeBody(p, seen)
	}
	closeBody(sc.Items, seen)
}

// route finds the REST operation of q and checks q against it. An
// operation marked x-agc-peer is one only a peer tool uses, served only
// to a PeerFront.
func (s *Server) route(q *request, peer bool) {
	route, params, err := s.router.FindRoute(q.r)
	if err == nil && route.Operation.Extensions["x-agc-peer"] != nil && !peer {
		err = errors.New("only a peer tool uses it")
	}
	if err != nil {
		q.lost, q.bad = http.StatusNotFound, fmt.Errorf("no operation in the description (or not one ghapi uses): %w", err)
		return
	}
	q.route, q.params, q.op, q.serve = route, params, route.Operation.OperationID, handlers[route.Operation.OperationID]
	q.repo, q.write = params["owner"]+"/"+params["repo"], q.r.Method != http.MethodGet
	err = openapi3filter.ValidateRequest(context.Background(), validationInput(q))
	q.r.Body = io.NopCloser(bytes.NewReader(q.body))
	if err != nil {
		q.bad = fmt.Errorf("request does not match the description: %w", err)
		return
	}
	q.bad = strictQuery(route, q.r)
}

func validationInput(q *request) *openapi3filter.RequestValidationInput {
	return &openapi3filter.RequestValidationInput{
		Request: q.r, PathParams: q.params, Route: q.route,
		Options: &openapi3filter.Options{MultiError: true, RejectWhenRequestBodyNotSpecified: true, AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
	}
}

// validateResponse checks one of the emulator's own answers against the
// description.
func validateResponse(q *request, status int, h http.Header, body []byte) error {
	return openapi3filter.ValidateResponse(context.Background(), &openapi3filter.ResponseValidationInput{
		RequestValidationInput: validationInput(q), Status: status, Header: h,
		Body: io.NopCloser(bytes.NewReader(body)), Options: &openapi3filter.Options{MultiError: true},
	})
}

// strictQuery rejects query parameters the operation does not define:
// GitHub ignores them, which hides typos, so the emulator does not.
func strictQuery(route *routers.Route, r *http.Request) error {
	known := map[string]bool{}
	for _, ps := range []openapi3.Parameters{route.PathItem.Parameters, route.Operation.Parameters} {
		for _, p := range ps {
			if p.Value != nil && p.Value.In == "query" {
				known[p.Value.Name] = true
			}
		}
	}
	for k := range r.URL.Query() {
		if !known[k] {
			return fmt.Errorf("query parameter %q is not defined for %s", k, route.Operation.OperationID)
		}
	}
	return nil
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
