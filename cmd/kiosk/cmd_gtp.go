package main

import (
	"context"
	"errors"
	"io"
)

// runGTP is replaced by the issue that builds it.
func runGTP(_ context.Context, _ []string, _, _ io.Writer) error {
	return errors.New("the gtp command is not built yet")
}
