package piece

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		reason string
		s      string
		n      int
		want   []string
	}{
		{"empty", "", 3, nil},
		{"exact", "abcdef", 3, []string{"abc", "def"}},
		{"rest", "abcd", 3, []string{"abc", "d"}},
		{"runes not bytes", "中文字符", 3, []string{"中文字", "符"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, Split(tt.s, tt.n)); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", tt.reason, diff)
		}
	}
}
