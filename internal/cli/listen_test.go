package cli

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
)

// wildcardListener listens on loopback (tests never listen beyond it) but
// reports the wildcard address the command was asked for.
type wildcardListener struct {
	net.Listener
	ip net.IP
}

func (l wildcardListener) Addr() net.Addr {
	return &net.TCPAddr{IP: l.ip, Port: l.Listener.Addr().(*net.TCPAddr).Port}
}

// asIfWildcard makes serve and record see ip as the address they listen
// on, for the test's duration.
func asIfWildcard(t *testing.T, ip net.IP) {
	old := listenTCP
	listenTCP = func(string) (net.Listener, error) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		return wildcardListener{ln, ip}, err
	}
	t.Cleanup(func() { listenTCP = old })
}

// A server on every interface says so on stderr, and its first stdout
// line is a URL that works (serve once printed a loopback URL and
// nothing else, record http://[::]:PORT).
func TestServeAndRecordSayWhenTheyListenBeyondLoopback(t *testing.T) {
	for _, ip := range []net.IP{net.IPv4zero, net.IPv6unspecified} {
		t.Run("serve "+ip.String(), func(t *testing.T) {
			asIfWildcard(t, ip)
			base, stderr := startServe(t, t.TempDir(), "-listen", "0.0.0.0:0")
			port := base[strings.LastIndex(base, ":")+1 : len(base)-len("/v1")]
			if want := "http://127.0.0.1:" + port + "/v1"; base != want {
				t.Errorf("base URL %s, want %s", base, want)
			}
			resp, err := http.Get(base + "/models")
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			want := fmt.Sprintf("agentvcr serve: listening on %s, beyond loopback: every host that can reach this machine on port %s can use this server; from another host, use this machine's address in place of 127.0.0.1\n",
				net.JoinHostPort(ip.String(), port), port)
			if resp.StatusCode != http.StatusOK || !strings.HasPrefix(stderr.String(), want) {
				t.Errorf("GET models: %d; stderr:\n%s\nwant it to start:\n%s", resp.StatusCode, stderr, want)
			}
		})
		t.Run("record "+ip.String(), func(t *testing.T) {
			asIfWildcard(t, ip)
			base, stop := startRecord(t, t.TempDir(), nil, "-upstream", "http://127.0.0.1:1/v1", "-o", "rec.yaml", "-listen", "[::]:0")
			port := base[strings.LastIndex(base, ":")+1 : len(base)-len("/v1")]
			resp, err := http.Post(base+"/chat/completions", "application/json", strings.NewReader(`{}`))
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			_, stderr := stop()
			want := fmt.Sprintf("agentvcr record: listening on %s, beyond loopback: every host that can reach this machine on port %s can use this server; from another host, use this machine's address in place of 127.0.0.1\n",
				net.JoinHostPort(ip.String(), port), port)
			if base != "http://127.0.0.1:"+port+"/v1" || resp.StatusCode != http.StatusBadGateway || !strings.HasPrefix(stderr, want) {
				t.Errorf("base %s, POST %d; stderr:\n%s\nwant it to start:\n%s", base, resp.StatusCode, stderr, want)
			}
		})
	}
}

// Neither the userinfo nor a secret query value of -upstream is printed
// ("forwarding to" once printed them).
func TestRecordPrintsNoUpstreamCredential(t *testing.T) {
	_, stop := startRecord(t, t.TempDir(), nil, "-upstream", "http://me:pw-cli-never-printed@127.0.0.1:1/v1?key=AIzaSy-cli-never-printed-1", "-o", "rec.yaml")
	_, stderr := stop()
	if strings.Contains(stderr, "never-printed") || !strings.HasPrefix(stderr, "agentvcr record: forwarding to http://127.0.0.1:1/v1?key=REDACTED; Ctrl-C saves rec.yaml\n") {
		t.Errorf("stderr:\n%s", stderr)
	}
}

// -max-body lowers the bound of a request body: over it is 413.
func TestServeMaxBodyFlag(t *testing.T) {
	base, _ := startServe(t, t.TempDir(), "-max-body", "1KiB", "-read-timeout", "5s")
	resp, err := http.Post(base+"/chat/completions", "application/json", strings.NewReader(`{"pad":"`+strings.Repeat("x", 1024)+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	want := `{"error":{"code":"request_too_large","message":"cannot read the request body: the body is too large: over 1024 bytes (agentvcr serve -max-body)","type":"invalid_request_error"}}` + "\n"
	if resp.StatusCode != http.StatusRequestEntityTooLarge || string(body) != want {
		t.Errorf("%d %s\nwant 413 %s", resp.StatusCode, body, want)
	}
	for _, bad := range []string{"0", "-1", "1TB", "x"} {
		code, _, stderr := runIn(t.TempDir(), nil, "serve", "-max-body-total", bad)
		want := `invalid value "` + bad + `" for flag -max-body-total: want a positive whole number of bytes, KiB, MiB or GiB, e.g. 32MiB`
		if code != 2 || !strings.HasPrefix(stderr, want) {
			t.Errorf("-max-body-total %s: exit %d: %s", bad, code, stderr)
		}
	}
	for _, bad := range []string{"0", "-1", "1TB", "x"} {
		code, _, stderr := runIn(t.TempDir(), nil, "serve", "-max-body", bad)
		want := `invalid value "` + bad + `" for flag -max-body: want a positive whole number of bytes, KiB, MiB or GiB, e.g. 32MiB`
		if code != 2 || !strings.HasPrefix(stderr, want) {
			t.Errorf("-max-body %s: exit %d: %s", bad, code, stderr)
		}
	}
}
