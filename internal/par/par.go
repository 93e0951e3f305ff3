// Package par runs independent pieces of work on a few goroutines.
package par

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
)

// Each calls f(i) for every i from 0 to n-1 on up to workers goroutines
// (GOMAXPROCS when workers <= 0), and returns when every call has. The
// calls must not depend on each other's order. A call that panics makes
// Each panic in the caller's goroutine once every call has run, with the
// first panic's value and the stack of the goroutine it came from: there
// charter's recover prints it through the credential detector (and the
// hook still answers), where on a worker Go would print it to the
// process's standard error, past every writer, and end the process.
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
	var (
		mu    sync.Mutex
		first *Panic
	)
	call := func(i int) {
		defer func() {
			if r := recover(); r != nil {
				mu.Lock()
				if first == nil {
					first = &Panic{Value: r, Stack: debug.Stack()}
				}
				mu.Unlock()
			}
		}()
		f(i)
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range next {
				call(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	if first != nil {
		panic(first)
	}
}

// Go runs f on a new goroutine and returns a function that waits for it
// and returns its result; a panic in f panics in the goroutine that waits,
// as Each's calls do.
func Go[T any](f func() T) (wait func() T) {
	var (
		v T
		p *Panic
	)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if r := recover(); r != nil {
				p = &Panic{Value: r, Stack: debug.Stack()}
			}
		}()
		v = f()
	}()
	return func() T {
		<-done
		if p != nil {
			panic(p)
		}
		return v
	}
}

// Panic is a panic carried from the goroutine it happened on: its value
// and that goroutine's stack.
type Panic struct {
	Value any
	Stack []byte
}

func (p *Panic) String() string {
	return fmt.Sprintf("%v\n\n(on another goroutine:)\n%s", p.Value, p.Stack)
}
