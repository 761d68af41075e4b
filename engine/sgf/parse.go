// Package sgf reads and writes Smart Game Format (SGF FF[4]) game records of Go games.
//
// It works at two levels. The property level (Parse, Collection, Node, Property, Marshal) keeps every
// game tree, variation and property of a file, in order, with property values unescaped and converted
// to UTF-8. The game level (Record, ReadRecords, Record.MarshalSGF) follows the main line of one game:
// game information, setup stones and moves with their comments and clock times, in engine types.
//
// Malformed input never panics: it yields a *SyntaxError carrying the byte offset of the problem.
package sgf

import (
	"fmt"
	"strings"
)

// SyntaxError reports malformed SGF input and where in the input it is.
type SyntaxError struct {
	Offset int    // byte offset in the input where the problem was found
	Msg    string // what is wrong, in plain words
}

// Error formats the problem with its byte offset.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("sgf: byte %d: %s", e.Offset, e.Msg)
}

func syntaxErr(off int, format string, args ...any) *SyntaxError {
	return &SyntaxError{Offset: off, Msg: fmt.Sprintf(format, args...)}
}

// Collection is an SGF file: one or more game trees, each given by its root node.
type Collection struct {
	Games []*Node
}

// Node is one SGF node: its properties in file order and its children. The first child continues
// the main line; further children are variations.
type Node struct {
	Props    []Property
	Children []*Node
	Offset   int // byte offset of the node's ';' in the input (0 for nodes built in code)
}

// Property is one SGF property: an identifier such as "B" or "AB" and its values, unescaped
// (escapes and soft line breaks removed, line breaks normalised to "\n") and in UTF-8. A compressed
// point list value keeps its "aa:cc" form; ExpandPoints expands it.
type Property struct {
	ID     string
	Values []string
	Offset int // byte offset of the identifier in the input (0 for properties built in code)
}

// Get returns the first value of the node's first property with the given identifier.
func (n *Node) Get(id string) (string, bool) {
	if p := n.Prop(id); p != nil && len(p.Values) > 0 {
		return p.Values[0], true
	}
	return "", false
}

// Prop returns the node's first property with the given identifier, or nil.
func (n *Node) Prop(id string) *Property {
	for i := range n.Props {
		if n.Props[i].ID == id {
			return &n.Props[i]
		}
	}
	return nil
}

// Set replaces the values of the node's first property id, or appends the property.
func (n *Node) Set(id string, values ...string) {
	if p := n.Prop(id); p != nil {
		p.Values = values
		return
	}
	n.Props = append(n.Props, Property{ID: id, Values: values})
}

// MainLine returns the node and its first-child descendants: the main line of a game from its root.
func (n *Node) MainLine() []*Node {
	var line []*Node
	for c := n; c != nil; {
		line = append(line, c)
		if len(c.Children) == 0 {
			break
		}
		c = c.Children[0]
	}
	return line
}

// Parse reads an SGF collection. Bytes before the first '(' and after the last game tree are
// ignored, as SGF readers customarily do (mail headers, trailing notes). Each game's text is
// converted to UTF-8 according to the CA property of its root: UTF-8 (the default), US-ASCII,
// ISO-8859-1 (latin1) and Windows-1252 are converted; invalid UTF-8 and text in other charsets have
// the undecodable bytes replaced by U+FFFD. The root's CA is then set to "UTF-8", because the tree
// now holds UTF-8 text.
func Parse(data []byte) (*Collection, error) {
	p := parser{src: string(data)}
	// Size the slabs from the input: at most one node per ';' and one value per '['.
	nodes := strings.Count(p.src, ";") + 1
	vals := strings.Count(p.src, "[") + 1
	p.nodes = make([]Node, 0, min(nodes, 1<<16))
	p.kids = make([]*Node, 0, min(nodes, 1<<16))
	p.props = make([]Property, 0, min(vals, 1<<16))
	p.vals = make([]string, 0, min(vals, 1<<16))
	return p.parse()
}

// MaxItems bounds the nodes plus property values Parse builds into a tree (and, when replaying
// without a tree, the values of one node): a collection of a thousand 400-move games holds about
// 800,000, and a 10 MB file of bare ';' or '[]' would otherwise take hundreds of megabytes.
const MaxItems = 1_000_000

// maxNodeValues bounds the property values of one node: a full 25x25 board of setup stones is 625.
const maxNodeValues = 10_000

// parser is an iterative (non-recursive) reader, so that deeply nested input cannot exhaust the stack.
type parser struct {
	src     string
	pos     int
	charset charset

	// arenas: nodes, properties and values are carved from shared slabs to keep allocations few.
	nodes []Node
	props []Property
	vals  []string
	kids  []*Node

	// Streaming mode (visit != nil): no tree is built. Each main-line node is handed to visit (root
	// tells whether it is a game's root) and then reused; endGame is called when a game tree closes.
	visit   func(n *Node, root bool) error
	endGame func()
	scratch Node
	games   int

	items int // nodes and values built so far (streaming: values of the current node), within MaxItems
}

// count adds one node or value to the parser's items and refuses the input past MaxItems.
func (p *parser) count(off int) error {
	if p.items++; p.items > MaxItems {
		return syntaxErr(off, "more than %d nodes and property values: not a game record this reader takes", MaxItems)
	}
	return nil
}

func (p *parser) newNode(off int) *Node {
	if p.visit != nil {
		// The previous node has been handed over: its memory is free again.
		p.props, p.vals = p.props[:0], p.vals[:0]
		p.items = 0
		p.scratch = Node{Offset: off}
		return &p.scratch
	}
	if len(p.nodes) == cap(p.nodes) {
		p.nodes = make([]Node, 0, 1024)
	}
	p.nodes = append(p.nodes, Node{Offset: off})
	return &p.nodes[len(p.nodes)-1]
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\v' || c == '\f'
}

func (p *parser) skipSpace() {
	for p.pos < len(p.src) && isSpace(p.src[p.pos]) {
		p.pos++
	}
}

// frame is one open game tree: where its first node attaches and the last node of its sequence.
type frame struct {
	open    int   // offset of '('
	attach  *Node // node the tree's first node becomes a child of (nil at top level)
	last    *Node // last node of the tree's sequence so far
	nodes   int   // nodes in the sequence
	subtree bool  // a subtree has been closed inside this tree: only '(' or ')' may follow
	main    bool  // the tree lies on its game's main line (first variation all the way up)
	opened  int   // subtrees opened inside this tree so far
}

func (p *parser) parse() (*Collection, error) {
	col := &Collection{}
	var stack []frame
	for {
		if len(stack) == 0 {
			// Top level: skip anything up to the next game tree.
			i := indexByteFrom(p.src, p.pos, '(')
			if i < 0 {
				p.pos = len(p.src)
				break
			}
			p.pos = i + 1
			stack = append(stack, frame{open: i, main: true})
			p.charset = csUTF8
			continue
		}
		p.skipSpace()
		if p.pos >= len(p.src) {
			top := stack[len(stack)-1]
			return nil, syntaxErr(p.pos, "unexpected end of input: the game tree opened at byte %d is not closed with ')'", top.open)
		}
		f := &stack[len(stack)-1]
		c := p.src[p.pos]
		switch {
		case c == '(':
			if f.nodes == 0 {
				return nil, syntaxErr(p.pos, "a game tree must start with a node ';' before any variation")
			}
			sub := frame{open: p.pos, attach: f.last, main: f.main && f.opened == 0}
			f.opened++
			stack = append(stack, sub)
			p.pos++
		case c == ')':
			if f.nodes == 0 {
				return nil, syntaxErr(p.pos, "empty game tree: '(' at byte %d holds no node", f.open)
			}
			p.pos++
			stack = stack[:len(stack)-1]
			if len(stack) > 0 {
				stack[len(stack)-1].subtree = true
			} else if p.endGame != nil {
				p.endGame()
			}
		case c == ';':
			if f.subtree {
				return nil, syntaxErr(p.pos, "a node ';' cannot follow variations; only '(' or ')' can")
			}
			if err := p.count(p.pos); err != nil {
				return nil, err
			}
			n := p.newNode(p.pos)
			p.pos++
			root := f.attach == nil && f.nodes == 0
			switch {
			case p.visit != nil:
				if root {
					p.games++
				}
			case f.last != nil:
				p.addChild(f.last, n)
			case f.attach != nil:
				p.addChild(f.attach, n)
			default:
				col.Games = append(col.Games, n)
			}
			f.last = n
			f.nodes++
			if err := p.properties(n, root); err != nil {
				return nil, err
			}
			if p.visit != nil && f.main {
				if err := p.visit(n, root); err != nil {
					return nil, err
				}
			}
		case f.nodes == 0:
			return nil, syntaxErr(p.pos, "expected ';' to start the game tree's first node, found %q", c)
		case f.subtree:
			return nil, syntaxErr(p.pos, "expected '(' or ')' after a variation, found %q", c)
		default:
			return nil, syntaxErr(p.pos, "unexpected %q between nodes (property identifiers are letters)", c)
		}
	}
	if len(col.Games) == 0 && p.games == 0 {
		return nil, syntaxErr(p.pos, "no game tree: an SGF collection starts with '(;'")
	}
	return col, nil
}

func (p *parser) addChild(parent, child *Node) {
	if parent.Children == nil {
		// Most nodes have exactly one child: carve a one-element slice from the slab.
		if len(p.kids) == cap(p.kids) {
			p.kids = make([]*Node, 0, 1024)
		}
		p.kids = append(p.kids, child)
		parent.Children = p.kids[len(p.kids)-1 : len(p.kids) : len(p.kids)]
		return
	}
	parent.Children = append(parent.Children, child)
}

func indexByteFrom(s string, from int, c byte) int {
	for i := from; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

// properties reads the properties of node n up to the next ';', '(' or ')'. For a game's root node it
// then decides the game's charset from CA and converts the root's values.
func (p *parser) properties(n *Node, root bool) error {
	start := len(p.props)
	values := 0
	for {
		p.skipSpace()
		if p.pos >= len(p.src) {
			break
		}
		c := p.src[p.pos]
		if !isLetter(c) {
			break
		}
		idOff := p.pos
		id, err := p.ident()
		if err != nil {
			return err
		}
		vstart := len(p.vals)
		for {
			p.skipSpace()
			if p.pos >= len(p.src) || p.src[p.pos] != '[' {
				break
			}
			if err := p.count(p.pos); err != nil {
				return err
			}
			if values++; values > maxNodeValues {
				return syntaxErr(p.pos, "more than %d property values in one node: not a game record", maxNodeValues)
			}
			v, err := p.value(!root)
			if err != nil {
				return err
			}
			if len(p.vals) == cap(p.vals) {
				// Move this property's values so far into a fresh slab.
				moved := p.vals[vstart:]
				p.vals = make([]string, 0, max(1024, 2*len(moved)))
				p.vals = append(p.vals, moved...)
				vstart = 0
			}
			p.vals = append(p.vals, v)
		}
		if len(p.vals) == vstart {
			return syntaxErr(idOff, "property %s has no value: expected '['", id)
		}
		if len(p.props) == cap(p.props) {
			// Move this node's properties so far into a fresh slab.
			moved := p.props[start:]
			p.props = make([]Property, 0, max(1024, 2*len(moved)))
			p.props = append(p.props, moved...)
			start = 0
		}
		vals := p.vals[vstart:len(p.vals):len(p.vals)]
		p.props = append(p.props, Property{ID: id, Values: vals, Offset: idOff})
	}
	n.Props = p.props[start:len(p.props):len(p.props)]
	if root {
		p.charset = csUTF8
		if ca, ok := n.Get("CA"); ok {
			p.charset = lookupCharset(ca)
		}
		for i := range n.Props {
			pr := &n.Props[i]
			for j, v := range pr.Values {
				pr.Values[j] = p.charset.decode(v)
			}
			if pr.ID == "CA" {
				pr.Values = []string{"UTF-8"}
			}
		}
	}
	return nil
}

func isLetter(c byte) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }

// ident reads a property identifier. Lowercase letters (allowed by FF[3], e.g. "AddBlack") are dropped.
func (p *parser) ident() (string, error) {
	start := p.pos
	upper := 0
	for p.pos < len(p.src) && isLetter(p.src[p.pos]) {
		if p.src[p.pos] <= 'Z' {
			upper++
		}
		p.pos++
	}
	raw := p.src[start:p.pos]
	if upper == len(raw) {
		return raw, nil
	}
	if upper == 0 {
		return "", syntaxErr(start, "property identifier %q has no uppercase letter", raw)
	}
	b := make([]byte, 0, upper)
	for i := 0; i < len(raw); i++ {
		if raw[i] <= 'Z' {
			b = append(b, raw[i])
		}
	}
	return string(b), nil
}

// value reads one bracketed value at p.pos ('['), unescapes it and, when decode is set, converts it
// from the game's charset to UTF-8.
func (p *parser) value(decode bool) (string, error) {
	open := p.pos
	i := open + 1
	// Fast path: no escapes and no carriage returns.
	j := i
	for j < len(p.src) {
		c := p.src[j]
		if c == ']' || c == '\\' || c == '\r' {
			break
		}
		j++
	}
	if j >= len(p.src) {
		return "", syntaxErr(open, "property value opened with '[' is never closed with ']'")
	}
	if p.src[j] == ']' {
		p.pos = j + 1
		v := p.src[i:j]
		if decode {
			v = p.charset.decode(v)
		}
		return v, nil
	}
	b := make([]byte, 0, j-i+16)
	b = append(b, p.src[i:j]...)
	for j < len(p.src) {
		c := p.src[j]
		switch c {
		case ']':
			p.pos = j + 1
			v := string(b)
			if decode {
				v = p.charset.decode(v)
			}
			return v, nil
		case '\\':
			j++
			if j >= len(p.src) {
				break
			}
			switch d := p.src[j]; d {
			case '\n', '\r':
				// Soft line break: "\" followed by a line break (\n, \r, \r\n or \n\r) is removed.
				j++
				if j < len(p.src) && (p.src[j] == '\n' || p.src[j] == '\r') && p.src[j] != d {
					j++
				}
			default:
				b = append(b, d)
				j++
			}
		case '\r':
			// Hard line breaks are normalised to "\n".
			b = append(b, '\n')
			j++
			if j < len(p.src) && p.src[j] == '\n' {
				j++
			}
		default:
			b = append(b, c)
			j++
		}
	}
	return "", syntaxErr(open, "property value opened with '[' is never closed with ']'")
}
