package debian_test

import (
	"slices"
	"testing"

	"github.com/esrkit/esrkit/internal/debian"
)

func TestParseCopyright(t *testing.T) {
	// A machine-readable file in the copyright format 1.0's shape.
	dep5 := `Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: hello

Files: *
Copyright: 1992-2022 Free Software Foundation
License: GPL-3+

Files: lib/*.c
 gnulib/*
Copyright: 2001 Someone
License: LGPL-2.1+
 This library is free software.

Files: debian/*
Copyright: 2023 Santiago Vila
License: GPL-3+ or Artistic

License: GPL-3+
 On Debian systems, see /usr/share/common-licenses/GPL-3.
`
	l := debian.ParseCopyright(dep5)
	if !l.MachineReadable || l.Main != "GPL-3+" || l.Debian != "GPL-3+ or Artistic" ||
		!slices.Equal(l.All, []string{"GPL-3+", "GPL-3+ or Artistic", "LGPL-2.1+"}) || l.Summary() != "GPL-3+" {
		t.Errorf("DEP-5: %+v", l)
	}
	free := `This is the Debian prepackaged version of hello.

Copyright (C) 1992 Free Software Foundation.
This program is free software; you can redistribute it under the terms of
the GNU General Public License; see /usr/share/common-licenses/GPL-2.
Parts are in the public domain.
`
	l = debian.ParseCopyright(free)
	if l.MachineReadable || !slices.Equal(l.Mentions, []string{"GPL", "public-domain"}) ||
		l.Summary() != "free-form; mentions GPL, public-domain" {
		t.Errorf("free-form: %+v %q", l, l.Summary())
	}
	if s := debian.ParseCopyright("Copyright 2000 Nobody.\n").Summary(); s != "free-form; names no licence from the list" {
		t.Errorf("no licence: %q", s)
	}
}
