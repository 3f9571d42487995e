module github.com/agentvcr/agentvcr/examples/markdowncheck

go 1.26.0

require (
	github.com/agentvcr/agentvcr v0.0.0
	github.com/yuin/goldmark v1.8.7
)

require (
	github.com/coder/websocket v1.8.15 // indirect
	github.com/dnaeon/go-vcr/v2 v2.1.0 // indirect
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/rogpeppe/go-internal v1.16.0 // indirect
	golang.org/x/tools v0.26.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)

replace github.com/agentvcr/agentvcr => ../..
