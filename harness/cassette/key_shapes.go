package cassette

import (
	"regexp"
	"strings"
)

// A keyShape is one shape of credential a provider publishes, found by the
// secret scan in a recording although no configured secret named it: a key
// pasted into a prompt, echoed back by an upstream, or sent in a header
// whose name does not say it is a credential.
type keyShape struct {
	name     string         // in the scan's findings: "a Google API key (AIza)"
	literals []string       // the pattern is asked only of a text holding one of them
	pattern  *regexp.Regexp // the whole credential
}

// keyShapes are the shapes the scan looks for, most specific first: a
// match is cut out of the text before the shapes after it are asked, so an
// Anthropic key is reported as one and not also as an sk- key. The lengths
// are those the providers document or issue; each pattern ends where a
// character that cannot be part of the credential follows (or the text
// ends), so a longer run of the same characters is not taken for it.
var keyShapes = []keyShape{
	{"an Anthropic key (sk-ant-)", []string{"sk-ant-"},
		regexp.MustCompile(`\bsk-ant-[a-z]+[0-9]{2}-[A-Za-z0-9_-]{32,}`)},
	{"an OpenAI project key (sk-proj-)", []string{"sk-proj-"},
		regexp.MustCompile(`\bsk-proj-[A-Za-z0-9_-]{20,}`)},
	{"an sk- key", []string{"sk-"},
		regexp.MustCompile(`\bsk-[A-Za-z0-9_-]{16,}`)},
	{"a Google API key (AIza)", []string{"AIza"},
		regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}(?:[^0-9A-Za-z_-]|$)`)},
	{"a Google OAuth token (ya29.)", []string{"ya29."},
		regexp.MustCompile(`\bya29\.[0-9A-Za-z_-]{20,}`)},
	{"an AWS access key id (AKIA, ASIA)", []string{"AKIA", "ASIA"},
		regexp.MustCompile(`\b(?:AKIA|ASIA)[A-Z2-7]{16}\b`)},
	// A secret access key is 40 characters of base64 with nothing of its
	// own to tell it from other base64: it is found next to its name, as
	// the AWS CLI's files, its environment variables and STS's JSON answers
	// write it (aws_secret_access_key = …, AWS_SECRET_ACCESS_KEY=…,
	// "SecretAccessKey": "…").
	{"an AWS secret access key", []string{"ecret", "ECRET"},
		regexp.MustCompile(`(?i)secret_?access_?key\\?["']?\s*[:=]\s*\\?["']?[A-Za-z0-9/+]{40}(?:[^A-Za-z0-9/+=]|$)`)},
	{"a GitHub token (ghp_, gho_, ghu_, ghs_, ghr_)", []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"},
		regexp.MustCompile(`\bgh[pousr]_[A-Za-z0-9]{36}\b`)},
	{"a GitHub token (github_pat_)", []string{"github_pat_"},
		regexp.MustCompile(`\bgithub_pat_[A-Za-z0-9_]{82}\b`)},
	// A JWT is three base64url parts, the first two JSON objects ("eyJ" is
	// the encoding of `{"`); a bearer token of OAuth, OIDC and many
	// gateways is one. An unsigned one (an empty third part) is not taken.
	{"a JWT (eyJ….eyJ….…)", []string{"eyJ"},
		regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}`)},
}

// keysIn returns the indexes in keyShapes of the shapes text holds.
func keysIn(text string) []int {
	var found []int
	for k, shape := range keyShapes {
		if !containsAny(text, shape.literals) || !shape.pattern.MatchString(text) {
			continue
		}
		found = append(found, k)
		text = shape.pattern.ReplaceAllLiteralString(text, " ")
	}
	return found
}

func containsAny(text string, literals []string) bool {
	for _, l := range literals {
		if strings.Contains(text, l) {
			return true
		}
	}
	return false
}
