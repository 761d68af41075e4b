package main

import (
	"context"
	"errors"
	"io"
)

// runDoctor is replaced by the issue that builds it.
func runDoctor(_ context.Context, _ []string, _, _ io.Writer) error {
	return errors.New("the doctor command is not built yet")
}
