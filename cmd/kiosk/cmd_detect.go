package main

import (
	"context"
	"errors"
	"io"
)

// runDetect is replaced by the issue that builds it.
func runDetect(_ context.Context, _ []string, _, _ io.Writer) error {
	return errors.New("the detect command is not built yet")
}
