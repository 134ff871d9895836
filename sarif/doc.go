// Package sarif converts between Agent Gate Contract responses and SARIF
// 2.1.0 logs, as docs/sarif-mapping.md describes field by field.
//
// Reading is lenient: real tools write imperfect SARIF, so Read reads
// each result from the log's bytes into this package's own model
// (model.go), converts it to a finding as it comes (kept, or written to
// Options.Out), and reports every repair as a diag.Lint naming a JSON
// pointer. Writing is strict: Write writes a log that passes the SARIF
// 2.1.0 JSON schema, the SARIF Multitool's Sarif and GitHub rules, and
// GitHub's upload limits on counts, straight from the findings, one result
// at a time (write.go); CheckSize checks the size limit.
//
// The only I/O is reading source files, through an fs.FS rooted at the
// source root, to resolve lines, regions and GitHub's line hashes.
package sarif
