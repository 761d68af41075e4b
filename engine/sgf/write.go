package sgf

import (
	"io"
)

// nodesPerLine is how many nodes of a sequence the writer puts on one line.
const nodesPerLine = 10

// Marshal writes the collection as SGF text: every game tree, variation and property, in order, with
// values escaped. The text is UTF-8 (Parse converted it); the caller keeps the root CA in step (Parse
// sets it to UTF-8). Property identifiers are written as they are and should be uppercase letters; a
// property without values is written with one empty value.
func (c *Collection) Marshal() []byte {
	var b []byte
	for _, g := range c.Games {
		b = appendTree(b, g)
		b = append(b, '\n')
	}
	return b
}

// WriteTo writes the collection as Marshal does.
func (c *Collection) WriteTo(w io.Writer) (int64, error) {
	n, err := w.Write(c.Marshal())
	return int64(n), err
}

// appendTree writes "(" + the game tree rooted at root + ")" without recursion.
func appendTree(b []byte, root *Node) []byte {
	type item struct {
		node  *Node
		close bool // write ")" instead of a tree
	}
	stack := []item{{node: root}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.close {
			b = append(b, ')')
			continue
		}
		b = append(b, '(')
		// The sequence: follow single children.
		n := it.node
		for k := 0; ; k++ {
			if k > 0 && k%nodesPerLine == 0 || k == 1 {
				b = append(b, '\n')
			}
			b = appendNode(b, n)
			if len(n.Children) != 1 {
				break
			}
			n = n.Children[0]
		}
		stack = append(stack, item{close: true})
		for i := len(n.Children) - 1; i >= 0; i-- {
			stack = append(stack, item{node: n.Children[i]})
		}
		if len(n.Children) > 1 {
			b = append(b, '\n')
		}
	}
	return b
}

func appendNode(b []byte, n *Node) []byte {
	b = append(b, ';')
	for _, p := range n.Props {
		b = append(b, p.ID...)
		if len(p.Values) == 0 {
			b = append(b, "[]"...)
		}
		for _, v := range p.Values {
			b = append(b, '[')
			b = escapeValue(b, v)
			b = append(b, ']')
		}
	}
	return b
}
