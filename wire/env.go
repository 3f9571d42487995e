package wire

import "github.com/agentvcr/agentvcr/agent"

// BaseURL is f's base URL on a server whose root URL is root: what its
// BaseURLEnv variable should hold ("http://127.0.0.1:8080/v1" for chat
// completions, the root itself for Anthropic Messages).
func BaseURL(f *agent.Format, root string) string { return root + f.BasePath }

// AzureAPIVersion is the api-version Env gives Azure OpenAI's clients: a
// generally available version of its data-plane API.
const AzureAPIVersion = "2024-10-21"

// Env is the environment that points an agent of any format at a server
// whose root URL is root: every format's base URL variable (BaseURL) and its
// key variable set to key, as NAME=value, in All's order, each name once,
// then Azure OpenAI's endpoint, key and API version.
func Env(root, key string) []string {
	var env []string
	seen := map[string]bool{}
	// Azure OpenAI, a route of the OpenAI formats: its SDK clients
	// (AzureOpenAI in openai-python and openai-node) read the resource's
	// endpoint, a key and an API version, and post to
	// {endpoint}/openai/deployments/{model}/...?api-version=...
	azure := [][2]string{{"AZURE_OPENAI_ENDPOINT", root}, {"AZURE_OPENAI_API_KEY", key}, {"OPENAI_API_VERSION", AzureAPIVersion}}
	var pairs [][2]string
	for _, f := range All() {
		pairs = append(pairs, [2]string{f.BaseURLEnv, BaseURL(f, root)}, [2]string{f.KeyEnv, key})
	}
	for _, kv := range append(pairs, azure...) {
		if !seen[kv[0]] {
			seen[kv[0]] = true
			env = append(env, kv[0]+"="+kv[1])
		}
	}
	return env
}
