package messages

import (
	"net/http"
	"testing"
)

func TestErrorType(t *testing.T) {
	for status, want := range map[int]string{
		http.StatusUnauthorized: "authentication_error", http.StatusNotFound: "not_found_error",
		http.StatusTooManyRequests: "rate_limit_error", 529: "overloaded_error", 503: "api_error", 500: "api_error", 422: "invalid_request_error",
	} {
		if got := ErrorType(status); got != want {
			t.Errorf("ErrorType(%d) = %q, want %q", status, got, want)
		}
	}
}
