package model

import "testing"

func TestIsSlug(t *testing.T) {
	for s, want := range map[string]bool{
		"ann": true, "a-1_b": true, "9lives": true,
		"": false, "../x": false, "A B": false, "Ann": false, "-x": false, "_x": false, "a.b": false, "é": false,
	} {
		if got := IsSlug(s); got != want {
			t.Errorf("IsSlug(%q) = %v, want %v", s, got, want)
		}
	}
}
