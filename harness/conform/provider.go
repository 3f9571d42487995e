package conform

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// An echo case checks what one provider wants sent back (Gemini's thought
// signatures, DeepSeek's reasoning_content, Anthropic's thinking blocks,
// OpenAI's reasoning items). An agent that targets other providers need not
// send it: -provider names the ones it targets, and a failing echo case of
// another provider is reported apart (Result.OtherProvider) and does not
// fail the run (opencode and Qwen Code configured for an
// OpenAI-compatible provider failed echo_signature).

// Providers are the names -provider takes, besides "all".
var Providers = []string{"openai", "anthropic", "gemini", "deepseek"}

// ErrUnknownProvider is returned by CheckProviders for a name it does not
// know.
var ErrUnknownProvider = errors.New("unknown provider")

// Provider is the provider an echo case is for ("" for any other case).
func (c Case) Provider() string {
	switch c.Echo {
	case echoSignature:
		return "gemini"
	case echoReasoning:
		return "deepseek"
	case echoThinking:
		return "anthropic"
	case echoReasoningItem:
		return "openai"
	}
	return ""
}

// CheckProviders refuses a -provider name that is neither "all" nor one of
// Providers.
func CheckProviders(names []string) error {
	for _, n := range names {
		if n != "all" && !slices.Contains(Providers, n) {
			return fmt.Errorf("%w %q: want all or one of %s", ErrUnknownProvider, n, strings.Join(Providers, ", "))
		}
	}
	return nil
}

// MarkProviders sets OtherProvider on every echo case's result whose
// provider targets does not name (none when targets is empty or holds
// "all"), and says so first in a failure's details.
func MarkProviders(results []Result, targets []string) {
	if len(targets) == 0 || slices.Contains(targets, "all") {
		return
	}
	for i := range results {
		p := results[i].Case.Provider()
		if p == "" || slices.Contains(targets, p) {
			continue
		}
		results[i].OtherProvider = p
		if results[i].Status == Failure {
			results[i].Details = fmt.Sprintf("for %s, which -provider leaves out: %s", p, results[i].Details)
		}
	}
}
