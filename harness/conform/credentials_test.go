package conform

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// planted are credentials as a developer's shell holds them.
var planted = []string{
	"OPENAI_API_KEY=real-openai", "OPENAI_ORG_ID=real-org", "ANTHROPIC_API_KEY=real-anthropic",
	"ANTHROPIC_AUTH_TOKEN=real-anthropic-token", "OPENROUTER_API_KEY=real-openrouter", "GEMINI_API_KEY=real-gemini",
	"GOOGLE_API_KEY=real-google", "AZURE_OPENAI_API_KEY=real-azure", "AZURE_OPENAI_ENDPOINT=real-azure-endpoint",
	"MISTRAL_API_KEY=real-mistral", "AWS_SECRET_ACCESS_KEY=real-aws", "AWS_SESSION_TOKEN=real-aws-session",
	"GITHUB_TOKEN=real-github", "GH_PAT=real-pat", "MY_SERVICE_SECRET_ID=real-secret", "db_password=real-db",
	"GOOGLE_APPLICATION_CREDENTIALS=real-gcp-file", "api_key=real-lower", "NPM_TOKEN=real-npm",
	"KEEP_ME_TOKEN=kept-on-purpose",
}

func TestScrubEnv(t *testing.T) {
	harmless := []string{"PATH=/usr/bin", "HOME=/home/dev", "MONKEY=1", "KEYBOARD=us", "TOKENIZERS_PARALLELISM=false", "PWD=/src", "NOEQUALS"}
	kept, dropped := ScrubEnv(append(slices.Clone(harmless), planted...), []string{"KEEP_ME_TOKEN"})
	if diff := cmp.Diff(append(harmless, "KEEP_ME_TOKEN=kept-on-purpose"), kept); diff != "" {
		t.Errorf("kept (-want +got):\n%s", diff)
	}
	want := []string{"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
		"AZURE_OPENAI_API_KEY", "AZURE_OPENAI_ENDPOINT", "GEMINI_API_KEY", "GH_PAT", "GITHUB_TOKEN",
		"GOOGLE_API_KEY", "GOOGLE_APPLICATION_CREDENTIALS", "MISTRAL_API_KEY", "MY_SERVICE_SECRET_ID", "NPM_TOKEN",
		"OPENAI_API_KEY", "OPENAI_ORG_ID", "OPENROUTER_API_KEY", "api_key", "db_password"}
	if diff := cmp.Diff(want, dropped); diff != "" {
		t.Errorf("dropped (-want +got):\n%s", diff)
	}
}

// An agent that prints its environment sees no credential of conform's but
// the one passed on purpose, and conform's dummies.
func TestCredentialsDoNotReachTheAgent(t *testing.T) {
	only, _ := SelectCases(Cases(), []string{"clean"})
	cmd := hostileCommand(t, hostileEnv, t.TempDir(), planted...)
	cmd.PassEnv = []string{"KEEP_ME_TOKEN"}
	results, err := Run(context.Background(), Options{Folder: agentFolder, Command: cmd, Cases: only, Timeout: slow * 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, line := range strings.Split(string(results[0].Stdout), "\n") {
		if strings.Contains(line, "real-") || strings.HasSuffix(line, "_API_KEY="+DummyKey) || strings.HasPrefix(line, "KEEP_ME_TOKEN=") {
			got = append(got, line)
		}
	}
	want := []string{"ANTHROPIC_API_KEY=" + DummyKey, "AZURE_OPENAI_API_KEY=" + DummyKey, "GEMINI_API_KEY=" + DummyKey, "KEEP_ME_TOKEN=kept-on-purpose", "OPENAI_API_KEY=" + DummyKey}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the agent's credentials (-want +got):\n%s", diff)
	}
}
