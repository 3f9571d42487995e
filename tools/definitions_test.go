package tools

import (
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentvcr/agentvcr/internal/golden"
)

// TestDefinitionsGolden keeps every name, description and schema sent to the
// model in a golden file: any edit shows up in review (and breaks cassettes).
func TestDefinitionsGolden(t *testing.T) {
	for _, lang := range []Lang{ZH, EN} {
		defs := Default(nil, lang).Definitions()
		got, err := json.MarshalIndent(defs, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, '\n')
		path := "testdata/definitions." + string(lang) + ".golden.json"
		golden.Check(t, path, got)
	}
}

// TestDefinitionWireShape: a definition marshals to the chat-completions
// shape, with the schema compact and keys in a fixed order.
func TestDefinitionWireShape(t *testing.T) {
	defs := Default(nil, EN).Definitions()
	b, err := json.Marshal(defs[0])
	if err != nil {
		t.Fatal(err)
	}
	prefix := `{"type":"function","function":{"name":"glob","description":"List the files`
	if !strings.HasPrefix(string(b), prefix) {
		t.Errorf("wire JSON starts %.80s, want %s", b, prefix)
	}
	if want := `"parameters":{"type":"object","properties":{"pattern":{"type":"string","description":`; !strings.Contains(string(b), want) {
		t.Errorf("wire JSON lacks %s", want)
	}
	if strings.ContainsAny(string(b), "<>&") || strings.Contains(string(b), `\u00`) {
		t.Errorf("descriptions must not need HTML escaping: %s", b)
	}
}

// TestDescriptionsFollowTheRules: every parameter has a description that
// states its default or says it is required, additionalProperties is false,
// and each tool description gives an example.
func TestDescriptionsFollowTheRules(t *testing.T) {
	for _, lang := range []Lang{ZH, EN} {
		for _, d := range Default(nil, lang).Definitions() {
			var s struct {
				Properties map[string]struct {
					Description string `json:"description"`
				} `json:"properties"`
				AdditionalProperties *bool `json:"additionalProperties"`
			}
			if err := json.Unmarshal(d.Function.Parameters, &s); err != nil {
				t.Fatal(err)
			}
			if s.AdditionalProperties == nil || *s.AdditionalProperties {
				t.Errorf("%s/%s: additionalProperties must be false", lang, d.Function.Name)
			}
			for name, p := range s.Properties {
				if !regexp.MustCompile(`默认|必填|Default|Required`).MatchString(p.Description) {
					t.Errorf("%s/%s.%s: description states no default: %q", lang, d.Function.Name, name, p.Description)
				}
			}
			if !regexp.MustCompile(`(例子|Example)s?：?:? ?\{`).MatchString(d.Function.Description) {
				t.Errorf("%s/%s: description has no example", lang, d.Function.Name)
			}
		}
	}
}

var verb = regexp.MustCompile(`%[-+# 0*]*[0-9]*[vdsqx]`)

// TestLocalesMatch: every text exists in both locales, with the same fmt
// verbs in the same order.
func TestLocalesMatch(t *testing.T) {
	zh, en := reflect.ValueOf(zhTexts), reflect.ValueOf(enTexts)
	for i := 0; i < zh.NumField(); i++ {
		name := zh.Type().Field(i).Name
		if zh.Field(i).Kind() == reflect.Map {
			if diff := cmp.Diff(mapKeys(zh.Field(i)), mapKeys(en.Field(i))); diff != "" {
				t.Errorf("%s keys (-zh +en):\n%s", name, diff)
			}
			continue
		}
		z, e := zh.Field(i).String(), en.Field(i).String()
		if z == "" || e == "" {
			t.Errorf("%s is empty in a locale", name)
		}
		if diff := cmp.Diff(verb.FindAllString(z, -1), verb.FindAllString(e, -1)); diff != "" {
			t.Errorf("%s verbs (-zh +en):\n%s", name, diff)
		}
	}
}

func mapKeys(v reflect.Value) map[string]bool {
	out := map[string]bool{}
	for _, k := range v.MapKeys() {
		out[k.String()] = true
	}
	return out
}

// TestLimitsHaveOneSource: no text of either locale spells a limit out; each
// is filled in from limits.go, so the schema, the code and the texts cannot
// drift apart.
func TestLimitsHaveOneSource(t *testing.T) {
	spelled := regexp.MustCompile(`\b(400|200|50|120|500|8000)\b`)
	for lang, c := range map[Lang]catalog{ZH: zhTexts, EN: enTexts} {
		v := reflect.ValueOf(c)
		for i := 0; i < v.NumField(); i++ {
			if v.Field(i).Kind() != reflect.String {
				continue
			}
			if m := spelled.FindString(v.Field(i).String()); m != "" {
				t.Errorf("%s.%s spells out the limit %s: use a verb and the constant", lang, v.Type().Field(i).Name, m)
			}
		}
	}
	// The rendered definitions do state them.
	for _, lang := range []Lang{ZH, EN} {
		defs, err := json.Marshal(Default(nil, lang).Definitions())
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []string{"400", "200", "50", "120", "500", "8000"} {
			if !regexp.MustCompile(`\b` + n + `\b`).Match(defs) {
				t.Errorf("%s definitions do not state %s", lang, n)
			}
		}
	}
}
