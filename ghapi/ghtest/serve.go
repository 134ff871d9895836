package ghtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/routers"
)

// request is one request on its way through the emulator, REST or GraphQL.
type request struct {
	r    *http.Request
	body []byte
	now  time.Time
	// op is the operation id ("graphql/<name>" for GraphQL); "" when the
	// request names no operation the emulator serves, and lost is then
	// the status it is answered with.
	op    string
	lost  int
	write bool  // REST other than GET, a GraphQL mutation
	bad   error // how the request breaks the description
	serve handler
	// REST: the operation in the description and the path's parameters
	route  *routers.Route
	params map[string]string
	repo   string       // owner/repo
	pr     *PullRequest // the pull request {pull_number}
	// GraphQL
	gql *gqlRequest
	// the requester, once admitted, and the answer's headers
	who Identity
	w   http.ResponseWriter
}

// handler serves one operation from the emulator's state, which it may
// change. It returns the members of the answer the state decides (reply
// completes the rest from the description), or an *apiError.
type handler func(s *Server, q *request) (any, error)

// obj is a JSON object of an answer.
type obj = map[string]any

// text is an answer that is not JSON (a pull request as a diff).
type text string

// apiError is GitHub's refusal of a request.
type apiError struct {
	status int
	msg    string
	errs   []any
}

func (e *apiError) Error() string { return e.msg }

func fail(status int, msg string, errs ...any) error { return &apiError{status, msg, errs} }

var (
	errNotFound  = fail(http.StatusNotFound, "Not Found")
	errForbidden = fail(http.StatusForbidden, "Resource not accessible by integration")
)

// serve answers one request by the one path every request takes: name
// and check its operation, count it, admit it (token, injected faults,
// read-only tokens), serve it, check the answer against the description,
// let another client take its turn (Between), and only then send the
// answer. peer also serves the operations only a PeerFront serves.
func (s *Server) serve(w http.ResponseWriter, r *http.Request, peer bool) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		s.t.Errorf("ghtest: read body of %s %s: %v", r.Method, r.URL.Path, err)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	// GitHub keeps times to the second.
	q := &request{r: r, body: body, now: time.Now().UTC().Truncate(time.Second)}
	if r.URL.Path == strings.TrimPrefix(s.GraphQLURL(), s.srv.URL) {
		parseGraphQL(q)
	} else {
		s.route(q, peer)
	}
	rec := httptest.NewRecorder()
	s.answer(rec, q)
	s.runBetween(q.op, r)
	maps.Copy(w.Header(), rec.Header())
	w.WriteHeader(rec.Code)
	w.Write(rec.Body.Bytes())
	s.mu.Lock()
	s.log = append(s.log, fmt.Sprintf("%s %s -> %d", r.Method, r.URL.RequestURI(), rec.Code))
	s.mu.Unlock()
}

func (s *Server) answer(w http.ResponseWriter, q *request) {
	if q.op == "" {
		s.t.Errorf("ghtest: unexpected request %s %s: %v", q.r.Method, q.r.URL.RequestURI(), q.bad)
		writeError(w, q.lost, http.StatusText(q.lost))
		return
	}
	defer s.lock()()
	s.counts[q.op]++
	if q.bad != nil {
		s.t.Errorf("ghtest: %s %s (%s): %v", q.r.Method, q.r.URL.RequestURI(), q.op, q.bad)
		q.refuse(w, fail(http.StatusUnprocessableEntity, "Invalid request.\n\n"+q.bad.Error()), "")
		return
	}
	who, ok := s.tokens[token(q.r)]
	if !ok {
		writeError(w, http.StatusUnauthorized, "Bad credentials")
		return
	}
	if f, ok := s.takeFault(q); ok {
		writeFault(w, f, q.now)
		return
	}
	if q.write && who.ReadOnly {
		q.refuse(w, errForbidden, "FORBIDDEN")
		return
	}
	if q.serve == nil {
		s.t.Errorf("ghtest: operation %s is in the subset but has no handler", q.op)
		writeError(w, http.StatusNotImplemented, "not emulated")
		return
	}
	if n, ok := q.params["pull_number"]; ok {
		if q.pr = s.prs[q.repo+"#"+n]; q.pr == nil {
			writeError(w, http.StatusNotFound, "Not Found")
			return
		}
	}
	rateHeaders(w, s.totalCount(), time.Hour, q.now)
	q.who, q.w = who, w
	v, err := q.serve(s, q)
	var e *apiError
	switch {
	case errors.As(err, &e):
		writeError(w, e.status, e.msg, e.errs...)
	case q.gql != nil:
		writeJSON(w, http.StatusOK, v)
	default:
		s.reply(w, q, v)
	}
}

// refuse answers GitHub's refusal of q: a REST error, or a GraphQL answer
// with an error entry of type typ.
func (q *request) refuse(w http.ResponseWriter, err error, typ string) {
	e := err.(*apiError)
	if q.gql == nil {
		writeError(w, e.status, e.msg)
		return
	}
	entry := obj{"message": e.msg}
	if typ != "" {
		entry["type"] = typ
	}
	writeJSON(w, http.StatusOK, obj{"data": nil, "errors": []any{entry}})
}

// reply answers a REST request with v completed to the operation's answer
// in the description (fill), in the status the description gives it, and
// checks that answer against the description, so the emulator cannot
// drift from what GitHub sends.
func (s *Server) reply(w http.ResponseWriter, q *request, v any) {
	status, schema := success(q.route.Operation)
	if t, ok := v.(text); ok {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(status)
		io.WriteString(w, string(t))
		return
	}
	if status == http.StatusNoContent {
		w.WriteHeader(status)
		return
	}
	body := encode(fill(schema, v))
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	if err := validateResponse(q, status, w.Header(), body); err != nil {
		s.t.Errorf("ghtest: the emulator's answer to %s does not match the description: %v", q.op, err)
	}
	w.WriteHeader(status)
	w.Write(body)
}

// success is the operation's answer in the description: its status
// (the first of 2xx) and the schema of its JSON body.
func success(op *openapi3.Operation) (int, *openapi3.SchemaRef) {
	for code := 200; code < 300; code++ {
		if r := op.Responses.Status(code); r != nil && r.Value != nil {
			if mt := r.Value.Content.Get("application/json"); mt != nil {
				return code, mt.Schema
			}
			return code, nil
		}
	}
	return http.StatusOK, nil
}

// fill completes v, the members of an answer the emulator's state decides,
// to a value of the schema: each member the schema requires and v lacks
// takes the plainest value the schema allows (sample), so that an answer
// is written by hand only where a client can tell it apart.
func fill(ref *openapi3.SchemaRef, v any) any {
	if ref == nil || ref.Value == nil {
		return v
	}
	switch x := v.(type) {
	case string, bool, int, int64, float64:
		return v
	case nil:
		return sample(ref.Value, true)
	case obj:
		m, ok := sample(ref.Value, false).(obj)
		if !ok {
			m = obj{}
		}
		for k, e := range x {
			m[k] = fill(property(ref.Value, k), e)
		}
		return m
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = fill(ref.Value.Items, e)
		}
		return out
	}
	if b, err := json.Marshal(v); err == nil && b[0] == '{' { // a struct of the state
		var m obj
		if json.Unmarshal(b, &m) == nil {
			return fill(ref, m)
		}
	}
	return v
}

// sample is the plainest value sc allows: null where it may be null (and
// null is true), the first of an enum, an object of its required members,
// an empty list, a string of its format, the least number.
func sample(sc *openapi3.Schema, null bool) any {
	switch {
	case null && sc.Nullable:
		return nil
	case len(sc.Enum) > 0:
		return sc.Enum[0]
	case len(sc.AllOf) > 0:
		m := obj{}
		for _, a := range sc.AllOf {
			if x, ok := sample(a.Value, false).(obj); ok {
				maps.Copy(m, x)
			}
		}
		return m
	case len(sc.AnyOf) > 0:
		return sample(sc.AnyOf[0].Value, null)
	case len(sc.OneOf) > 0:
		return sample(sc.OneOf[0].Value, null)
	case sc.Type.Is("object"):
		m := obj{}
		for _, k := range sc.Required {
			if p := sc.Properties[k]; p != nil {
				m[k] = sample(p.Value, true)
			}
		}
		return m
	case sc.Type.Is("array"):
		return []any{}
	case sc.Type.Is("integer"), sc.Type.Is("number"):
		if sc.Min != nil {
			return *sc.Min
		}
		return 0
	case sc.Type.Is("boolean"):
		return false
	}
	return map[string]string{"date-time": "2011-04-14T16:00:49Z", "uri": "https://github.com/", "email": "octocat@github.com"}[sc.Format]
}

// property is the schema of member k of an object of sc.
func property(sc *openapi3.Schema, k string) *openapi3.SchemaRef {
	if p := sc.Properties[k]; p != nil {
		return p
	}
	for _, sub := range slices.Concat(sc.AllOf, sc.AnyOf, sc.OneOf) {
		if p := property(sub.Value, k); p != nil {
			return p
		}
	}
	return nil
}

// page is one page of a list answer, each item as each makes it (or as it
// is, when each is nil), as the
// request's per_page and page ask, with GitHub's Link header (prev, next,
// last, first).
func page[T any](q *request, items []T, each func(T) any) []any {
	query := q.r.URL.Query()
	perPage := min(max(atoiOr(query.Get("per_page"), 30), 1), 100)
	n := max(atoiOr(query.Get("page"), 1), 1)
	last := max((len(items)+perPage-1)/perPage, 1)
	var links []string
	link := func(p int, rel string) {
		query.Set("page", strconv.Itoa(p))
		query.Set("per_page", strconv.Itoa(perPage))
		u := url.URL{Scheme: "http", Host: q.r.Host, Path: q.r.URL.Path, RawQuery: query.Encode()}
		links = append(links, fmt.Sprintf(`<%s>; rel="%s"`, u.String(), rel))
	}
	if n > 1 {
		link(n-1, "prev")
	}
	if n < last {
		link(n+1, "next")
		link(last, "last")
	}
	if n > 1 {
		link(1, "first")
	}
	if len(links) > 0 {
		q.w.Header().Set("Link", strings.Join(links, ", "))
	}
	lo := min((n-1)*perPage, len(items))
	out := []any{}
	for _, it := range items[lo:min(lo+perPage, len(items))] {
		if each == nil {
			out = append(out, it)
		} else {
			out = append(out, each(it))
		}
	}
	return out
}

func atoiOr(s string, def int) int {
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	return def
}

// decode reads the request's JSON body into v.
func (q *request) decode(v any) error {
	if err := json.Unmarshal(q.body, v); err != nil {
		return fail(http.StatusBadRequest, "Problems parsing JSON")
	}
	return nil
}

// encode is v in JSON as GitHub writes it, without HTML escapes.
func encode(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // maps, lists, strings, numbers and times of the state
	return buf.Bytes()
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	w.Write(encode(v))
}

// writeError answers like GitHub: {"message", "errors", "documentation_url"}.
func writeError(w http.ResponseWriter, status int, msg string, errs ...any) {
	body := obj{"message": msg, "documentation_url": "https://docs.github.com/rest", "status": fmt.Sprint(status)}
	if len(errs) > 0 {
		body["errors"] = errs
	}
	writeJSON(w, status, body)
}
