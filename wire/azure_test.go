package wire_test

import (
	"net/http"
	"testing"

	"github.com/agentvcr/agentvcr/wire"
	"github.com/agentvcr/agentvcr/wire/chat"
	"github.com/agentvcr/agentvcr/wire/responses"
)

// Azure OpenAI is a route of the two OpenAI formats: the registry finds
// them at its deployment paths and at its v1 paths, with or without a
// case prefix, and the key comes from api-key when no bearer is sent.
func TestAzureOpenAIRoutes(t *testing.T) {
	for path, want := range map[string]string{
		"/openai/deployments/gpt-4o/chat/completions":          chat.Format.Name,
		"/openai/v1/chat/completions":                          chat.Format.Name,
		"/s/azure_clean/openai/deployments/o4/responses":       responses.Format.Name,
		"/openai/v1/responses":                                 responses.Format.Name,
		"/openai/responses":                                    responses.Format.Name,
		"/s/c/openai/deployments/gpt-4o-mini/chat/completions": chat.Format.Name,
	} {
		if got := wire.ForPath(path); got == nil || got.Name != want {
			t.Errorf("ForPath(%s) = %v, want %s", path, got, want)
		}
	}
	for _, f := range []string{chat.Format.Name, responses.Format.Name} {
		api, _ := wire.ByName(f)
		h := http.Header{}
		h.Set("api-key", "azure-resource-key")
		if got := api.Key(h); got != "azure-resource-key" {
			t.Errorf("%s: Key with api-key = %q", f, got)
		}
		h.Set("Authorization", "Bearer entra-token")
		if got := api.Key(h); got != "entra-token" {
			t.Errorf("%s: Key with a bearer and api-key = %q, want the bearer", f, got)
		}
	}
}
