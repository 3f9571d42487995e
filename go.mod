module github.com/agentvcr/agentvcr

go 1.26

require (
	github.com/dnaeon/go-vcr/v2 v2.1.0 // indirect
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/rogpeppe/go-internal v1.16.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)
