package main

import (
	"fmt"
	"os"
)

func main() {
	dir := "."
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	if err := generate(dir); err != nil {
		fmt.Fprintf(os.Stderr, "gencassettes: %v\n", err)
		os.Exit(1)
	}
}
