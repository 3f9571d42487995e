// Command genstream writes a stream of one format, built by
// internal/benchstream, for timing `agentvcr merge` on it:
//
//	go run ./tools/bench/genstream -format messages -mib 64 >/tmp/messages.sse
//	/usr/bin/time -v agentvcr merge -api messages /tmp/messages.sse
//
// -format is chat, messages or responses; -mib the least size in MiB. It
// prints the number of tool calls the stream holds to stderr.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/agentvcr/agentvcr/internal/benchstream"
)

func main() {
	format := flag.String("format", "chat", "the stream's `FORMAT`: chat, messages or responses")
	mib := flag.Int("mib", 64, "the stream's least size in `MiB`")
	flag.Parse()
	build := map[string]func(int) ([]byte, int){
		"chat":      benchstream.Chat,
		"messages":  benchstream.Messages,
		"responses": benchstream.Responses,
	}[*format]
	if build == nil {
		fmt.Fprintf(os.Stderr, "genstream: unknown format %q (want chat, messages or responses)\n", *format)
		os.Exit(2)
	}
	stream, calls := build(*mib << 20)
	if _, err := os.Stdout.Write(stream); err != nil {
		fmt.Fprintln(os.Stderr, "genstream:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "genstream: %d bytes, %d tool calls\n", len(stream), calls)
}
