package model

// IsSlug reports whether s may be an agent id, type slug or profile name:
// [a-z0-9][a-z0-9_-]*.
func IsSlug(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for i, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
		case i > 0 && (r == '-' || r == '_'):
		default:
			return false
		}
	}
	return true
}
