module github.com/agentvcr/agentvcr/examples/sdkcheck-bedrock

go 1.26.0

require (
	github.com/aws/aws-sdk-go-v2 v1.47.6
	github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream v1.7.26
	github.com/aws/aws-sdk-go-v2/service/bedrockruntime v1.63.10
	github.com/google/go-cmp v0.7.0
)

require (
	github.com/aws/aws-sdk-go-v2/internal/configsources v1.5.9 // indirect
	github.com/aws/aws-sdk-go-v2/internal/endpoints/v2 v2.8.9 // indirect
	github.com/aws/smithy-go v1.28.8 // indirect
)
