package wire_test

func TestByName(t *testing.T) {
	tests := []struct {
		reason  string
		name    string
		want    *agent.Format
		wantErr string
	}{
		{"chat completions by its name", "chat", chat.Format, ""},
		{"unknown name lists the known ones", "gemini", nil, `unknown api "gemini" (want ` + apiNames() + `)`},
	}
	for _, tt := range tests {
		got, err := wire.ByName(tt.name)
		if got != tt.want || fmt.Sprint(err) != fmt.Sprint(errOrNil(tt.wantErr)) {
			t.Errorf("%s: wire.ByName(%q) = %v, %v; want %v, %s", tt.reason, tt.name, got, err, tt.want, tt.wantErr)
		}
	}
}

func apiNames() string {
	var names []string
	for _, a := range wire.All() {
		names = append(names, a.Name)
	}
	return strings.Join(names, ", ")
}

func errOrNil(s string) error {
	if s == "" {
		return nil
	}
	return errors.New(s)
}

func TestDetect(t *testing.T) {
	tests := []struct {
		reason string
		head   string
		want   *agent.Format
	}{
		{"a chat chunk", `data: {"id":"c","object":"chat.completion.chunk","choices":[]}` + "\n\n", chat.Format},
		{"an event: line of Messages", "event: message_start\ndata: {}\n\n", messages.Format},
		{"Messages data without event: lines", `data: {"type":"message_start","message":{"id":"m"}}` + "\n\n", messages.Format},
		{"a ping first (Messages)", ": comment\r\nevent: ping\r\ndata: {\"type\":\"ping\"}\r\n\r\n", messages.Format},
		{"a content block before message_start", `data: {"type":"content_block_start","index":0}` + "\n\n", messages.Format},
		{"Responses", "event: response.created\ndata: {\"type\":\"response.created\"}\n\n", responses.Format},
		{"an error first, then Messages", "event: error\ndata: {\"type\":\"error\"}\n\nevent: message_start\n", messages.Format},
		{"an error object alone", `data: {"type":"error","error":{"message":"x"}}` + "\n\n", chat.Format},
		{"[DONE] then nothing", "data: [DONE]\n\n", chat.Format},
		{"empty", "", chat.Format},
	}
	for _, tt := range tests {
		if got := wire.Detect([]byte(tt.head)); got != tt.want {
			t.Errorf("%s: Detect = %s, want %s", tt.reason, got.Name, tt.want.Name)
		}
	}
}
