// Package review plans what a gate's AGC response becomes on GitHub,
// without talking to GitHub. It owns: parsing a pull request file's patch
// into hunks (ParsePatch, FileDiff); where a finding points (Locate,
// ParseLocation) and which channel it takes under a filter mode (Place);
// ```suggestion blocks from patch remedies (ResolveEdit, Change); the
// hidden markers and content hashes that make reruns idempotent
// (FormatMarker, ParseMarkers); the bodies of inline comments and reviews;
// the index of what earlier runs wrote (IndexOwn, over a PRState the
// client fills); each gate's review plan (PlanReview), reconciled with
// what earlier runs wrote and within the ceiling on what one run writes
// (Budget, WriteCeiling); a check run's name, conclusion and title, and
// its summary, text and annotations (PlanCheck: what the review lacks
// listed first, what does not fit counted with where it is), the response
// embedded in its text and read back (EmbedResponse, ReadBackRaw);
// and, for a token that cannot write,
// workflow annotations and the job summary (Degrade).
//
// It does no I/O: no network, no files, no environment. Files at the head
// commit come through a FileReader the caller gives; text goes to an
// io.Writer. Package ghapi posts what it plans. docs/github.md describes
// channels, placement, suggestions and markers.
package review
