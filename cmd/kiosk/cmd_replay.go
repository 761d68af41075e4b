package main

import (
	"context"
	"errors"
	"io"
)

// runReplay is replaced by the issue that builds it.
func runReplay(_ context.Context, _ []string, _, _ io.Writer) error {
	return errors.New("the replay command is not built yet")
}
