package wire

import (
	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/wire/chat"
)

// BaseURL is f's base URL on a server whose root URL is root: what its
// BaseURLEnv variable should hold ("http://127.0.0.1:8080/v1" for chat
// completions, the root itself for Anthropic Messages).
func BaseURL(f *agent.Format, root string) string { return root + f.BasePath }

// Env is the environment that points an agent of any format at a server
// whose root URL is root: every format's base URL variable (BaseURL) and its
// key variable set to key, as NAME=value, in All's order, each name once,
// then Azure OpenAI's endpoint, key and API version.
func Env(root, key string) []string {
	var env []string
	seen := map[string]bool{}
	azure := chat.AzureEnv(root, key) // a route of the OpenAI formats
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
