module github.com/agentvcr/agentvcr

go 1.26

require (
	github.com/coder/websocket v1.8.15
	github.com/dnaeon/go-vcr/v2 v2.1.0
	github.com/google/go-cmp v0.7.0
	github.com/rogpeppe/go-internal v1.16.0
	gopkg.in/yaml.v3 v3.0.1
)

require (
	golang.org/x/sys v0.26.0 // indirect
	golang.org/x/tools v0.26.0 // indirect
)
