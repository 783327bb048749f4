package install

import (
	"bytes"
	"fmt"
	"strings"
)

// diffContext is how many unchanged lines surround each change.
const diffContext = 3

// maxDiffCells bounds the LCS table; past it the differing middle is shown
// as one replacement (settings files are small, so this is a safety net).
const maxDiffCells = 4 << 20

type opKind byte

const (
	opEqual  opKind = ' '
	opDelete opKind = '-'
	opInsert opKind = '+'
)

type diffOp struct {
	kind opKind
	line string
}

// unifiedDiff returns the changes from a to b in the unified format that
// diff -u and git print, or "" when they are equal.
func unifiedDiff(nameA, nameB string, a, b []byte) string {
	if bytes.Equal(a, b) {
		return ""
	}
	ops := lineOps(splitLines(a), splitLines(b))
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", nameA, nameB)
	for start := 0; start < len(ops); {
		// Find the next change and the run of ops its hunk covers: changes
		// closer than 2*diffContext lines apart share a hunk.
		first := start
		for first < len(ops) && ops[first].kind == opEqual {
			first++
		}
		if first == len(ops) {
			break
		}
		lo := max(first-diffContext, start)
		hi, gap := first, 0
		for i := first; i < len(ops); i++ {
			if ops[i].kind == opEqual {
				gap++
				if gap > 2*diffContext {
					break
				}
				continue
			}
			gap, hi = 0, i+1
		}
		hi = min(hi+diffContext, len(ops))
		writeHunk(&out, ops, lo, hi)
		start = hi
	}
	return out.String()
}

// writeHunk prints ops[lo:hi] with its @@ header.
func writeHunk(out *strings.Builder, ops []diffOp, lo, hi int) {
	aLine, bLine := 1, 1
	for _, op := range ops[:lo] {
		if op.kind != opInsert {
			aLine++
		}
		if op.kind != opDelete {
			bLine++
		}
	}
	var aN, bN int
	for _, op := range ops[lo:hi] {
		if op.kind != opInsert {
			aN++
		}
		if op.kind != opDelete {
			bN++
		}
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n", hunkRange(aLine, aN), hunkRange(bLine, bN))
	for _, op := range ops[lo:hi] {
		out.WriteByte(byte(op.kind))
		out.WriteString(op.line)
		if !strings.HasSuffix(op.line, "\n") {
			out.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start-1)
	}
	if n == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}

// splitLines splits after each newline, keeping it, so a missing final
// newline is visible.
func splitLines(b []byte) []string {
	var lines []string
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			lines = append(lines, string(b))
			break
		}
		lines = append(lines, string(b[:i+1]))
		b = b[i+1:]
	}
	return lines
}

// lineOps is the shortest edit script from a to b, by longest common
// subsequence over the lines between the common prefix and suffix.
func lineOps(a, b []string) []diffOp {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []diffOp
	for _, l := range a[:pre] {
		ops = append(ops, diffOp{opEqual, l})
	}
	ops = append(ops, middleOps(a[pre:len(a)-suf], b[pre:len(b)-suf])...)
	for _, l := range a[len(a)-suf:] {
		ops = append(ops, diffOp{opEqual, l})
	}
	return ops
}

func middleOps(a, b []string) []diffOp {
	var ops []diffOp
	if (len(a)+1)*(len(b)+1) > maxDiffCells {
		for _, l := range a {
			ops = append(ops, diffOp{opDelete, l})
		}
		for _, l := range b {
			ops = append(ops, diffOp{opInsert, l})
		}
		return ops
	}
	// lcs[i][j] is the LCS length of a[i:] and b[j:].
	w := len(b) + 1
	lcs := make([]int, (len(a)+1)*w)
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			} else {
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			ops = append(ops, diffOp{opEqual, a[i]})
			i, j = i+1, j+1
		case lcs[(i+1)*w+j] >= lcs[i*w+j+1]:
			ops = append(ops, diffOp{opDelete, a[i]})
			i++
		default:
			ops = append(ops, diffOp{opInsert, b[j]})
			j++
		}
	}
	for ; i < len(a); i++ {
		ops = append(ops, diffOp{opDelete, a[i]})
	}
	for ; j < len(b); j++ {
		ops = append(ops, diffOp{opInsert, b[j]})
	}
	return ops
}
