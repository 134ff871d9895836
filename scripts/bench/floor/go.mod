// The floor the benchmarks compare agc-sarif with: a plain encoding/json
// decode and encode. Its own module, so it is not part of ./... and never
// ships in a release.
module agcbench/floor

go 1.26
