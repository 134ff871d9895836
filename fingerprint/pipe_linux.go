package fingerprint

import (
	"os"
	"syscall"
)

// pipeSize is the capacity asked for the pipe git writes objects into:
// enough for git to run well ahead of the reader (Linux allows 1 MiB to
// anyone by default).
const pipeSize = 1 << 20

// outputPipe returns a pipe for a child's standard output. Its read end
// is left blocking, outside Go's poller: a polled pipe wakes the reader on
// every write git makes, thousands of times for a large tree, while a
// blocking read only waits when the pipe is empty (see patientReader). The
// pipe is enlarged when the kernel allows; it works at any size.
func outputPipe() (r, w *os.File, err error) {
	var fds [2]int
	if err := syscall.Pipe2(fds[:], syscall.O_CLOEXEC); err != nil {
		return nil, nil, os.NewSyscallError("pipe2", err)
	}
	syscall.Syscall(syscall.SYS_FCNTL, uintptr(fds[1]), syscall.F_SETPIPE_SZ, pipeSize)
	return os.NewFile(uintptr(fds[0]), "|0"), os.NewFile(uintptr(fds[1]), "|1"), nil
}
