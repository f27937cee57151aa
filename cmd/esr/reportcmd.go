package main

import (
	"fmt"
	"io"

	"github.com/esrkit/esrkit/internal/site"
)

func init() {
	register("report", "write the index page of the static report (one card per executed notebook)", runReport)
}

// runReport writes OUT/index.html and OUT/thumbs/ from the executed
// notebooks; `make report` converts each notebook to OUT/NAME.html first.
func runReport(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("report", stderr)
	executed := fs.String("executed", "notebooks/executed", "`DIR` of executed notebooks")
	figures := fs.String("figures", "figures", "`DIR` of the figures the notebooks saved (thumbnails)")
	out := fs.String("out", "report", "output `DIR` (index.html, thumbs/)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	cards, err := site.WriteIndex(*executed, *figures, *out)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s/index.html with %d notebooks\n", *out, len(cards))
	return nil
}
