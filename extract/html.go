package extract

import "regexp"

// HTML block start conditions 1 to 7 (CommonMark 0.31, section 4.6), and the
// end conditions of types 1 to 5. Types 6 and 7 end at a blank line.
var (
	htmlOpen = [...]*regexp.Regexp{
		1: regexp.MustCompile(`(?i)^<(?:script|pre|textarea|style)(?:[ \t]|>|$)`),
		2: regexp.MustCompile(`^<!--`),
		3: regexp.MustCompile(`^<\?`),
		4: regexp.MustCompile(`^<![A-Za-z]`),
		5: regexp.MustCompile(`^<!\[CDATA\[`),
		6: regexp.MustCompile(`(?i)^</?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul)(?:[ \t]|/?>|$)`),
		7: regexp.MustCompile(`(?i)^(?:` + openTag + `|` + closeTag + `)[ \t]*$`),
	}
	htmlClose = [...]*regexp.Regexp{
		1: regexp.MustCompile(`(?i)</(?:script|pre|textarea|style)>`),
		2: regexp.MustCompile(`-->`),
		3: regexp.MustCompile(`\?>`),
		4: regexp.MustCompile(`>`),
		5: regexp.MustCompile(`\]\]>`),
	}
	htmlRawTag = regexp.MustCompile(`(?i)^</?(?:script|pre|textarea|style)[ \t/>]`)
)

const (
	tagName   = `[A-Za-z][A-Za-z0-9-]*`
	attrName  = `[a-zA-Z_:][a-zA-Z0-9:._-]*`
	attrValue = "(?:[^\"'=<>`\\x00-\\x20]+|'[^']*'|\"[^\"]*\")"
	attribute = `(?:[ \t]+` + attrName + `(?:[ \t]*=[ \t]*` + attrValue + `)?)`
	openTag   = `<` + tagName + attribute + `*[ \t]*/?>`
	closeTag  = `</` + tagName + `[ \t]*>`
)

// htmlBlockStart returns the type (1 to 7) of the HTML block that s (from
// its first non-space character, a '<') starts, or 0.
func htmlBlockStart(s string) int {
	for t := 1; t < len(htmlOpen); t++ {
		if !htmlOpen[t].MatchString(s) {
			continue
		}
		if t == 7 && htmlRawTag.MatchString(s) {
			return 0 // pre, script, style, textarea are type 1 or nothing
		}
		return t
	}
	return 0
}

// htmlBlockEnds reports whether line meets the end condition of an HTML
// block of type t (1 to 5) on this line.
func htmlBlockEnds(t int, line string) bool {
	return t >= 1 && t <= 5 && htmlClose[t].MatchString(line)
}
