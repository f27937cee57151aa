package experiment

import (
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/internal/paper"
)

// Paper holds the paper's published numbers that tables print beside ours
// (spec §9; arXiv 2607.16019). Keys name the table cell.
var Paper = paper.Numbers

// PaperCell formats the paper's number for key, or "—" when the paper has
// none.
func PaperCell(key string, signed bool) string {
	v, ok := Paper[key]
	if !ok {
		return "—"
	}
	if signed {
		return fmtSigned(v)
	}
	return eval.PropCell(v)
}

// PaperPValues are the paper's Table 20 permutation p-values per family
// (auxiliary high-noise split), from the registry.
var PaperPValues = paper.Table20
