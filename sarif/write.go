package sarif

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"

	"github.com/agcgate/agc-action/diag"
	gosarif "github.com/owenrumney/go-sarif/v2/sarif"
)

// GitHub's code scanning upload limits (FACTS.md).
const (
	MaxRuns          = 20
	MaxResultsPerRun = 25000
	MaxRulesPerRun   = 25000
	MaxLocations     = 1000
	MaxTagsPerRule   = 20
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

// Marshal encodes a report as compact JSON with a trailing newline (an
// indented log is a third larger and twice as slow to write; GitHub and
// viewers do not care). The go-sarif types carry encoding/json tags, so
// encoding/json writes them (json v2 with the v1 options writes the same
// bytes, but a tenth slower). See marshalSpliced for how.
func Marshal(rep *gosarif.Report) ([]byte, error) {
	if out, ok := marshalSpliced(rep); ok {
		return out, nil
	}
	var buf bytes.Buffer
	if err := newEncoder(&buf).Encode(rep); err != nil {
		return nil, fmt.Errorf("encode SARIF: %w", err)
	}
	return buf.Bytes(), nil
}

func newEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}

// marshalSpliced writes what Marshal writes, into a buffer sized once: a
// log of 25,000 results is tens of megabytes, and encoding it in one call
// regrows encoding/json's buffer a dozen times and then copies it. See
// spliceRuns for how.
func marshalSpliced(rep *gosarif.Report) ([]byte, bool) {
	if rep == nil {
		return nil, false
	}
	has := func(i int) bool { return rep.Runs[i] != nil && len(rep.Runs[i].Results) > 0 }
	return spliceRuns(rep, has, estimateResults(rep), func(buf *bytes.Buffer, i int) error {
		return writeResults(buf, rep.Runs[i].Results)
	})
}

// spliceRuns encodes rep with the results of each run that has(i) replaced
// by one stand-in result, and then writes in place of each stand-in what
// results(buf, i) writes, the results of run i as a JSON array:
// encoding/json writes an array element exactly as it writes the element
// alone. grow is the size of the results, as far as known. ok is false
// when a stand-in's text does not occur exactly once, or something does
// not encode (results returns an error): the caller then encodes the
// report in one call, which says why.
func spliceRuns(rep *gosarif.Report, has func(i int) bool, grow int, results func(buf *bytes.Buffer, i int) error) ([]byte, bool) {
	skel := *rep
	skel.Runs = make([]*gosarif.Run, len(rep.Runs))
	var marks [][]byte
	var spliced []int
	for i, run := range rep.Runs {
		skel.Runs[i] = run
		if !has(i) {
			continue
		}
		mark := fmt.Sprintf("\x00agc-action/sarif results of run %d\x00", i)
		stand := *run
		stand.Results = []*gosarif.Result{{Guid: &mark}}
		skel.Runs[i] = &stand
		text, err := encode(stand.Results)
		if err != nil {
			return nil, false
		}
		marks = append(marks, text)
		spliced = append(spliced, i)
	}
	if len(marks) == 0 {
		return nil, false
	}
	var sb bytes.Buffer
	if err := newEncoder(&sb).Encode(&skel); err != nil {
		return nil, false // Encode of the whole report says why
	}
	skeleton := sb.Bytes()
	at := make([]int, len(marks))
	for i, m := range marks {
		if bytes.Count(skeleton, m) != 1 {
			return nil, false
		}
		if at[i] = bytes.Index(skeleton, m); i > 0 && at[i] < at[i-1] {
			return nil, false
		}
	}
	var buf bytes.Buffer
	buf.Grow(len(skeleton) + grow)
	done := 0 // bytes of skeleton written
	for k, i := range spliced {
		buf.Write(skeleton[done:at[k]])
		if err := results(&buf, i); err != nil {
			return nil, false // Encode of the whole report says why
		}
		done = at[k] + len(marks[k])
	}
	buf.Write(skeleton[done:])
	return buf.Bytes(), true
}

// estimateResults guesses the encoded size of all results of rep from the
// first few of each run.
func estimateResults(rep *gosarif.Report) int {
	total := 0
	for _, run := range rep.Runs {
		if run == nil || len(run.Results) == 0 {
			continue
		}
		sample := run.Results[:min(len(run.Results), 16)]
		var buf bytes.Buffer
		if writeResults(&buf, sample) != nil {
			return 0
		}
		total += sizeOfAll(buf.Len(), len(sample), len(run.Results))
	}
	return total
}

// sizeOfAll is the room n results take, from the size of the first
// sampled, with an eighth to spare.
func sizeOfAll(size, sampled, n int) int { return size * n / sampled * 9 / 8 }

// encode is v encoded as Marshal encodes it, without the newline.
func encode(v any) ([]byte, error) {
	var b bytes.Buffer
	if err := newEncoder(&b).Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// writeResults writes results as a JSON array, one element at a time:
// by resultEncoder, or by encoding/json when it declines.
func writeResults(buf *bytes.Buffer, results []*gosarif.Result) error {
	var re resultEncoder
	buf.WriteByte('[')
	for i, r := range results {
		if i > 0 {
			buf.WriteByte(',')
		}
		if err := writeResult(buf, r, &re); err != nil {
			return err
		}
	}
	buf.WriteByte(']')
	return nil
}

// writeResult writes one result as encoding/json does.
func writeResult(buf *bytes.Buffer, r *gosarif.Result, re *resultEncoder) error {
	if b, ok := appendResult(buf.AvailableBuffer(), r, re); ok {
		buf.Write(b)
		return nil
	}
	text, err := encode(r)
	if err != nil {
		return err
	}
	buf.Write(text)
	return nil
}

// CheckLimits checks a report against GitHub's limits on runs, results,
// rules, locations and tags. The size limit is CheckSize's.
func CheckLimits(rep *gosarif.Report) error {
	if err := checkRuns(len(rep.Runs)); err != nil {
		return err
	}
	for i, run := range rep.Runs {
		p := ptrIdx("/runs", i)
		if n := len(run.Results); n > MaxResultsPerRun {
			return &LimitError{Place: diag.Place{Pointer: p + "/results"}, Limit: "results in one run", Count: n, Max: MaxResultsPerRun}
		}
		if run.Tool.Driver != nil {
			if n := len(run.Tool.Driver.Rules); n > MaxRulesPerRun {
				return &LimitError{Place: diag.Place{Pointer: p + "/tool/driver/rules"}, Limit: "rules in one run", Count: n, Max: MaxRulesPerRun}
			}
			for j, r := range run.Tool.Driver.Rules {
				if tags, ok := r.Properties["tags"].([]string); ok && len(tags) > MaxTagsPerRule {
					return &LimitError{Place: diag.Place{Pointer: fmt.Sprintf("%s/tool/driver/rules/%d/properties/tags", p, j)}, Limit: "tags on one rule", Count: len(tags), Max: MaxTagsPerRule}
				}
			}
		}
		for j, res := range run.Results {
			if n := len(res.Locations); n > MaxLocations {
				return &LimitError{Place: diag.Place{Pointer: fmt.Sprintf("%s/results/%d/locations", p, j)}, Limit: "locations on one result", Count: n, Max: MaxLocations}
			}
		}
	}
	return nil
}

// checkRuns checks GitHub's limit on the runs of one log.
func checkRuns(n int) error {
	if n > MaxRuns {
		return &LimitError{Place: diag.Place{Pointer: "/runs"}, Limit: "runs", Count: n, Max: MaxRuns}
	}
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
