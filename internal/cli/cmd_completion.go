package cli

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
)

// runCompletion implements "agc-sarif completion bash|zsh|fish": a script
// that completes the commands and each command's flags, made from the
// command table and each command's own flag set, so it never lags behind.
// Install: bash: source <(agc-sarif completion bash); zsh: agc-sarif
// completion zsh > "${fpath[1]}/_agc-sarif"; fish: agc-sarif completion
// fish > ~/.config/fish/completions/agc-sarif.fish.
func runCompletion(e *Env, cmds map[string]command, args []string) int {
	fs := newFlags(e, "completion", "bash|zsh|fish")
	pos, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(pos) != 1 || (pos[0] != "bash" && pos[0] != "zsh" && pos[0] != "fish") {
		_ = printLine(e.Stderr, "agc-sarif completion: name one shell: bash, zsh or fish")
		fs.Usage()
		return ExitUsage
	}
	flags := commandFlags(e, cmds)
	switch pos[0] {
	case "bash":
		writeBash(e.Stdout, flags)
	case "zsh":
		fmt.Fprintln(e.Stdout, "#compdef agc-sarif")
		fmt.Fprintln(e.Stdout, "autoload -U +X bashcompinit && bashcompinit")
		writeBash(e.Stdout, flags)
	case "fish":
		writeFish(e.Stdout, flags)
	}
	return ExitOK
}

var flagLine = regexp.MustCompile(`(?m)^  -([A-Za-z0-9][A-Za-z0-9-]*)`)

// commandFlags maps each command to its flags, read from its -h output.
func commandFlags(e *Env, cmds map[string]command) map[string][]string {
	out := map[string][]string{}
	for name, c := range cmds {
		if name == "completion" || name == "version" {
			out[name] = nil
			continue
		}
		out[name] = []string{}
		var help bytes.Buffer
		sub := *e
		sub.Stdout, sub.Stderr = &help, io.Discard // help is output
		c.run(&sub, []string{"-h"})
		for _, m := range flagLine.FindAllStringSubmatch(help.String(), -1) {
			dash := "--"
			if len(m[1]) == 1 {
				dash = "-"
			}
			out[name] = append(out[name], dash+m[1])
		}
	}
	out["completion"] = []string{"bash", "zsh", "fish"}
	return out
}

func sortedNames(m map[string][]string) []string {
	names := make([]string, 0, len(m)+1)
	for n := range m {
		names = append(names, n)
	}
	names = append(names, "help")
	sort.Strings(names)
	return names
}

func writeBash(w io.Writer, flags map[string][]string) {
	names := sortedNames(flags)
	fmt.Fprintln(w, "# bash completion for agc-sarif")
	fmt.Fprintln(w, "_agc_sarif() {")
	fmt.Fprintln(w, `  local cur="${COMP_WORDS[COMP_CWORD]}" cmd="${COMP_WORDS[1]}"`)
	fmt.Fprintln(w, "  if [ \"$COMP_CWORD\" -eq 1 ]; then")
	fmt.Fprintf(w, "    COMPREPLY=($(compgen -W %q -- \"$cur\")); return\n", strings.Join(append(names, "--version", "--help"), " "))
	fmt.Fprintln(w, "  fi")
	fmt.Fprintln(w, `  case "$cmd" in`)
	for _, n := range names {
		words := flags[n]
		if n == "help" {
			words = names
		}
		fmt.Fprintf(w, "    %s) COMPREPLY=($(compgen -W %q -- \"$cur\")) ;;\n", n, strings.Join(words, " "))
	}
	fmt.Fprintln(w, "  esac")
	fmt.Fprintln(w, `  case "$cur" in -*) ;; *) COMPREPLY+=($(compgen -f -- "$cur")) ;; esac`)
	fmt.Fprintln(w, "}")
	fmt.Fprintln(w, "complete -o filenames -F _agc_sarif agc-sarif")
}

func writeFish(w io.Writer, flags map[string][]string) {
	names := sortedNames(flags)
	fmt.Fprintln(w, "# fish completion for agc-sarif")
	fmt.Fprintf(w, "complete -c agc-sarif -n __fish_use_subcommand -f -a %q\n", strings.Join(names, " "))
	fmt.Fprintln(w, "complete -c agc-sarif -n __fish_use_subcommand -l version -s v -d 'print the version'")
	for _, n := range names {
		if n == "help" {
			fmt.Fprintf(w, "complete -c agc-sarif -n '__fish_seen_subcommand_from help' -f -a %q\n", strings.Join(names, " "))
			continue
		}
		for _, f := range flags[n] {
			switch {
			case strings.HasPrefix(f, "--"):
				fmt.Fprintf(w, "complete -c agc-sarif -n '__fish_seen_subcommand_from %s' -l %s\n", n, f[2:])
			case strings.HasPrefix(f, "-"):
				fmt.Fprintf(w, "complete -c agc-sarif -n '__fish_seen_subcommand_from %s' -o %s\n", n, f[1:])
			default:
				fmt.Fprintf(w, "complete -c agc-sarif -n '__fish_seen_subcommand_from %s' -f -a %s\n", n, f)
			}
		}
	}
}
