package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tengen/hall/brokerconf"
	"tengen/internal/halltest"
)

// TestInit: `hall init` writes the set-up and says the next commands; bad usage exits 2.
func TestInit(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "hall")
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"init", dir, "--hall", "egc", "--tables", "3", "--port", "18883"}, &out, &errOut); err != nil {
		t.Fatalf("%v: %s", err, errOut.String())
	}
	for _, f := range []string{brokerconf.ConfFile, brokerconf.PasswdFile, brokerconf.ACLFile, brokerconf.CredentialsFile, brokerconf.UnitFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s not written: %v", f, err)
		}
	}
	if !strings.Contains(out.String(), "hall serve --hall egc --broker mqtt://127.0.0.1:18883 --credentials "+filepath.Join(dir, brokerconf.CredentialsFile)) {
		t.Errorf("init does not say how to start the dashboard:\n%s", out.String())
	}
	for _, args := range [][]string{{"init", dir}, {"init"}, {"serve"}, {"nonsense"}, {}} {
		err := run(context.Background(), args, io.Discard, io.Discard)
		var ee exitError
		if !errors.As(err, &ee) || ee.code != 2 {
			t.Errorf("hall %v: %v, want exit status 2", args, err)
		}
	}
}

// TestServe: `hall serve` logs in to a real broker with the credentials file, serves the page,
// and stops with its context.
func TestServe(t *testing.T) {
	b := halltest.Start(t, 1)
	port := halltest.FreePort(t)
	ctx, cancel := context.WithCancel(context.Background())
	var out bytes.Buffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--hall", halltest.Hall, "--broker", b.URL(), "--credentials",
			filepath.Join(b.Dir, brokerconf.CredentialsFile), "--listen", fmt.Sprintf("127.0.0.1:%d", port)}, &out, io.Discard)
	}()
	url := fmt.Sprintf("http://127.0.0.1:%d/", port)
	deadline := time.Now().Add(10 * time.Second)
	for {
		r, err := http.Get(url)
		if err == nil {
			body, _ := io.ReadAll(r.Body)
			r.Body.Close()
			if r.StatusCode != 200 || !strings.Contains(string(body), "Tengen hall <b>"+halltest.Hall+"</b>") {
				t.Fatalf("status %d: %s", r.StatusCode, body)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the dashboard does not answer: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("hall serve did not stop with its context")
	}
}
