package eval

import (
	"fmt"
	"math"

	"github.com/esrkit/esrkit/internal/report"
)

// CellKind says what a table cell holds, so that a writer styles a cell by
// its kind (right-aligns a number, shades a verdict) and never reads its
// text back.
type CellKind uint8

// The kinds of a cell.
const (
	// kindText is words: a name, a condition, an interval, a "—".
	kindText CellKind = iota
	// kindProportion is an accuracy or a rate in [0, 1], "0.459".
	kindProportion
	// kindDifference is a signed difference, "+0.159".
	kindDifference
	// kindCount is a whole number, "900".
	kindCount
	// kindNumber is any other number: a p-value, a ratio, a score.
	kindNumber
	// KindRight and KindWrong are a verdict on an answer: the answer with
	// "✓" (right) or "✗" (wrong) after it.
	KindRight
	KindWrong
)

// Numeric reports whether cells of kind k hold one number.
func (k CellKind) Numeric() bool {
	switch k {
	case kindProportion, kindDifference, kindCount, kindNumber:
		return true
	}
	return false
}

// Cell is one formatted table cell and what it holds. Its text is what
// every writer prints (CSV, Markdown, LaTeX, the terminal, HTML); its kind
// is how a writer that styles cells (nbhelp.TableHTML, the comparison page)
// styles it.
type Cell struct {
	Kind CellKind
	Text string
}

// String is the cell's text.
func (c Cell) String() string { return c.Text }

// TextCell is s as words.
func TextCell(s string) Cell { return Cell{kindText, s} }

// SignedCell is a signed difference, "+0.159" (report.Signed).
func SignedCell(x float64) Cell { return Cell{kindDifference, report.Signed(x)} }

// CountCell is n as a whole number, "900".
func CountCell(n int) Cell { return Cell{kindCount, fmt.Sprint(n)} }

// NumberCell is x printed with format (a verb for one float, "%.2f").
func NumberCell(format string, x float64) Cell { return Cell{kindNumber, fmt.Sprintf(format, x)} }

// PValueCell is a p-value with four decimals (report.PValue), or the words
// "<0.0001" below that.
func PValueCell(p float64) Cell {
	if p < 1e-4 {
		return TextCell(report.PValue(p))
	}
	return Cell{kindNumber, report.PValue(p)}
}

// VerdictCell is an answer's text with the verdict's mark after it, "✓"
// when right and "✗" when wrong, or the mark alone for no text.
func VerdictCell(answer string, right bool) Cell {
	mark, kind := "✗", KindWrong
	if right {
		mark, kind = "✓", KindRight
	}
	if answer == "" {
		return Cell{kind, mark}
	}
	return Cell{kind, answer + " " + mark}
}

// PropCell is a proportion, "0.459", or NotMeasured's words for the NaN of
// an accuracy without a readable row.
func PropCell(x float64) Cell {
	if math.IsNaN(x) {
		return TextCell(NotMeasured)
	}
	return Cell{kindProportion, report.Prop(x)}
}
