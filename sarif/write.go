package sarif

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"

	"github.com/agcgate/agc-action/agc"
	"github.com/agcgate/agc-action/diag"
	"github.com/go-json-experiment/json/jsontext"
)

// SchemaURI is the $schema Write writes.
const SchemaURI = "https://json.schemastore.org/sarif-2.1.0.json"

// SrcRoot is the uriBaseId of every artifact location Write writes: the
// source root (GitHub: the repository root).
const SrcRoot = "%SRCROOT%"

// GitHub's code scanning upload limits (FACTS.md). Write writes one
// location a result and no rule tags, so GitHub's limits on those (1,000
// and 20) hold by construction.
const (
	MaxRuns          = 20
	MaxResultsPerRun = 25000
	MaxRulesPerRun   = 25000
	MaxGzippedBytes  = 10 << 20
)

// LimitError is a log GitHub would reject for its size. Its place is the
// JSON pointer of what is too large in the log being written.
type LimitError struct {
	diag.Place
	Limit string
	Count int
	Max   int
}

func (e *LimitError) Error() string {
	return e.Place.Text(fmt.Sprintf("%d %s, GitHub accepts at most %d", e.Count, e.Limit, e.Max))
}

// WriteOptions tune Write.
type WriteOptions struct {
	// FS is the source root, used to resolve lines and line hashes. Nil:
	// no sources; every region is synthesized.
	FS fs.FS
	// FindingsOnly leaves out the results that did not become findings
	// (other kinds than fail, accepted suppressions). GitHub code scanning
	// ignores kind and suppressions and would show them as alerts.
	FindingsOnly bool
	// Category is the first segment of each run's automationDetails.id,
	// the GitHub code scanning category: <Category>/<gate.id>/. Empty is
	// "agc".
	Category string
}

// Write writes responses to w as one SARIF log, one run per response
// (docs/sarif-mapping.md, "AGC → SARIF"): compact JSON and a newline (an
// indented log is a third larger and twice as slow to write; GitHub and
// viewers do not care). Each run's tool and rules are written, then its
// results, each made from its finding as it is written, then the rest of
// the run; nothing is held but the run being written, since 20 runs of
// 25,000 results are over a gigabyte. A run beyond GitHub's limits on
// counts is refused with a *LimitError before it is written; the size
// limit is CheckSize's. A member that does not encode (unknown members
// that are not JSON, a remedy string that is not UTF-8) is an error naming
// the response and the finding. On an error, what w got is not a log.
func Write(w io.Writer, responses []*agc.Response, opts WriteOptions) error {
	if n := len(responses); n > MaxRuns {
		return &LimitError{Place: diag.Place{Pointer: "/runs"}, Limit: "runs", Count: n, Max: MaxRuns}
	}
	e := &encoder{w: w}
	if b, ok := w.(*bytes.Buffer); ok {
		e.buf = b
	}
	e.b = append(e.b, `{"version":"2.1.0","$schema":"`+SchemaURI+`","runs":[`...)
	src := NewSource(opts.FS) // each source read once for the log
	ids := automationIDs(responses, opts.Category)
	for i, r := range responses {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		rw := newRunWriter(r, src, opts.FindingsOnly)
		if err := rw.checkLimits(i); err != nil {
			return err
		}
		if err := rw.write(e, ids[i]); err != nil {
			return fmt.Errorf("response %d (gate %q): %w", i, r.Gate.ID, err)
		}
	}
	e.b = append(e.b, "]}\n"...)
	return e.flush()
}

// automationIDs are the runs' automationDetails.id:
// <category>/<gate.id>/, numbered from the second run of a gate on.
func automationIDs(responses []*agc.Response, category string) []string {
	category = cmp.Or(category, "agc")
	seen := map[string]int{}
	ids := make([]string, len(responses))
	for i, r := range responses {
		seen[r.Gate.ID]++
		ids[i] = category + "/" + r.Gate.ID + "/"
		if n := seen[r.Gate.ID]; n > 1 {
			ids[i] = fmt.Sprintf("%s/%s/%d/", category, r.Gate.ID, n)
		}
	}
	return ids
}

// encoder appends a log's JSON text to b and hands it to w a piece at a
// time. A string that is not valid UTF-8 is written with U+FFFD.
type encoder struct {
	jsonWriter
	w    io.Writer
	buf  *bytes.Buffer // w, when it is one: grown once for a run's results
	werr error         // w's
}

// flushAt is how much text the encoder holds before handing it to w.
const flushAt = 64 << 10

func (e *encoder) flush() error {
	if e.werr == nil && len(e.b) > 0 {
		_, e.werr = e.w.Write(e.b)
	}
	e.b = e.b[:0]
	return e.werr
}

// grow makes room in w, when it is a buffer, for n more bytes.
func (e *encoder) grow(n int) {
	if e.buf != nil {
		e.buf.Grow(n)
	}
}

func (e *encoder) text(n, s string) {
	e.name(n)
	e.open()
	e.name("text")
	e.quote(s)
	e.close()
}

// raw writes JSON text compacted, white space removed and nothing else
// changed (what encoding/json makes of a MarshalJSON's text).
func (e *encoder) raw(v []byte) error {
	start := len(e.b)
	e.b = append(e.b, v...)
	c := jsontext.Value(e.b[start:])
	if err := c.Compact(); err != nil || len(v) == 0 {
		e.b = e.b[:start]
		return fmt.Errorf("not JSON: %.40q", v)
	}
	e.b = append(e.b[:start], c...)
	e.comma = true
	return nil
}

// CheckSize checks that data, gzipped, is within GitHub's upload limit:
// it fails when gzip at the default level (what ghapi.UploadSARIF sends)
// makes more than MaxGzippedBytes of data.
//
// Short data needs no compression to know: deflate, by any encoder, writes
// n bytes in at most n + n/8 + n/64 + 5 bytes (zlib's deflateBound for any
// settings: a literal costs at most 9 bits in a fixed Huffman block,
// stored blocks cost 5 bytes each); gzip adds a 10-byte header and an
// 8-byte trailer, and a writer's flush and close an empty block or two,
// which 64 bytes more cover. When that is within the limit, so is any gzip
// of data. Otherwise data is compressed at the default level and that size
// is the answer. No faster level stands in for it: no ratio between two
// levels holds for every input (TestCheckSizeWordsFastLevelMisleads).
func CheckSize(data []byte) error {
	if gzipBound(len(data)) <= MaxGzippedBytes {
		return nil
	}
	n, err := gzipSize(data, gzip.DefaultCompression)
	if err != nil {
		return err
	}
	if n > MaxGzippedBytes {
		return &LimitError{Limit: "bytes gzipped", Count: int(n), Max: MaxGzippedBytes}
	}
	return nil
}

// gzipBound is the most bytes gzip can make of n bytes (CheckSize).
func gzipBound(n int) int { return n + n/8 + n/64 + 64 }

// gzipSize is the size of data gzipped at level.
func gzipSize(data []byte, level int) (int64, error) {
	var cw countWriter
	zw, err := gzip.NewWriterLevel(&cw, level)
	if err != nil {
		return 0, err
	}
	if _, err := zw.Write(data); err != nil {
		return 0, err
	}
	if err := zw.Close(); err != nil {
		return 0, err
	}
	return cw.n, nil
}

type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }
