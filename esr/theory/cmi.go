package theory

import "github.com/esrkit/esrkit/stats"

// CMI is the conditional mutual information estimate theory reports
// (stats.ConditionalMI: plug-in and Miller–Madow, in bits).
type CMI = stats.ConditionalMI
