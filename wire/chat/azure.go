package chat

// AzureEnv is what points Azure OpenAI's SDK clients (AzureOpenAI in
// openai-python and openai-node) at a server whose root is root, as
// name and value pairs: the resource's endpoint, a key, and an API
// version (a generally available one of its data-plane API). They post to
// {endpoint}/openai/deployments/{model}/...?api-version=...
func AzureEnv(root, key string) [][2]string {
	return [][2]string{{"AZURE_OPENAI_ENDPOINT", root}, {"AZURE_OPENAI_API_KEY", key}, {"OPENAI_API_VERSION", "2024-10-21"}}
}

// AzureUsage is the usage texts' line on Azure OpenAI, a route of the two
// OpenAI formats: the paths they are served on there, and its key.
const AzureUsage = "  Azure OpenAI: chat or responses at {endpoint}/openai/deployments/DEPLOYMENT/chat/completions\n" +
	"             (or .../responses) ?api-version=V, or at {endpoint}/openai/v1/...; key in api-key or the bearer\n"
