package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// errHelp is returned by a subcommand after printing its --help text.
var errHelp = errors.New("help requested")

// newFlags makes a FlagSet that writes usage to stderr and reports --help as
// errHelp rather than exiting.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("esr "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parseFlags parses args and maps flag.ErrHelp to errHelp.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return errHelp
		}
		return err
	}
	return nil
}

// requireFlags reports the named flags left empty in one error
// ("--bench and --out are required"), or nil when every one is set.
func requireFlags(fs *flag.FlagSet, names ...string) error {
	var missing []string
	for _, n := range names {
		f := fs.Lookup(n)
		if f == nil {
			panic("esr: requireFlags: no flag --" + n)
		}
		if f.Value.String() == "" {
			missing = append(missing, "--"+n)
		}
	}
	switch len(missing) {
	case 0:
		return nil
	case 1:
		return fmt.Errorf("%s is required", missing[0])
	}
	return fmt.Errorf("%s and %s are required", strings.Join(missing[:len(missing)-1], ", "), missing[len(missing)-1])
}

// noExtraArgs reports positional arguments a subcommand does not take.
func noExtraArgs(fs *flag.FlagSet) error {
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	return nil
}
