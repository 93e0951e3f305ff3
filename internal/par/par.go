// Package par runs independent pieces of work on a few goroutines.
package par

import (
	"runtime"
	"sync"
)

// Each calls f(i) for every i from 0 to n-1 on up to workers goroutines
// (GOMAXPROCS when workers <= 0), and returns when every call has. The
// calls must not depend on each other's order.
func Each(n, workers int, f func(i int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, n)
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range next {
				f(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}
