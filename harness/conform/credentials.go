package conform

import (
	"slices"
	"strings"

	"github.com/agentvcr/agentvcr/wire"
)

// otherProviders start the variables of model providers' SDKs beyond the
// wire formats' own (whose prefixes providerPrefixes takes from package
// wire).
var otherProviders = []string{
	"AZURE_OPENAI_", "OPENROUTER_", "GEMINI_", "GOOGLE_API_",
	"GOOGLE_GENERATIVE_AI_", "VERTEX_", "MISTRAL_", "GROQ_", "DEEPSEEK_", "XAI_", "COHERE_",
	"TOGETHER_", "FIREWORKS_", "PERPLEXITY_", "CEREBRAS_", "DASHSCOPE_", "MOONSHOT_",
}

// providerPrefixes start the variables of the model providers' SDKs: every
// one of them is dropped, whatever it holds (an organisation, an endpoint,
// a key), since an agent that reads one might reach the provider. They are
// each wire format's own (its key variable's first word: OPENAI_,
// ANTHROPIC_) and otherProviders.
var providerPrefixes = func() []string {
	var out []string
	for _, f := range wire.All() {
		for _, v := range []string{f.KeyEnv, f.BaseURLEnv} {
			if word, _, ok := strings.Cut(v, "_"); ok && !slices.Contains(out, word+"_") {
				out = append(out, word+"_")
			}
		}
	}
	return append(out, otherProviders...)
}()

// credentialWord reports whether one word of a variable's name (the name
// cut at "_", in capitals) says it holds a credential: KEY, APIKEY, TOKEN,
// SECRET, PASSWORD, PASSWD, CREDENTIAL(S) or PAT, alone or ending the word
// (GHTOKEN), and SECRET starting it (SECRETKEY). KEY must be the whole
// word (MONKEY and KEYBOARD are not keys).
func credentialWord(w string) bool {
	switch w {
	case "KEY", "KEYS", "PAT", "CREDENTIAL", "CREDENTIALS", "PASSWD":
		return true
	}
	return strings.HasSuffix(w, "APIKEY") || strings.HasSuffix(w, "TOKEN") || strings.HasSuffix(w, "TOKENS") ||
		strings.HasPrefix(w, "SECRET") || strings.HasSuffix(w, "SECRET") || strings.HasSuffix(w, "PASSWORD")
}

// IsCredential reports whether the variable name names a credential
// ScrubEnv drops: any variable of a model provider (providerPrefixes: the
// wire formats' own, AZURE_OPENAI_*, OPENROUTER_*, GEMINI_*, ...), and
// any whose name has a credential word (*_API_KEY, *_AUTH_TOKEN, *_TOKEN,
// *_SECRET*, *_PASSWORD, *_CREDENTIALS, ...), in any case.
func IsCredential(name string) bool {
	up := strings.ToUpper(name)
	for _, p := range providerPrefixes {
		if strings.HasPrefix(up, p) {
			return true
		}
	}
	return slices.ContainsFunc(strings.Split(up, "_"), credentialWord)
}

// ScrubEnv is env (NAME=VALUE entries) without the credentials (IsCredential)
// not named in pass, in order, and the names it dropped, sorted, each once.
// conform sets its own dummy keys after it.
func ScrubEnv(env, pass []string) (kept, dropped []string) {
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if IsCredential(name) && !slices.Contains(pass, name) {
			dropped = append(dropped, name)
			continue
		}
		kept = append(kept, kv)
	}
	slices.Sort(dropped)
	return kept, slices.Compact(dropped)
}
