// Package openai holds what OpenAI's two formats (chat completions and the
// Responses API) share on the wire: the Bearer key and the error body.
package openai

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/http"
	"strings"
)

// BearerHeader sends key as "Authorization: Bearer <key>".
func BearerHeader(h http.Header, key string) {
	if key != "" {
		h.Set("Authorization", "Bearer "+key)
	}
}

// BearerKey is the key of an "Authorization: Bearer <key>" header, or,
// with none, of an "api-key" header: Azure OpenAI's, which takes either
// (a resource key in api-key, an Entra ID token or a key as the bearer).
func BearerKey(h http.Header) string {
	if key, ok := strings.CutPrefix(h.Get("Authorization"), "Bearer "); ok {
		return key
	}
	return h.Get(AzureKeyHeader)
}

// AzureKeyHeader is the header Azure OpenAI reads a resource key from.
const AzureKeyHeader = "api-key"

// ErrorBody is OpenAI's error body, {"error":{"message","type","code"}}, the
// shape both formats answer a refused request with. status does not change
// it.
func ErrorBody(status int, code, message string) []byte {
	body, _ := json.Marshal(map[string]any{"error": map[string]any{
		"message": message, "type": "invalid_request_error", "code": code,
	}})
	return body
}

// CallID is a stable call id in the shape OpenAI uses ("call_" and 24
// characters), made from a conversation's name, a turn's index and a call's
// position: both OpenAI formats give a conversation the same ids.
func CallID(conversation string, turn, i int) string {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s/%d/%d", conversation, turn, i)
	return fmt.Sprintf("call_%016x%08d", h.Sum64(), turn*100+i)
}

// Created is the fixed "created" stamp of every written stream, so that
// recordings are the same bytes on every run.
const Created = 1767225600
