package serve

import (
	"net"
	"testing"
)

func TestListenURL(t *testing.T) {
	tests := []struct {
		ip     net.IP
		url    string
		beyond bool
	}{
		{net.IPv4(127, 0, 0, 1), "http://127.0.0.1:8080/v1", false},
		{net.IPv6loopback, "http://[::1]:8080/v1", false},
		{net.IPv4zero, "http://127.0.0.1:8080/v1", true},
		{net.IPv6unspecified, "http://127.0.0.1:8080/v1", true},
		{net.IPv4(192, 0, 2, 7), "http://192.0.2.7:8080/v1", true},
	}
	for _, tt := range tests {
		url, beyond := ListenURL(&net.TCPAddr{IP: tt.ip, Port: 8080})
		if url != tt.url || beyond != tt.beyond {
			t.Errorf("%s: %s %v, want %s %v", tt.ip, url, beyond, tt.url, tt.beyond)
		}
	}
	want := "agentvcr serve: listening on 192.0.2.7:8080, beyond loopback: every host that can reach that address can use this server"
	if got := Exposure("serve", &net.TCPAddr{IP: net.IPv4(192, 0, 2, 7), Port: 8080}); got != want {
		t.Errorf("Exposure: %s\nwant %s", got, want)
	}
	if got := Exposure("serve", &net.TCPAddr{IP: net.IPv6loopback, Port: 8080}); got != "" {
		t.Errorf("Exposure on loopback: %s", got)
	}
}
