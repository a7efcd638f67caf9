//go:build unix

package embed

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time this process has used, for training figures that
// do not depend on how busy the machine is.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
