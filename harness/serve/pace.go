package serve

import "time"

// A pacer says how long to wait before each event of one streamed reply:
// Route.Pace each, or under Route.PaceRecorded until the event's recorded
// time (Reply.At, over Route.Speed) since start.
type pacer struct {
	every    time.Duration
	at       []time.Duration
	speed    float64
	start    time.Time
	recorded bool
}

func newPacer(route *Route, reply Reply, start time.Time) pacer {
	speed := route.Speed
	if speed <= 0 {
		speed = 1
	}
	if route.PaceRecorded {
		return pacer{at: reply.At, speed: speed, start: start, recorded: true}
	}
	return pacer{every: route.Pace}
}

// paced reports whether any event waits.
func (p pacer) paced() bool {
	return p.every > 0 || (p.recorded && len(p.at) > 0)
}

// before is the wait before event i (from 0), at now.
func (p pacer) before(i int, now time.Time) time.Duration {
	if !p.recorded {
		return p.every
	}
	if len(p.at) == 0 {
		return 0
	}
	due := time.Duration(float64(p.at[min(i, len(p.at)-1)]) / p.speed)
	return p.start.Add(due).Sub(now)
}
