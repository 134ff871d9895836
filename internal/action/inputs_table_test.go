package action

import (
	"slices"
	"testing"
)

// TestInputNamesAreWhatIsRead: readInputs reads exactly the inputs
// InputNames lists (internal/repotest's TestActionInputs holds the table
// against action.yml and the README), and ReadInputs refuses to run when
// it reads one the table does not list.
func TestInputNamesAreWhatIsRead(t *testing.T) {
	var read []string
	_, _ = readInputs(func(name string) string {
		if !slices.Contains(read, name) {
			read = append(read, name)
		}
		return ""
	})
	slices.Sort(read)
	want := slices.Sorted(slices.Values(InputNames))
	if !slices.Equal(read, want) {
		t.Errorf("readInputs reads %q\nInputNames lists %q", read, want)
	}
	if len(slices.Compact(slices.Clone(want))) != len(want) {
		t.Errorf("InputNames lists a name twice: %q", want)
	}
}
