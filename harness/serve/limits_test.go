package serve

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentvcr/agentvcr/wire"
)

// A body over the bound is 413, in the shape of the errors of the format
// whose path it was posted to (it was once 400). The bound is lowered
// to 64 KiB (TestServeRefusesAnOversizedBody posts over the default one).
func TestServeAnswers413InTheFormatsShape(t *testing.T) {
	router := &CassetteRouter{Cassettes: servedCassettes(t, "parallel")}
	base := serveOn(t, &Server{Route: router.Route, MaxBody: 64 << 10})
	root := strings.TrimSuffix(base, "/v1")
	for _, f := range wire.All() {
		t.Run(f.Name, func(t *testing.T) {
			body := io.MultiReader(strings.NewReader("{"), io.LimitReader(zeros{}, 64<<10))
			resp, err := http.Post(root+f.BasePath+f.Path("m"), "application/json", body)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			got, _ := io.ReadAll(resp.Body)
			want := string(f.ErrorBody(http.StatusRequestEntityTooLarge, "request_too_large",
				"cannot read the request body: the body is too large: over 65536 bytes (agentvcr serve -max-body)")) + "\n"
			if resp.StatusCode != http.StatusRequestEntityTooLarge || string(got) != want {
				t.Errorf("%d %s\nwant 413 %s", resp.StatusCode, got, want)
			}
		})
	}
}

// MaxBody lowers the bound; a declared length over it is refused before
// a byte of the body is read.
func TestServeMaxBody(t *testing.T) {
	router := &CassetteRouter{Cassettes: servedCassettes(t, "parallel")}
	var log bytes.Buffer
	base := serveOn(t, &Server{Route: router.Route, MaxBody: 1024, Log: &syncWriter{w: &log}})
	for _, n := range []int{1025, 64 << 20} {
		req, _ := http.NewRequest(http.MethodPost, base+"/chat/completions", io.LimitReader(zeros{}, int64(n)))
		req.ContentLength = int64(n)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		want := `{"error":{"code":"request_too_large","message":"cannot read the request body: the body is too large: over 1024 bytes (agentvcr serve -max-body)","type":"invalid_request_error"}}` + "\n"
		if resp.StatusCode != http.StatusRequestEntityTooLarge || string(got) != want {
			t.Errorf("%d bytes: %d %s\nwant 413 %s", n, resp.StatusCode, got, want)
		}
	}
}

// 40 clients that declare 32 MiB, send 1 KiB and go silent are each
// answered 408 and dropped once ReadTimeout has passed (they were once
// held for ever).
func TestServeDropsSilentClients(t *testing.T) {
	router := &CassetteRouter{Cassettes: servedCassettes(t, "parallel")}
	base := serveOn(t, &Server{Route: router.Route, ReadTimeout: 200 * time.Millisecond})
	host := strings.TrimPrefix(strings.TrimSuffix(base, "/v1"), "http://")
	head := fmt.Sprintf("POST /v1/chat/completions HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{", host, 32<<20)
	var wg sync.WaitGroup
	results := make([]string, 40)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			conn, err := net.Dial("tcp", host)
			if err != nil {
				results[i] = err.Error()
				return
			}
			defer conn.Close()
			if _, err := io.WriteString(conn, head+strings.Repeat(" ", 1023)); err != nil {
				results[i] = err.Error()
				return
			}
			conn.SetReadDeadline(time.Now().Add(20 * time.Second)) // far past ReadTimeout: not dropped at all
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				results[i] = "no answer: " + err.Error()
				return
			}
			body, _ := io.ReadAll(resp.Body)
			_, err = conn.Read(make([]byte, 1))
			results[i] = fmt.Sprintf("%d %s then %v", resp.StatusCode, body, err)
		}()
	}
	wg.Wait()
	want := `408 {"error":{"code":"request_timeout","message":"cannot read the request body: the body did not arrive in time: no whole body within 200ms (agentvcr serve -read-timeout)","type":"invalid_request_error"}}` + "\n then EOF"
	for i, got := range results {
		if got != want {
			t.Fatalf("client %d: %s\nwant %s", i+1, got, want)
		}
	}
}

// No body outlives its answer: what the server remembers across requests
// (model and turn per body, the bodies a 429 fault refused once) holds a
// sum of each body, not the body (60 distinct 8 MiB requests once left
// 927 MiB resident).
func TestServeKeepsNoBody(t *testing.T) {
	router := &CassetteRouter{Cassettes: servedCassettes(t, "parallel"), Fault: Fault{Kind: Fault429}}
	s := &Server{Route: router.Route}
	base := serveOn(t, s)
	for i := range 60 {
		body := fmt.Sprintf(`{"model":"parallel","messages":[{"role":"user","content":"%d %s"}]}`, i, strings.Repeat("x", 64<<10))
		resp, err := http.Post(base+"/chat/completions", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusTooManyRequests {
			t.Fatalf("request %d: %d, want the fault's 429", i, resp.StatusCode)
		}
	}
	held := 0
	s.infoMu.RLock()
	held += heldBytes(reflect.ValueOf(s.info))
	s.infoMu.RUnlock()
	s.refused.Range(func(k, _ any) bool {
		held += heldBytes(reflect.ValueOf(k))
		return true
	})
	if held > 60*64 {
		t.Errorf("the server holds %d bytes of 60 answered requests of 64 KiB each", held)
	}
}

// heldBytes counts the bytes of the strings and byte arrays in v.
func heldBytes(v reflect.Value) int {
	switch v.Kind() {
	case reflect.String:
		return v.Len()
	case reflect.Array:
		return v.Len()
	case reflect.Map:
		n := 0
		for it := v.MapRange(); it.Next(); {
			n += heldBytes(it.Key())
		}
		return n
	case reflect.Struct:
		n := 0
		for i := range v.NumField() {
			n += heldBytes(v.Field(i))
		}
		return n
	case reflect.Interface:
		return heldBytes(v.Elem())
	}
	return 0
}

// A near miss with an extra 1 MiB member, 64 times the summary's bound:
// the 404 and the log carry a summary of the diff, the journal the whole
// diff (an 8 MiB one once sent 9.3 MB to stderr).
func TestServeBoundsTheMissDiff(t *testing.T) {
	var log, journal bytes.Buffer
	router := &CassetteRouter{Cassettes: servedCassettes(t, "demo")}
	base := serveOn(t, &Server{Route: router.Route, Log: &syncWriter{w: &log}, Journal: &syncWriter{w: &journal}})
	const padding = 1 << 20
	body := nearMiss(t, padding)
	resp, err := http.Post(base+"/chat/completions", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	answer, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("%d, want 404", resp.StatusCode)
	}
	cut := `+ 	  "padding": "xxxxxxxxxx`
	for what, text := range map[string]string{"404 body": string(answer), "log": log.String()} {
		if len(text) > 16<<10 || !strings.Contains(strings.ReplaceAll(text, "\u00a0", " "), "… (1048592 bytes, sha256 ") {
			t.Errorf("%s: %d bytes, want a summary under 16 KiB that cuts the long line:\n%.2000s", what, len(text), text)
		}
	}
	if !strings.Contains(strings.ReplaceAll(log.String(), "\u00a0", " "), cut) {
		t.Errorf("the log does not show the first difference %q:\n%.2000s", cut, log.String())
	}
	var entry JournalEntry
	if err := json.Unmarshal(journal.Bytes(), &entry); err != nil {
		t.Fatal(err)
	}
	if strings.Count(entry.Diff, "x") < padding || len(entry.Error) > 16<<10 {
		t.Errorf("journal: diff of %d bytes, error of %d bytes: want the whole diff and the summary", len(entry.Diff), len(entry.Error))
	}
}

// syncWriter serialises writes from the server's goroutines with the
// test's reads.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
