package schema

import (
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

var english = message.NewPrinter(language.English)

// describe renders one leaf error in plain English, quoting with Go's double
// quotes. Kinds this schema does not produce fall back to the library's text.
func describe(ptr string, k jsonschema.ErrorKind) string {
	switch k := k.(type) {
	case *kind.Required:
		return required(ptr, k.Missing)
	case *kind.Type:
		return fmt.Sprintf("expected %s, got %s", orList(k.Want), article(k.Got))
	case *kind.Enum:
		return "value must be one of " + joinValues(k.Want)
	case *kind.Const:
		return "value must be " + display(k.Want)
	case *kind.MinLength:
		if k.Want == 1 {
			return "must not be empty"
		}
		return fmt.Sprintf("must be at least %d characters long, got %d", k.Want, k.Got)
	case *kind.MinItems:
		return fmt.Sprintf("must have at least %s, got %d", plural(k.Want, "item"), k.Got)
	case *kind.Minimum:
		return fmt.Sprintf("must be at least %s, got %s", rat(k.Want), rat(k.Got))
	case *kind.Maximum:
		return fmt.Sprintf("must be at most %s, got %s", rat(k.Want), rat(k.Got))
	case *kind.InvalidJsonValue:
		return fmt.Sprintf("a value of Go type %T is not JSON", k.Value)
	}
	return k.LocalizedString(english)
}

func required(ptr string, missing []string) string {
	q := make([]string, len(missing))
	for i, m := range missing {
		q[i] = fmt.Sprintf("%q", m)
	}
	msg := "missing property " + q[0]
	if len(q) > 1 {
		msg = "missing properties " + strings.Join(q, ", ")
	}
	if ptr == "" && slices.Contains(missing, "findings") {
		msg += ` (required unless verdict is "allow")`
	}
	return msg
}

func orList(types []string) string {
	out := make([]string, len(types))
	for i, t := range types {
		out[i] = article(t)
	}
	return strings.Join(out, " or ")
}

// article names a JSON type with its indefinite article.
func article(t string) string {
	switch t {
	case "null":
		return "null"
	case "object", "array", "integer":
		return "an " + t
	}
	return "a " + t
}

func joinValues(vs []any) string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = display(v)
	}
	return strings.Join(out, ", ")
}

func display(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprint(v)
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func rat(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() {
		return r.Num().String()
	}
	return strings.TrimRight(strings.TrimRight(r.FloatString(6), "0"), ".")
}
