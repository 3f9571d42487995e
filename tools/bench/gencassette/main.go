// Command gencassette writes the one-reply cassette replay and serve
// memory are measured on (benchcassette.OneReplyCassette):
//
//	go run ./tools/bench/gencassette -mib 52 >/tmp/big52.yaml
//	/usr/bin/time -f "%e %U %S %M" agentvcr run -cassette /tmp/big52.yaml -C SANDBOX
//
// -mib is the least size of its one answer in MiB; the file is about 9 %
// larger (the YAML indentation of each line).
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/agentvcr/agentvcr/internal/benchcassette"
)

func main() {
	mib := flag.Int("mib", 52, "the answer's least size in `MiB`")
	flag.Parse()
	data, err := benchcassette.OneReplyCassette(*mib << 20)
	if err == nil {
		_, err = os.Stdout.Write(data)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gencassette:", err)
		os.Exit(1)
	}
}
