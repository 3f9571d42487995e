package cli

import (
	"fmt"
	"time"
)

// paceFlag is serve's -pace: a pause before each event, or "recorded",
// each event at the time it arrived when recorded.
type paceFlag struct {
	every    time.Duration
	recorded bool
}

func (p *paceFlag) String() string {
	if p.recorded {
		return "recorded"
	}
	return p.every.String()
}

func (p *paceFlag) Set(s string) error {
	if s == "recorded" {
		*p = paceFlag{recorded: true}
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return fmt.Errorf("want a duration such as 50ms, or recorded")
	}
	*p = paceFlag{every: d}
	return nil
}
