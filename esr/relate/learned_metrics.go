package relate

import "github.com/esrkit/esrkit/esr"

// RelationConfusion counts pairs by [gold][predicted] relation.
type RelationConfusion [numClasses][numClasses]int

// RelationScore is one class's precision P = TP/(TP+FP), recall R = TP/(TP+FN)
// and F1 = 2PR/(P+R); each is 0 when its denominator is. Support is the
// number of gold pairs of the class, Predicted the number predicted as it.
type RelationScore struct {
	Precision, Recall, F1 float64
	Support, Predicted    int
}

// RelationScores summarise one scorer's predictions against gold.
type RelationScores struct {
	Confusion RelationConfusion
	N         int
	Accuracy  float64
	// MacroF1 is the mean F1 over the classes with gold support.
	MacroF1 float64
	Class   [numClasses]RelationScore // in esr.Relations order
}

// scoreRelations compares predictions with gold labels (same length and order).
func scoreRelations(gold, pred []esr.Relation) RelationScores {
	var s RelationScores
	correct := 0
	for i := range gold {
		s.Confusion[gold[i]][pred[i]]++
		if gold[i] == pred[i] {
			correct++
		}
	}
	s.N = len(gold)
	if s.N > 0 {
		s.Accuracy = float64(correct) / float64(s.N)
	}
	supported := 0
	for c := range numClasses {
		tp := s.Confusion[c][c]
		cs := &s.Class[c]
		for o := range numClasses {
			cs.Support += s.Confusion[c][o]
			cs.Predicted += s.Confusion[o][c]
		}
		if cs.Predicted > 0 {
			cs.Precision = float64(tp) / float64(cs.Predicted)
		}
		if cs.Support > 0 {
			cs.Recall = float64(tp) / float64(cs.Support)
			supported++
			if cs.Precision+cs.Recall > 0 {
				cs.F1 = 2 * cs.Precision * cs.Recall / (cs.Precision + cs.Recall)
			}
			s.MacroF1 += cs.F1
		}
	}
	if supported > 0 {
		s.MacroF1 /= float64(supported)
	}
	return s
}
