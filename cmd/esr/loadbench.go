package main

import (
	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/experiment"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/relate"
)

// loadRun loads a benchmark folder, its relation source and the readers
// that `esr eval` and `esr run` share. readers "default" means the
// notebooks' families (experiment.DefaultReaders).
func loadRun(dir, relations, readers, cache string, concurrency int) (*bench.Bench, esr.Relator, []reader.Reader, error) {
	b, err := bench.Load(dir)
	if err != nil {
		return nil, nil, nil, err
	}
	rel, err := relate.ByName(relations, b.Relations)
	if err != nil {
		return nil, nil, nil, err
	}
	var rs []reader.Reader
	if readers == "default" {
		rs, err = experiment.DefaultReaders(cache)
	} else {
		rs, err = reader.ParseList(readers, reader.Config{CacheDir: cache, Concurrency: concurrency})
	}
	if err != nil {
		return nil, nil, nil, err
	}
	return b, rel, rs, nil
}
