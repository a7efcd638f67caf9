package pipeline

import "time"

// StepTime is what one step of an index run cost: wall time, and the
// process's CPU time (user and system, over all cores) while it ran.
// Steps run one after another, so the CPU is the step's own.
type StepTime struct {
	Name string        `json:"name"`
	Wall time.Duration `json:"wall_ns"`
	CPU  time.Duration `json:"cpu_ns"`
	// Work is, for a document step and for writing, the time spent in it
	// summed over documents. These run at once on every core within the
	// "documents" step, so they have no wall or CPU time of their own.
	Work time.Duration `json:"work_ns,omitempty"`
}

// Timed runs f as the step name and appends what it cost to steps.
func Timed(steps *[]StepTime, name string, f func() error) error {
	t0, c0 := time.Now(), processCPU()
	err := f()
	*steps = append(*steps, StepTime{Name: name, Wall: time.Since(t0), CPU: processCPU() - c0})
	return err
}
