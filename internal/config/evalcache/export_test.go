package evalcache

// SetMaxScope sets the share of the files past which an incremental
// evaluation is not tried (1 in n), for tests on small repositories.
func SetMaxScope(n int) { maxScope = n }
