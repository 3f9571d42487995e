// Package streamtest holds what the tests of the agent core and of every
// wire format share: readers that deliver a stream the way a network does
// (PieceReader in seeded random sizes, SplitReader in given pieces), the
// fixture lister, the re-chunking fuzz body run over each format's fixtures,
// and a tool-call constructor. Only tests import it.
package streamtest
