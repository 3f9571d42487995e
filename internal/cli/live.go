package cli

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/harness/cassette"
	"github.com/agentvcr/agentvcr/wire/chat"
)

// liveSettings reads the gateway, model and key of a live run, each from
// its flag or its environment variable, and says what to do when one is
// missing.
func liveSettings(env Env, f runFlags, api *agent.Format) (baseURL, model, key string, err error) {
	baseURL, model, key = f.baseURL, f.model, env.Getenv(api.KeyEnv)
	if baseURL == "" {
		baseURL = env.Getenv(api.BaseURLEnv)
	}
	if model == "" {
		model = env.Getenv("AGENTVCR_MODEL")
	}
	switch {
	case baseURL == "":
		return "", "", "", usageError{fmt.Sprintf("no gateway: pass -base-url URL or set %s (e.g. %s)", api.BaseURLEnv, api.ExampleBaseURL)}
	case model == "":
		return "", "", "", usageError{"no model: pass -model NAME or set AGENTVCR_MODEL"}
	case key == "":
		return "", "", "", fmt.Errorf("%s is not set: export the gateway's key (it is never written to a cassette)", api.KeyEnv)
	}
	return baseURL, model, key, nil
}

// openRecording opens a cassette to record a live run into, refusing in CI.
func openRecording(env Env, path, key string, real http.RoundTripper) (*cassette.Cassette, error) {
	if env.Getenv("CI") == "true" {
		return nil, errors.New("recording is refused when CI=true: record on your machine and commit the cassette")
	}
	return cassette.Open(path, cassette.ModeRecord, real, cassette.Options{Secrets: []string{key}, Log: env.Stderr})
}

// explain turns a run's error into one line that says what to do. Replay
// misses keep their diff: it is the point of the message.
func explain(err error, c *agent.Client) string {
	var (
		timeout   *agent.TimeoutError
		notStream *agent.NotStreamError
		httpErr   *agent.HTTPError
		miss      *cassette.MissError
		streamErr *agent.StreamError
		netErr    *net.OpError
	)
	endpoint, api := "", chat.Format
	if c != nil {
		endpoint, api = c.Endpoint(), c.Format
	}
	switch {
	case errors.As(err, &miss):
		return miss.Error() + "\nif the new request is intended, re-record the cassette (agentvcr run ... -record PATH; go generate ./cassettes for the embedded ones)"
	case errors.As(err, &timeout) && timeout.Idle:
		return fmt.Sprintf("the stream stalled: no event for %s (-idle-timeout %s): run again, or raise -idle-timeout for a model that thinks long before it answers", seconds(timeout.After), seconds(timeout.After))
	case errors.As(err, &timeout):
		return fmt.Sprintf("no response headers from %s within %s (-header-timeout %s): check -base-url and the gateway, or raise -header-timeout", endpoint, seconds(timeout.After), seconds(timeout.After))
	case errors.As(err, &notStream):
		return fmt.Sprintf("%s: check -base-url (%s); it must be the root of an OpenAI-compatible API, usually ending in /v1", notStream.Error(), endpoint)
	case errors.Is(err, agent.ErrBodyTooLarge):
		return fmt.Sprintf("%v (the limit of one answer): the gateway sent far more than one turn; check the gateway", err)
	case errors.Is(err, agent.ErrEventTooLarge):
		return fmt.Sprintf("%v: the gateway sent a line or an event that never ends; check the gateway", err)
	case errors.As(err, &streamErr):
		return fmt.Sprintf("%v (sent by the gateway inside an HTTP 200 stream): run again; if it persists, the gateway or the model is failing", err)
	case errors.As(err, &httpErr):
		switch s := httpErr.StatusCode; {
		case s == http.StatusUnauthorized || s == http.StatusForbidden:
			return fmt.Sprintf("the gateway refused the key (%d %s): check %s", s, http.StatusText(s), api.KeyEnv)
		case s == http.StatusTooManyRequests:
			return fmt.Sprintf("the gateway is rate limiting (%d %s): wait a minute and run again, or use a key with more quota", s, http.StatusText(s))
		case s == http.StatusNotFound:
			return fmt.Sprintf("%s answered 404: check -base-url (it usually ends in /v1) and -model: %s", endpoint, strings.Join(strings.Fields(httpErr.Body), " "))
		case s >= 500:
			return fmt.Sprintf("the gateway failed (%d %s): try again later or another gateway", s, http.StatusText(s))
		default:
			return fmt.Sprintf("the gateway refused the request (%d %s): %s", s, http.StatusText(s), strings.Join(strings.Fields(httpErr.Body), " "))
		}
	case errors.As(err, &netErr) && netErr.Op == "dial":
		return fmt.Sprintf("cannot reach the gateway at %s (%v): check -base-url or %s and the network", endpoint, netErr.Err, api.BaseURLEnv)
	case errors.Is(err, agent.ErrTurnLimit):
		return err.Error() + ": raise -max-turns, or ask a narrower question"
	default:
		return err.Error()
	}
}

// seconds prints a duration the way its flag is written: "60s", "1.5s", "250ms".
func seconds(d time.Duration) string {
	switch {
	case d%time.Second == 0:
		return fmt.Sprintf("%ds", d/time.Second)
	case d >= time.Second:
		return fmt.Sprintf("%gs", d.Seconds())
	}
	return d.String()
}
