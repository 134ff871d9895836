package cli

// treeGCPercent is the garbage collector's target fingerprint and carry
// ask Env.Runtime for while they read a whole commit tree. Reading
// 100,000 entries builds a heap of about 20 MB that lives until the
// command ends; at the default target the collector runs several cycles
// over it, and on a loaded machine its busy-waiting doubled the wall time
// (scripts/bench-fingerprint.sh: 1.4-2.0x git ls-tree at GOGC=100,
// 1.1-1.3x at 400). The process is short-lived, so the memory is cheap.
const treeGCPercent = 400
