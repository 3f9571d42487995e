package conform

import "strings"

// followClean marks the failures of every other case as following from the
// first case's (clean, or replay), when that one fails: a maintainer reads
// the cause first (a 429 retried right was once blamed for what the
// clean case shows too).
func followClean(results []Result) {
	if len(results) == 0 || results[0].Status != Failure || !isFirstCase(results[0].Case.ID) {
		return
	}
	cause := results[0].Case.ID + " fails too (read it first), so this may follow from it: "
	for i := 1; i < len(results); i++ {
		if results[i].Status == Failure {
			results[i].Details = cause + results[i].Details
		}
	}
}

// isFirstCase reports whether id names the case that runs first and alone.
func isFirstCase(id string) bool {
	return id == "clean" || strings.HasSuffix(id, "_clean") || id == "replay"
}
