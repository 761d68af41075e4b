package referee

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"tengen/engine"
)

// DefaultGNUGo is where Debian installs GNU Go (package gnugo).
const DefaultGNUGo = "/usr/games/gnugo"

// GTPProposer asks a GTP engine run as a subprocess for the dead stones of a stopped game:
// boardsize, clear_board, komi, set_free_handicap, play every move, final_status_list dead.
type GTPProposer struct {
	Path string   // the engine's executable
	Args []string // its arguments; for GNU Go "--mode gtp"
}

// GNUGo returns a proposer running GNU Go at path (DefaultGNUGo when empty), or false when no
// executable is there.
func GNUGo(path string) (*GTPProposer, bool) {
	if path == "" {
		path = DefaultGNUGo
	}
	st, err := os.Stat(path)
	if err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
		return nil, false
	}
	return &GTPProposer{Path: path, Args: []string{"--mode", "gtp"}}, true
}

// ErrGTP is wrapped by every failure of the GTP conversation.
var ErrGTP = errors.New("gtp engine")

// ProposeDead runs the engine for pos and returns the stones it lists as dead. The engine is
// killed when ctx ends.
func (g *GTPProposer) ProposeDead(ctx context.Context, pos Position) ([]engine.Point, error) {
	cmd := exec.CommandContext(ctx, g.Path, g.Args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrGTP, err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrGTP, err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%w: starting %s: %w", ErrGTP, g.Path, err)
	}
	defer func() {
		stdin.Close()
		_ = cmd.Wait()
	}()
	conv := &gtpConn{w: stdin, r: bufio.NewReader(stdout)}
	send := func(c string) (string, error) {
		res, err := conv.do(c)
		if err != nil {
			if ctx.Err() != nil {
				return "", fmt.Errorf("%w: %q: %w", ErrGTP, c, ctx.Err())
			}
			return "", fmt.Errorf("%w: %q: %w", ErrGTP, c, err)
		}
		return res, nil
	}
	cmds := []string{"boardsize " + strconv.Itoa(pos.Size), "clear_board", "komi " + strconv.FormatFloat(pos.Komi, 'f', -1, 64)}
	if len(pos.Handicap) > 0 {
		vs := make([]string, len(pos.Handicap))
		for i, p := range pos.Handicap {
			vs[i] = p.GTP(pos.Size)
		}
		cmds = append(cmds, "set_free_handicap "+strings.Join(vs, " "))
	}
	for _, m := range pos.Moves {
		cmds = append(cmds, "play "+m.GTP(pos.Size))
	}
	for _, c := range cmds {
		if _, err := send(c); err != nil {
			return nil, err
		}
	}
	res, err := send("final_status_list dead")
	if err != nil {
		return nil, err
	}
	_, _ = conv.do("quit")
	return ParseVertices(res, pos.Size)
}

// gtpConn is one GTP conversation: a command out, a response in.
type gtpConn struct {
	w  io.Writer
	r  *bufio.Reader
	id int
}

func (c *gtpConn) do(cmd string) (string, error) {
	c.id++
	if _, err := fmt.Fprintf(c.w, "%d %s\n", c.id, cmd); err != nil {
		return "", err
	}
	return ReadResponse(c.r, c.id)
}

// MaxResponse bounds a GTP response, so a runaway engine cannot exhaust memory.
const MaxResponse = 1 << 16

// ReadResponse reads one GTP response ("=id text" or "?id message", ending with an empty line)
// and returns its text, or an error with the engine's message for a failure response.
func ReadResponse(r *bufio.Reader, id int) (string, error) {
	var lines []string
	total := 0
	for {
		line, err := r.ReadString('\n')
		total += len(line)
		if total > MaxResponse {
			return "", errors.New("response too long")
		}
		line = strings.TrimRight(line, "\r\n")
		if err != nil {
			if err == io.EOF && line == "" && len(lines) == 0 {
				return "", errors.New("the engine closed its output")
			}
			if err != io.EOF {
				return "", err
			}
			if line != "" {
				lines = append(lines, line)
			}
			break
		}
		if line == "" {
			if len(lines) == 0 {
				continue // blank lines before a response
			}
			break
		}
		lines = append(lines, line)
	}
	return parseResponse(lines, id)
}

func parseResponse(lines []string, id int) (string, error) {
	if len(lines) == 0 {
		return "", errors.New("empty response")
	}
	first := lines[0]
	if first == "" || (first[0] != '=' && first[0] != '?') {
		return "", fmt.Errorf("malformed response %q", clip(first))
	}
	ok := first[0] == '='
	rest := first[1:]
	digits := 0
	for digits < len(rest) && rest[digits] >= '0' && rest[digits] <= '9' {
		digits++
	}
	if digits > 0 {
		n, err := strconv.Atoi(rest[:digits])
		if err != nil || n != id {
			return "", fmt.Errorf("response id %q does not match command %d", clip(rest[:digits]), id)
		}
	}
	text := strings.TrimSpace(strings.Join(append([]string{rest[digits:]}, lines[1:]...), "\n"))
	if !ok {
		return "", fmt.Errorf("engine refused: %s", clip(text))
	}
	return text, nil
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// ParseVertices reads a whitespace-separated list of GTP vertices (as final_status_list gives);
// "pass" entries are skipped; anything else is an error.
func ParseVertices(text string, size int) ([]engine.Point, error) {
	var out []engine.Point
	for _, f := range strings.Fields(text) {
		if strings.EqualFold(f, "pass") {
			continue
		}
		p, err := engine.ParsePoint(f, size)
		if err != nil {
			return nil, fmt.Errorf("%w: vertex %q: %w", ErrGTP, clip(f), err)
		}
		out = append(out, p)
	}
	return out, nil
}
