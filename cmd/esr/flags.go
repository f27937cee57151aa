package main

import (
	"errors"
	"flag"
	"io"
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
