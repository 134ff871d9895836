package agc

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agcgate/agc-action/diag"
)

// ClassGateID is the class of a gate id outside the set agc-action
// delivers (CheckGateID).
const ClassGateID = "action.gate-id"

// MaxGateIDLen is the longest gate id CheckGateID accepts, in bytes.
const MaxGateIDLen = 100

// CheckGateID reports why id cannot name a gate on GitHub, or nil when it
// can. A gate id becomes a check-run name agc/<id>, a commit status, a
// code scanning category <category>/<id>/, a line of the log and text in
// Markdown, so only characters that mean nothing in any of them are
// accepted: 1 to MaxGateIDLen bytes of lower-case a-z, digits 0-9, '.',
// '_', '-', and '/' between segments, each segment starting with a letter
// or a digit. Upper case is refused so that two ids never differ in case
// alone. The contract (§4) allows any non-empty string; agc-action posts
// only these.
func CheckGateID(id string) error {
	switch {
	case id == "":
		return fmt.Errorf("the gate id is empty")
	case len(id) > MaxGateIDLen:
		return fmt.Errorf("the gate id is %d bytes long, more than %d", len(id), MaxGateIDLen)
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; !alnum(c) && c != '.' && c != '_' && c != '-' && c != '/' {
			return fmt.Errorf("gate id %q holds %s, outside a-z 0-9 . _ - /", id, charName(id[i:]))
		}
	}
	for seg := range strings.SplitSeq(id, "/") {
		switch {
		case seg == "":
			return fmt.Errorf("gate id %q has an empty segment (a leading, trailing or doubled /)", id)
		case !alnum(seg[0]):
			return fmt.Errorf("gate id %q has a segment starting with %q; each /-separated segment starts with a-z or 0-9", id, seg[:1])
		}
	}
	return nil
}

func alnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

// charName names the character s starts with, quoted (escaped when it is
// a control or format character), or the byte when it is not UTF-8.
func charName(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError && size <= 1 {
		return fmt.Sprintf("the byte 0x%02x (not UTF-8)", s[0])
	}
	if r >= 'A' && r <= 'Z' {
		return fmt.Sprintf("%q (upper case)", r)
	}
	return fmt.Sprintf("%q", r)
}

// PlaceIn is the place of pointer ptr of d (a pointer into the response)
// in data, the whole input d was read from: the file, the line and column,
// and the pointer from the top of the input.
func (d Doc) PlaceIn(data []byte, ptr string) diag.Place {
	p := diag.Place{File: d.File, Pointer: d.Prefix + ptr}
	if d.Line == 0 {
		diag.Locate(data, &p)
		return p
	}
	// JSON Lines: the pointer is inside the record on line d.Line.
	LocateInRecord(data, d.Line, &p)
	return p
}

// LocateInRecord is diag.Locate for the JSON Lines record on line n
// (1-based) of data: each place that has no line yet, its pointer a
// pointer into that record, gets the line, column and offset of the value
// it names, counted in the whole of data.
func LocateInRecord(data []byte, n int, places ...*diag.Place) {
	LocateInRecords(data, map[int][]*diag.Place{n: places}, nil)
}

// LocateInRecords is LocateInRecord for the places of many records
// (by their line), reading data once for all of them rather than once
// for each: a file of many records, each with a violation, would
// otherwise be read from its start for every one. Record 0 is the whole
// of data (a document that is not JSON Lines): its places are placed as
// diag.Locate places them. scans counts the bytes it reads (nil: not
// counted).
func LocateInRecords(data []byte, byRecord map[int][]*diag.Place, scans *diag.ScanCounter) {
	scans.Locate(data, byRecord[0]...)
	var lines []int
	for n, places := range byRecord {
		if n == 0 {
			continue
		}
		for _, p := range places {
			if p.Line == 0 {
				lines = append(lines, n)
				break
			}
		}
	}
	var todo []*diag.Place
	var offs []int64
	for i, start := range scans.LineOffsets(data, lines) {
		line := recordAt(data, start)
		var here []*diag.Place
		for _, p := range byRecord[lines[i]] {
			if p.Line == 0 {
				here = append(here, p)
			}
		}
		scans.Locate(line, here...)
		for _, p := range here {
			if p.HasOffset() {
				todo = append(todo, p)
				offs = append(offs, int64(max(start, 0))+p.Offset)
			}
		}
	}
	for i, at := range scans.AtAll(data, offs) {
		todo[i].Line, todo[i].Column, todo[i].Offset = at.Line, at.Column, at.Offset
	}
}

// recordAt is the line that starts at byte start of data, without its
// line break; none when start < 0 (no such line).
func recordAt(data []byte, start int) []byte {
	if start < 0 {
		return nil
	}
	end := len(data)
	if i := bytes.IndexByte(data[start:], '\n'); i >= 0 {
		end = start + i
	}
	return data[start:end]
}

// RenameGate makes resp the answer of gate id: its gate id, and the gate
// id its finding ids start with (<gate.id>/<class>/<location>, §7). A
// SARIF log that a workflow pairs with a gate is that gate's answer,
// whatever its tool is named.
func RenameGate(resp *Response, id string) {
	old := resp.Gate.ID
	resp.Gate.ID = id
	for i := range resp.Findings {
		if rest, ok := strings.CutPrefix(resp.Findings[i].ID, old+"/"); ok {
			resp.Findings[i].ID = id + "/" + rest
		}
	}
}
