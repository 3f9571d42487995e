package sse

import "testing"

func TestIsEventStream(t *testing.T) {
	for _, tt := range []struct {
		ct   string
		want bool
	}{
		{"text/event-stream", true},
		{"Text/Event-Stream", true},
		{"TEXT/EVENT-STREAM; charset=utf-8", true},
		{"text/event-stream;charset=UTF-8", true},
		{" text/event-stream ", true},
		{"application/json", false},
		{"text/event-streamx", false},
		{"", false},
		{"text/event-stream; =broken", true},
		{"text/", false},
	} {
		if got := IsEventStream(tt.ct); got != tt.want {
			t.Errorf("IsEventStream(%q) = %v, want %v", tt.ct, got, tt.want)
		}
	}
}
