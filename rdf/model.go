// Package rdf reads and writes the Reviewdog Diagnostic Format, as
// reviewdog's proto/rdf/reviewdog.proto defines it: rdjson (one
// DiagnosticResult) and rdjsonl (one Diagnostic per line), and converts it
// to and from AGC responses (docs/rdf-mapping.md). The reader is lenient,
// as reviewdog's own protojson reader is (severity as a name or a number,
// field names in snake_case or lowerCamelCase, unknown members ignored),
// and reports each repair as a diag.Lint naming its place; an input it
// cannot read at all is an error with a diag.Place.
//
// Pure, no I/O of its own: source files are read only through the fs.FS
// it is given.
package rdf

import "encoding/json"

// Severity is a diagnostic's severity (the proto's enum).
type Severity int

// The severities, with the proto's numbers.
const (
	SeverityUnknown Severity = 0
	SeverityError   Severity = 1
	SeverityWarning Severity = 2
	SeverityInfo    Severity = 3
)

var severityNames = []string{"UNKNOWN_SEVERITY", "ERROR", "WARNING", "INFO"}

// String is the proto's name of s.
func (s Severity) String() string {
	if s >= 0 && int(s) < len(severityNames) {
		return severityNames[s]
	}
	return severityNames[0]
}

// MarshalJSON writes the name, as protojson does.
func (s Severity) MarshalJSON() ([]byte, error) { return json.Marshal(s.String()) }

// Position is a line and a column, both 1-based; 0 is "not given". The
// column counts bytes of UTF-8.
type Position struct {
	Line   int `json:"line,omitempty"`
	Column int `json:"column,omitempty"`
}

// Range is a start and an exclusive end. A nil End is a zero-length range
// at Start (a range whose start has no column is the whole line); when
// neither position has a column the range is whole lines, End's included.
type Range struct {
	Start Position  `json:"start"`
	End   *Position `json:"end,omitempty"`
}

// Location is a file path and, optionally, a range in it.
type Location struct {
	Path  string `json:"path,omitempty"`
	Range *Range `json:"range,omitempty"`
}

// Source names the tool that reported.
type Source struct {
	Name string `json:"name,omitempty"`
	URL  string `json:"url,omitempty"`
}

// Code is a rule's identifier and a URL about it.
type Code struct {
	Value string `json:"value,omitempty"`
	URL   string `json:"url,omitempty"`
}

// Suggestion replaces Range (in the diagnostic's file) with Text; a
// zero-length range inserts, an empty text deletes.
type Suggestion struct {
	Range *Range `json:"range,omitempty"`
	Text  string `json:"text"`
}

// RelatedLocation is another place the diagnostic concerns.
type RelatedLocation struct {
	Message  string    `json:"message,omitempty"`
	Location *Location `json:"location,omitempty"`
}

// Diagnostic is one reported problem.
type Diagnostic struct {
	Message          string            `json:"message"`
	Location         *Location         `json:"location,omitempty"`
	Severity         Severity          `json:"severity,omitempty"`
	Source           *Source           `json:"source,omitempty"`
	Code             *Code             `json:"code,omitempty"`
	Suggestions      []Suggestion      `json:"suggestions,omitempty"`
	OriginalOutput   string            `json:"original_output,omitempty"`
	RelatedLocations []RelatedLocation `json:"related_locations,omitempty"`

	// Raw is the diagnostic's JSON as read; Pointer its place in the
	// input ("/diagnostics/3", or "" on its own rdjsonl line), Line the
	// rdjsonl line (0 in rdjson).
	Raw     json.RawMessage `json:"-"`
	Pointer string          `json:"-"`
	Line    int             `json:"-"`
}

// Result is a DiagnosticResult: the rdjson document.
type Result struct {
	Diagnostics []*Diagnostic `json:"diagnostics"`
	Source      *Source       `json:"source,omitempty"`
	Severity    Severity      `json:"severity,omitempty"`
}
