package bridge

import (
	"slices"
	"testing"
)

func TestContractBlocks(t *testing.T) {
	for _, tt := range []struct {
		name, msg string
		starts    []int
		content   string // of the last block
	}{
		{"backticks", "a\n```json:contract\n{}\n```\n", []int{2}, "{}\n"},
		{"tildes and info", "~~~~ json:contract extra\n{}\n~~~~~\n", []int{1}, "{}\n"},
		{"crlf", "x\r\n```json:contract\r\n{}\r\n```\r\n", []int{2}, "{}\n"},
		{"lone cr", "```json:contract\r{}\r```\r", []int{1}, "{}\n"},
		{"indented fence dedents content", "  ```json:contract\n  {\n   }\n  ```\n", []int{1}, "{\n }\n"},
		{"four spaces is code, not a fence", "    ```json:contract\n    {}\n    ```\n", nil, ""},
		{"inside another fence", "````markdown\n```json:contract\n{}\n```\n````\n", nil, ""},
		{"shorter closing does not close", "````json:contract\n{}\n```\n````\n", []int{1}, "{}\n```\n"},
		{"other language", "```json\n{}\n```\n", nil, ""},
		{"prefix word only", "```json:contractual\n{}\n```\n", nil, ""},
		{"backtick in info", "```json:contract `x`\n{}\n```\n", nil, ""},
		{"two", "```json:contract\n{}\n```\n```json:contract\n[]\n```\n", []int{1, 4}, "[]\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			bs, _ := contractBlocks(tt.msg)
			var starts []int
			for _, b := range bs {
				starts = append(starts, b.start)
			}
			if !slices.Equal(starts, tt.starts) {
				t.Fatalf("blocks at %v, want %v", starts, tt.starts)
			}
			if len(bs) > 0 && bs[len(bs)-1].content != tt.content {
				t.Errorf("content %q, want %q", bs[len(bs)-1].content, tt.content)
			}
		})
	}
}

func TestProseAfterBlockIsLint(t *testing.T) {
	_, lints, err := findContract("m.md", []byte("```json:contract\n{}\n```\n\nThanks!\n"))
	if err != nil || len(lints) != 1 || lints[0].Line != 4 {
		t.Errorf("lints %v, err %v; want one at line 4", lints, err)
	}
}
