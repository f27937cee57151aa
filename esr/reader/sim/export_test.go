package sim

// ResetRenderMemo empties the parsed-render memo, and RenderMemoLen is its
// size: for the tests of package reader_test.
func ResetRenderMemo() {
	renderMemo.Lock()
	renderMemo.texts, renderMemo.vals = nil, nil
	renderMemo.Unlock()
}

func RenderMemoLen() int {
	renderMemo.Lock()
	defer renderMemo.Unlock()
	return len(renderMemo.texts)
}
