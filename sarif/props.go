package sarif

// Property-bag keys (§3.8) this package writes and reads. All live inside
// "properties" objects under the "agc/" namespace (docs/sarif-mapping.md).
const (
	// run.properties: the response's members with no native SARIF home.
	propVersion  = "agc/version"  // "0.1": the run was written from an AGC response
	propGate     = "agc/gate"     // the gate object as the response had it
	propSubject  = "agc/subject"  // the subject object
	propVerdict  = "agc/verdict"  // the verdict
	propCoverage = "agc/coverage" // the coverage object
	propAttempt  = "agc/attempt"  // the attempt object
	propCarried  = "agc/carried"  // the carried ids, when present
	propUnknown  = "agc/unknown"  // members the contract does not define, on any object

	// result.properties: the finding's members with no native home.
	propID       = "agc/id"
	propLocation = "agc/location"
	propWhy      = "agc/why"
	propSeverity = "agc/severity"
	propStatus   = "agc/status"
	propRemedy   = "agc/remedy"
	propCheck    = "agc/check"

	// result.properties: true on a result that was not a finding (kept in
	// the response's x-sarif member); reading skips it.
	propOther = "agc/other"

	// region.properties: "resolved" (found in the sources) or "synthesized"
	// (nothing resolved). Reading drops both: the response had no line.
	propRegion = "agc/region"
	// location.properties: true on the stand-in location of a finding GitHub
	// cannot place (no file).
	propPlaceholder = "agc/placeholder"
	// reportingDescriptor.properties: the coverage.not_checked entry a
	// disabled rule stands for.
	propNotChecked = "agc/notChecked"

	regionResolved    = "resolved"
	regionSynthesized = "synthesized"

	// Fingerprint key carrying the AGC finding id (§3.27.16, §3.27.17).
	fingerprintKey = "agcFindingId/v1"
	// GitHub's key (FACTS.md).
	lineHashKey = "primaryLocationLineHash"
	// The AGC member that keeps what a SARIF result said and AGC has no
	// field for (level, region, fixes...), on findings and on the response.
	xSARIF = "agc-action/sarif" // also spelled out in the struct tags of xOf and otherResults
)
