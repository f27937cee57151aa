package synth

// Prose templates. Placeholders: {a} attribute phrase, {v} value as written
// (maybe a paraphrase), {V} the same capitalised, {o} the value it replaces,
// {e} how the prose refers to the entity, {E} the entity's name, {f} the
// attribute's field name, {d} a date, {ind}/{Ind} the date with its
// preposition ("on 2015-02-03", "in 2015"),
// {src} a cited source, {ip} an anonymous editor, {ed} a named editor,
// {h} a handle, {u} a user name, {n} an issue number, {k} a small number,
// {rev} a revision id.
//
// Each claim kind has a "friendly" and a "hostile" list with respect to the
// rule scorer of package relate: friendly text carries the cue the rule
// needs to reach the gold relation (an update cue on updates and reverts, no
// cue on cross-source conflicts, a hedge on speculation and recollections),
// hostile text lacks it or carries a misleading one. Which list a claim uses
// is drawn per claim, so the rule scorer is realistically imperfect while the
// gold relation never depends on the wording. Refinements have no text cue in
// the rule (only value containment); their friendly text says it narrows
// ("more precisely"), their hostile text reads like any new value, sometimes
// with an update word, so no scorer can learn REFINES from wording alone.

type tmplSet struct{ friendly, hostile []string }

type style struct {
	claims  map[claimKind]tmplSet
	special map[string]map[claimKind]tmplSet
	clutter []string
	// mention words extra mentions (claim.mention): a key stated, restated
	// or changed in passing, as issue templates, infoboxes and fact lists
	// do. {A} is the attribute phrase capitalised.
	mention map[claimKind]tmplSet
}

var githubStyle = style{
	claims: map[claimKind]tmplSet{
		kInitial: {friendly: []string{
			"The {a} is {v}.", "Currently the {a} for {e} is {v}.", "We run {e} with a {a} of {v}.",
			"Our {a} is {v}.", "Relevant detail: the {a} is {v}.", "Config has {f} = {v}."}},
		kRestate: {friendly: []string{
			"Confirming the {a} is still {v}.", "+1, {v} here as well.", "Can confirm the {a} is {v} on my side too.",
			"Still seeing {v} as the {a}."}},
		kUpdate: {
			friendly: []string{"Update: the {a} is now {v}.", "We changed the {a} to {v}.",
				"Switched the {a} to {v} instead of {o}.", "Correction: the {a} should be {v}.",
				"Replaced {o} with {v} as the {a}."},
			hostile: []string{"Let's use {v} for the {a}.", "The {a} is {v} in the new release.",
				"After more testing, {v} is the right {a}.", "Going forward the {a} will be {v}."}},
		kRevert: {
			friendly: []string{"Reverting the {a} back to {v}; {o} caused regressions.", "Rolled back the {a} to {v}.",
				"Restored the previous {a}: {v}.", "Undo the last change, the {a} is {v} again."},
			hostile: []string{"The {a} is {v} again, as it was originally.",
				"{V} it is for the {a}, like before; {o} did not work out."}},
		kConflict: {
			friendly: []string{"I disagree: on my setup the {a} is {v}.",
				"That does not match what I see. Here the {a} is {v}.", "For us the {a} is {v}, not {o}."},
			hostile: []string{"Actually the {a} is {v}.", "No, the {a} has to be {v} instead."}},
		kRefine: {
			friendly: []string{"More precisely, the {a} is {v}.", "To narrow it down: the {a} is {v}.",
				"Small clarification, the {a} is {v}."},
			hostile: []string{"The {a} is {v}.", "Update: the {a} is {v}.", "Turns out the {a} is {v}."}},
		kHedge: {
			friendly: []string{"Maybe {v} would be a better {a}?", "Not sure, but perhaps {v}?",
				"I guess {v} might also work as the {a}."},
			hostile: []string{"Should we switch the {a} to {v}?", "Could the {a} be {v} instead?"}},
		kRecall: {
			friendly: []string{"Wasn't the {a} {v} at some point?", "We had {v} as the {a} before, right?"},
			hostile: []string{"As noted earlier, the {a} used to be {v}.", "For the record, {v} was the old {a}.",
				"Back when the {a} was {v} this worked fine."}},
	},
	special: map[string]map[claimKind]tmplSet{
		"issuefield": {
			kInitial: {friendly: []string{"The {a} is {v}.", "Marking the {a} as {v}.", "Relevant detail: the {a} is {v}."}},
		},
		"status": {
			kInitial: {friendly: []string{"Opening this issue."}},
			kRestate: {friendly: []string{"Still happening here.", "Confirmed it is still an issue on 2.4."}},
			kUpdate: {
				friendly: []string{"Closed via #{n}.", "Fixed in #{n}, closing."},
				hostile:  []string{"Closing this one, see #{n}.", "Done in #{n}."}},
			kRevert: {
				friendly: []string{"Reopened: still failing on the latest release.", "Reopen, the patch in #{n} did not cover {e}."},
				hostile:  []string{"Reopening, this still happens with the latest release."}},
			// No hedges or recollections on the status: it has two values only.
		},
		"owner": {
			kInitial: {friendly: []string{"Assigning this to @{v}.", "@{v} will look into this."}},
			kRestate: {friendly: []string{"@{v} is still on it.", "Ping @{v}, any progress?"}},
			kUpdate: {
				friendly: []string{"Reassigned to @{v} instead.", "Handing this over: changed the assignee to @{v}."},
				hostile:  []string{"@{v} will take this one.", "Assignee: @{v}."}},
			kRevert: {
				friendly: []string{"Assigning back to @{v}.", "Reverting the assignment, @{v} owns this again."},
				hostile:  []string{"@{v} is taking this over again."}},
			kHedge: {
				friendly: []string{"Maybe @{v} could look at this?"},
				hostile:  []string{"Should we switch this to @{v}?"}},
			kRecall: {
				friendly: []string{"Wasn't @{v} on this before?"},
				hostile:  []string{"@{v} used to own this."}},
		},
		"labels": {
			kInitial: {friendly: []string{"Labels: {v}.", "Labeled {v}."}},
			kRestate: {friendly: []string{"Keeping the labels as {v}."}},
			kUpdate: {
				friendly: []string{"Labels changed to {v}.", "Updated labels: {v}."},
				hostile:  []string{"Relabeled as {v}.", "Label set is {v}."}},
			kRevert: {
				friendly: []string{"Restored the labels: {v}.", "Reverted labels back to {v}."},
				hostile:  []string{"Labels are {v} again."}},
			kRefine: {friendly: []string{"Added a label, labels are {v}.", "Labels: {v}."}},
			// A narrower label replacing a broader one is "relabel" below.
			kHedge: {
				friendly: []string{"Should this be labeled {v}?"},
				hostile:  []string{"Maybe switch the label to {v}?"}},
			kRecall: {
				friendly: []string{"Wasn't this labeled {v} earlier?"},
				hostile:  []string{"This was labeled {v} earlier."}},
		},
		"relabel": {
			kRefine: {
				friendly: []string{"Narrowed the label from {o} to {v}.", "Relabeled as {v}, more specific than {o}."},
				hostile:  []string{"Labels: {v}.", "Relabeled as {v}."}},
		},
	},
	clutter: []string{
		"Thanks for the report!", "I can reproduce this as well.", "Same issue here on my machine.",
		"Any news on this?", "This looks related to #{n}.", "cc @{h}",
		"Here is the full traceback:\n  File \"/home/{u}/project/run.py\", line {k}, in <module>\n    main()\nTimeoutError: operation timed out",
		"Is there a timeline for the next release?", "Subscribing.", "I'll take a look tomorrow.",
		"Could you share your environment details?", "Environment: Python 3.{k}, Ubuntu 22.04, {e} from the main branch.",
		"Ran the test suite locally, everything else passes.",
		"Please avoid +1 comments and use the reaction button.",
		"Logs are in /Users/{u}/Library/Logs/app.log if anyone wants them.",
	},
	mention: map[claimKind]tmplSet{
		kInitial: {friendly: []string{"{A}: {v}.", "For reference, the {a} is {v}.", "(The {a} is {v}.)", "We are on {v} for the {a}."}},
		kRestate: {friendly: []string{"{A}: {v}.", "The {a} is still {v}.", "(Still {v} for the {a}.)", "Same {a} as before: {v}."}},
		kUpdate: {
			friendly: []string{"The {a} is now {v}.", "{A} changed to {v}."},
			hostile:  []string{"{A}: {v}.", "The {a} is {v} here."}},
	},
}

var wikiStyle = style{
	claims: map[claimKind]tmplSet{
		kInitial: {friendly: []string{
			"Edit summary: expanded infobox.\n| {f} = {v}\nThe {a} of {E} is {v}.",
			"Edit summary: added {a} to the infobox.\n| {f} = {v}",
			"Edit summary: new section.\n{E} has a {a} of {v}."}},
		kRestate: {friendly: []string{
			"Edit summary: copyedit.\n{E}'s {a} remains {v}.",
			"Edit summary: added citation for the {a}.\n| {f} = {v}"}},
		kUpdate: {
			friendly: []string{"Edit summary: updated {a}.\n| {f} = {v}\nThe {a} of {E} is now {v}.",
				"Edit summary: update {a} per official statistics.\n| {f} = {v}",
				"Edit summary: changed {a} to {v}.\nThe {a} of {E} is {v}."},
			hostile: []string{"Edit summary: {a} per official statistics.\n| {f} = {v}",
				"Edit summary: new figures.\nThe {a} of {E} is {v}."}},
		kRevert: {
			friendly: []string{"Edit summary: Reverted edits by {ip} (talk) to last version by {ed}.\n| {f} = {v}",
				"Edit summary: restored sourced {a}.\nThe {a} of {E} is {v}.",
				"Edit summary: Undid revision {rev} by {ip}.\n| {f} = {v}"},
			hostile: []string{"Edit summary: per talk page consensus.\nThe {a} of {E} is {v}.",
				"Edit summary: consensus version.\n| {f} = {v}"}},
		kConflict: {
			friendly: []string{"Edit summary: per national statistics office.\nThe {a} of {E} is {v}, according to another source.",
				"Edit summary: sourced figure, disputed on talk.\n| {f} = {v}"},
			hostile: []string{"Edit summary: correction.\n| {f} = {v}", "Edit summary: actually {v}.\nThe {a} of {E} is {v}."}},
		kRefine: {
			friendly: []string{"Edit summary: more precise {a}.\n| {f} = {v}",
				"Edit summary: clarify {a}.\nThe {a} of {E} is {v}."},
			hostile: []string{"Edit summary: updated {a}.\n| {f} = {v}", "Edit summary: per new source.\nThe {a} of {E} is {v}."}},
		kHedge: {
			friendly: []string{"Talk: Is the {a} of {E} really {v}? Citation needed.",
				"Talk: The {a} might be {v}, not sure."},
			hostile: []string{"Talk: Should we update the {a} to {v}?"}},
		kRecall: {
			friendly: []string{"Talk: Wasn't the {a} {v} before?"},
			hostile:  []string{"Edit summary: expanded history section.\nThe {a} of {E} was formerly {v}."}},
	},
	special: map[string]map[claimKind]tmplSet{
		"vandal": {
			kUpdate: {friendly: []string{"Edit summary: (none)\n| {f} = {v}"},
				hostile: []string{"Edit summary: (none)\nThe {a} of {E} is {v}!!"}},
		},
	},
	clutter: []string{
		"Edit summary: fixed typo.", "Edit summary: added citation.", "Edit summary: moved image to the geography section.",
		"Edit summary: categorization.", "Edit summary: reverted vandalism in the culture section.",
		"Talk: Could someone add a map of {E}?", "Edit summary: bot: updating archive links.",
		"Edit summary: expanded the economy section with trade figures.", "Talk: The history section needs sources.",
	},
	mention: map[claimKind]tmplSet{
		kInitial: {friendly: []string{"| {f} = {v}", "The {a} of {E} is {v}."}},
		kRestate: {friendly: []string{"| {f} = {v}", "{E}'s {a} is {v}."}},
		kUpdate: {
			friendly: []string{"| {f} = {v}\nThe {a} of {E} is now {v}.", "The {a} of {E} changed to {v}."},
			hostile:  []string{"| {f} = {v}"}},
	},
}

var dyknowStyle = style{
	claims: map[claimKind]tmplSet{
		kInitial: {friendly: []string{"As of {d}, the {a} of {E} is {v}.", "{V} has been the {a} of {E} since {d}."}},
		kRestate: {friendly: []string{"As of {d}, the {a} of {E} is {v}.", "{Ind}, {v} was confirmed as the {a} of {E}."}},
		kUpdate: {friendly: []string{"As of {d}, the {a} of {E} is {v}.", "{Ind}, {v} became the {a} of {E}.",
			"{V} has been the {a} of {E} since {d}."}},
		kRevert: {friendly: []string{"As of {d}, the {a} of {E} is {v}.", "{Ind}, {v} became the {a} of {E} again."}},
		kRefine: {friendly: []string{"As of {d}, the {a} of {E} is {v}.", "Since {d}, the {a} of {E} has been {v}."}},
		kConflict: {
			friendly: []string{"According to {src}, as of {d} the {a} of {E} is {v}."},
			hostile:  []string{"According to {src}, the {a} of {E} is now {v}."}},
		kHedge: {
			friendly: []string{"Reports {ind} suggested that {v} might become the {a} of {E}."},
			hostile:  []string{"Some outlets expected {v} to replace the {a} of {E}?"}},
		kRecall: {
			friendly: []string{"Some sources still list {v} as the {a} of {E}, which might be outdated."},
			hostile:  []string{"{V} served as the {a} of {E} for several years."}},
	},
	clutter: []string{
		"{E} is covered extensively in the regional press.", "A profile of {E} appeared {ind}.",
		"The article on {E} was last reviewed {ind}.", "{E} appears in several international rankings.",
		"An interview published {ind} discussed the outlook for {E}.",
	},
	mention: map[claimKind]tmplSet{
		kInitial: {friendly: []string{"The {a} of {E} is {v}.", "{E}'s {a}: {v}."}},
		kRestate: {friendly: []string{"The {a} of {E} is {v}.", "{E}'s {a} remains {v}."}},
		kUpdate: {
			friendly: []string{"{Ind}, the {a} of {E} changed to {v}.", "The {a} of {E} is now {v}."},
			hostile:  []string{"{E}'s {a}: {v}."}},
	},
}

func styleFor(src string) *style {
	switch src {
	case "wiki":
		return &wikiStyle
	case "dyknow":
		return &dyknowStyle
	}
	return &githubStyle
}
