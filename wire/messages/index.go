package messages

import (
	"cmp"
	"fmt"
	"slices"
)

// addBlock keeps a started block under its index. A start at an index whose
// block has stopped opens a new block there: some servers send every
// tool_use at index 0 (sglang #39782, PeakCode PR #16), and the API itself
// repeated a stopped index in a code-execution recording (vercel/ai's
// anthropic-code-execution-pdf-skill). A start at an index whose block is
// still open is an error: two blocks would share their deltas.
func (m *msgMerger) addBlock(index int, b *msgBlock) error {
	b.index, b.key, b.seq = index, index, len(m.order)
	m.lastBlock = nil
	if old := m.blockAt(index); old != nil {
		if !old.stopped {
			return fmt.Errorf("event %d: content block %d started twice", m.events, index)
		}
		// It sorts after every block started before it.
		b.reused, b.key = true, max(index, m.maxIndex)
	}
	if len(m.order) == 0 || index > m.maxIndex {
		m.maxIndex = index
	}
	m.blocks.Set(index, b)
	m.order = append(m.order, b)
	return nil
}

// blockAt returns the latest block started at index, nil when there is
// none.
func (m *msgMerger) blockAt(index int) *msgBlock {
	b, _ := m.blocks.Get(index)
	return b
}

// block returns m.blockAt(index), remembering the last block found: a
// stream's deltas come in runs at one index. Every change to m.blocks
// forgets it.
func (m *msgMerger) block(index int) *msgBlock {
	if m.lastBlock != nil && m.lastIndex == index {
		return m.lastBlock
	}
	b := m.blockAt(index)
	if b != nil {
		m.lastIndex, m.lastBlock = index, b
	}
	return b
}

// stop marks the block at index stopped; a second stop, or a stop for an
// index that never started, changes nothing.
func (m *msgMerger) stop(index int) {
	if b := m.block(index); b != nil {
		b.stopped = true
	}
}

// deltaBlock is the block a delta at index goes to: the block started there;
// or, for an index that never started, the latest block when it started at
// a reused index and is still open. In the code-execution recording the
// start repeated the stopped index 2 while its deltas and stop named 3: the
// index moves to the block, which then sorts there. nil when there is none.
func (m *msgMerger) deltaBlock(index int) *msgBlock {
	if b := m.block(index); b != nil {
		return b
	}
	if len(m.order) == 0 {
		return nil
	}
	b := m.order[len(m.order)-1]
	if !b.reused || b.stopped || m.blockAt(b.index) != b {
		return nil
	}
	m.blocks.Set(b.index, nil) // nil is no block
	m.lastBlock = nil
	b.index, b.key = index, max(b.key, index)
	m.blocks.Set(index, b)
	m.maxIndex = max(m.maxIndex, index)
	return b
}

// sorted returns the blocks in the order they make the message: by index,
// a block started at a reused index after every block started before it,
// ties in the order they started.
func (m *msgMerger) sorted() []*msgBlock {
	out := slices.Clone(m.order)
	order := func(x, y *msgBlock) int {
		return cmp.Or(cmp.Compare(x.key, y.key), cmp.Compare(x.seq, y.seq))
	}
	if !slices.IsSortedFunc(out, order) { // blocks mostly start in index order
		slices.SortStableFunc(out, order)
	}
	return out
}
