// Command memfloor is the smallest Fyne program that looks like the kiosk to the system: one
// window of the given size with one label whose text changes every second. scripts/measure-demo
// measures its peak memory next to the kiosk's, so the kiosk's own share can be told apart from
// what Fyne, GLFW and the GL driver cost on the machine.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/widget"
)

func main() {
	w := flag.Int("width", 1280, "window width")
	h := flag.Int("height", 720, "window height")
	quit := flag.Duration("quit-after", 20*time.Second, "close the window after this long")
	flag.Parse()
	if *w <= 0 || *h <= 0 || *quit <= 0 {
		fmt.Fprintln(os.Stderr, "memfloor: width, height and quit-after must be positive")
		os.Exit(2)
	}
	a := app.New()
	win := a.NewWindow("memfloor")
	label := widget.NewLabel("")
	win.SetContent(label)
	win.Resize(fyne.NewSize(float32(*w), float32(*h)))
	go func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		end := time.After(*quit)
		for {
			select {
			case now := <-t.C:
				fyne.Do(func() { label.SetText(now.Format(time.TimeOnly)) })
			case <-end:
				fyne.Do(a.Quit)
				return
			}
		}
	}()
	win.ShowAndRun()
}
