// Package scenarios is the conformance suite: one testscript txtar file per
// case (category first: accept_, demo_, stream_, tool_, harness_, live_),
// each opening with a comment that says what it reproduces and where that
// shape was seen, plus the metamorphic test (every base cassette through
// every benign quirk transform gives the clean transcript).
//
// go test ./scenarios runs them offline and in parallel; -update rewrites
// the golden sections inside the txtar files; -record re-records the
// cassettes they replay (refused when CI=true). The scenario commands are
// documented in package harness.
package scenarios
