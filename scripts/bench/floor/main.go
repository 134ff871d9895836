// Command floor is what converting a JSON file cannot beat: read it,
// decode it with encoding/json into a generic value, encode it and write
// it. scripts/bench-convert.sh times agc-sarif convert against it.
//
//	floor IN OUT
package main

import (
	"encoding/json"
	"fmt"
	"os"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: floor IN OUT")
		os.Exit(2)
	}
	data, err := os.ReadFile(os.Args[1])
	if err == nil {
		var v any
		if err = json.Unmarshal(data, &v); err == nil {
			data, err = json.Marshal(v)
		}
	}
	if err == nil {
		err = os.WriteFile(os.Args[2], data, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}
