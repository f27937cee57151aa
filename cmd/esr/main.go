// Command esr is the command line over the esrkit library: ledgers, renders,
// evaluations, benchmarks and the paper's statistics. Every subcommand lives in
// its own file and registers itself in commands; logic stays in the library.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/esrkit/esrkit/internal/termsafe"
)

// command is one subcommand: run gets the arguments after its name and the
// streams to write to; a returned error is printed to stderr with exit 1.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

var commands = map[string]command{}

func register(name, summary string, run func(args []string, stdout, stderr io.Writer) error) {
	if _, dup := commands[name]; dup {
		panic("esr: command registered twice: " + name)
	}
	commands[name] = command{summary: summary, run: run}
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: esr COMMAND [flags]   (esr COMMAND --help for its flags)")
	fmt.Fprintln(w, "\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-12s %s\n", n, commands[n].summary)
	}
}

func main() {
	os.Exit(runMain(os.Args[1:], os.Stdout, os.Stderr))
}

// runMain is main without os.Exit, so tests can drive the whole CLI.
func runMain(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "esr: unknown command %q\n", args[0])
		usage(stderr)
		return 2
	}
	defer endAdaptersOnTermination()()
	if err := cmd.run(args[1:], stdout, stderr); err != nil {
		if err == errHelp {
			return 0
		}
		// An error may quote a file, a row or a server's reply: what a
		// terminal would act on in it is shown escaped.
		fmt.Fprintf(stderr, "esr %s: %s\n", args[0], termsafe.Lines(strings.TrimSpace(err.Error())))
		return exitCode(err)
	}
	return 0
}
