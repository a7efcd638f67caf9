package workspace

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// Holder says who holds the writer lock.
type Holder struct {
	PID     int       `json:"pid"`
	Command string    `json:"command"`
	Since   time.Time `json:"since"`
}

func (h Holder) String() string {
	return fmt.Sprintf("pid %d (%s) since %s", h.PID, h.Command, h.Since.Local().Format("15:04:05"))
}

// ErrLocked is returned by TryLock when another process writes.
var ErrLocked = errors.New("workspace is locked by another writer")

// Lock is a held writer lock. The operating system releases it when the
// process dies, so a killed writer never leaves the workspace locked.
type Lock struct{ f *os.File }

const lockName = "lock"

// TryLock takes the writer lock or fails at once with ErrLocked and the
// holder's description.
func TryLock(dir, command string) (*Lock, error) {
	path := filepath.Join(dir, lockName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open lock %s: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		h := readHolder(f)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w: %s", ErrLocked, h)
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	h := Holder{PID: os.Getpid(), Command: command, Since: time.Now()}
	data, _ := json.Marshal(h)
	f.Truncate(0)
	f.WriteAt(data, 0)
	return &Lock{f: f}, nil
}

// WaitLock takes the writer lock, telling wait (once) who holds it while it
// waits, until ctx ends.
func WaitLock(ctx context.Context, dir, command string, waiting func(string)) (*Lock, error) {
	told := false
	for {
		l, err := TryLock(dir, command)
		if !errors.Is(err, ErrLocked) {
			return l, err
		}
		if !told && waiting != nil {
			waiting(err.Error())
			told = true
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for the workspace lock: %w", ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func readHolder(f *os.File) Holder {
	var h Holder
	buf := make([]byte, 512)
	n, _ := f.ReadAt(buf, 0)
	if json.Unmarshal(buf[:n], &h) != nil {
		return Holder{Command: "unknown"}
	}
	return h
}

// Unlock releases the lock.
func (l *Lock) Unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	l.f.Truncate(0)
	err := syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	l.f.Close()
	l.f = nil
	return err
}
