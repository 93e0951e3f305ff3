package model

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// Choice is the value of a setting: an option name, or a number for numeric
// settings.
type Choice struct {
	Name     string
	Number   float64
	IsNumber bool
}

// NameChoice returns the choice of a named option.
func NameChoice(name string) Choice { return Choice{Name: name} }

// NumberChoice returns a numeric choice.
func NumberChoice(n float64) Choice { return Choice{Number: n, IsNumber: true} }

// String returns the option name, or the number in its shortest form.
func (c Choice) String() string {
	if c.IsNumber {
		return strconv.FormatFloat(c.Number, 'f', -1, 64)
	}
	return c.Name
}

// MarshalJSON writes a string or a number.
func (c Choice) MarshalJSON() ([]byte, error) {
	if c.IsNumber {
		return []byte(c.String()), nil
	}
	return json.Marshal(c.Name)
}

// UnmarshalJSON reads a string or a number.
func (c *Choice) UnmarshalJSON(b []byte) error {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	ch, err := ChoiceOf(v)
	*c = ch
	return err
}

// ChoiceOf converts a decoded value (string or number) to a Choice.
func ChoiceOf(v any) (Choice, error) {
	switch x := v.(type) {
	case string:
		return NameChoice(x), nil
	case float64:
		return NumberChoice(x), nil
	case int64:
		return NumberChoice(float64(x)), nil
	case int:
		return NumberChoice(float64(x)), nil
	case json.Number:
		f, err := x.Float64()
		return NumberChoice(f), err
	}
	return Choice{}, fmt.Errorf("a setting's value must be an option name or a number, not %T", v)
}
