package sarif

// The model a log is read into. It keeps what the conversion to AGC needs,
// already resolved: rule references, levels, message templates, URIs.

// Run is one run of one tool (§3.14).
type Run struct {
	Pointer      string
	Fingerprint  string // sha256 of the run's RFC 8785 canonical JSON
	Driver       *Component
	Extensions   []*Component
	Results      []*Result
	CommandLine  string   // invocations[0].commandLine
	Failed       bool     // an invocation says executionSuccessful: false
	Notices      []string // error-level tool execution notifications
	AutomationID string
	Props        map[string]any
}

// Component is tool.driver or one of tool.extensions (§3.19).
type Component struct {
	Name    string
	Version string
	Rules   []*Rule
}

// Rule is a reportingDescriptor (§3.49).
type Rule struct {
	ID       string
	Name     string
	Short    string
	Full     string
	HelpURI  string
	Help     string
	Level    string // defaultConfiguration.level, "" when absent
	Disabled bool   // defaultConfiguration.enabled false, or overridden so
	Messages map[string]string
	Props    map[string]any
}

// Result is one result (§3.27) with its rule and level resolved.
type Result struct {
	size          int // its bytes in the log
	Pointer       string
	Rule          *Rule // nil when the log names no known rule
	RuleID        string
	Kind          string // §3.27.9, "fail" when absent
	Level         string // §3.27.10 resolved: result, rule configuration, "warning"; "none" unless kind is fail
	Message       string
	Loc           *Loc // locations[0], nil when absent
	Fingerprints  map[string]string
	Partial       map[string]string
	Suppressed    bool // an accepted suppression (§3.35)
	BaselineState string
	Fixes         []Fix
	Props         map[string]any
}

// Loc is a result's primary location.
type Loc struct {
	// Path is the artifact's path: relative to the source root when it is
	// under it (or was given relative), else absolute, else a URI with its
	// scheme. Empty when the location has no artifact.
	Path     string
	Relative bool
	Region   *Region
	Logical  string // fullyQualifiedName or name of logicalLocations[0]
	Props    map[string]any
}

// Region is a §3.30 region. Zero means absent for lines and columns;
// CharOffset is -1 when absent.
type Region struct {
	StartLine   int
	StartColumn int
	EndLine     int
	EndColumn   int
	CharOffset  int
	CharLength  int
	Snippet     string
	Origin      string // agc/region: "resolved" or "synthesized" when this package made it up
}

// Fix is a proposed fix (§3.55).
type Fix struct {
	Pointer     string // where it is in the log
	Description string
	Changes     []Change
}

// Change is an artifactChange (§3.56).
type Change struct {
	Path         string
	Relative     bool
	Replacements []Replacement
}

// Replacement is one replacement (§3.57).
type Replacement struct {
	Deleted  Region
	Inserted string
}
