package conform

import "testing"

func TestCappedBufferKeepsTheStart(t *testing.T) {
	b := &cappedBuffer{max: 5}
	for _, s := range []string{"abc", "defg", "hi"} {
		if n, err := b.Write([]byte(s)); n != len(s) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", s, n, err)
		}
	}
	if got, want := string(b.bytes()), "abcde\n[agentvcr conform: 4 more bytes not kept]\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	small := &cappedBuffer{max: 5}
	small.Write([]byte("ok"))
	if got := string(small.bytes()); got != "ok" {
		t.Errorf("got %q, want %q", got, "ok")
	}
}
