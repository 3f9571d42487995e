// Package benchstream builds the large streams the mergers are measured on,
// one function per format: Chat, Messages and Responses each return a
// stream of at least the size asked for, of tool calls in rounds of three
// whose arguments come in 1 to 6 byte pieces with the envelope the API
// sends, and the number of calls it holds. The merge benchmarks of
// wire/chat, wire/messages and wire/responses use them, and
// tools/bench/genstream writes them to a file for `agentvcr merge`. Nothing
// is committed: a stream is built when it is needed.
package benchstream
